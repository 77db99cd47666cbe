"""Outbound channels: each sends one outbox row. The console channel prints and logs (the default,
as Django's console e-mail back-end), so `make run` needs no gateway; the web channel has nothing
to send, since the game page shows the record. SMS and Telegram plug in here (settings
PLAY_CHANNEL_BACKENDS maps a channel to a class)."""

from __future__ import annotations

import logging
import sys

from django.conf import settings
from django.utils.module_loading import import_string

logger = logging.getLogger("play.outbound")


class TransientFailure(Exception):
    """The channel could not send now; the row stays pending and is tried again."""


class PermanentFailure(Exception):
    """The channel refused the message and will refuse it again (a wrong number, a chat that
    blocked the bot, bad credentials): the row is marked failed at once, for staff to see."""


class Console:
    def send(self, row) -> None:
        line = f"[{row.channel} -> {row.party} {row.address}] {row.text}"
        logger.info(line)
        stream = getattr(settings, "PLAY_CONSOLE_STREAM", None) or sys.stdout
        print(line, file=stream, flush=True)


class Web:
    def send(self, row) -> None:
        """The page reads the record; delivery is the row being there."""


def get(channel: str):
    path = settings.PLAY_CHANNEL_BACKENDS.get(channel) or settings.PLAY_CHANNEL_BACKENDS["console"]
    return import_string(path)()
