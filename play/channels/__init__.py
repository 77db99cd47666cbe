"""The channels room: how a message reaches a player and comes back (docs/developers/rooms-play.md).
Its modules: the SMS gateway (sms.py) and Twilio (twilio_sms.py), Telegram (telegram.py,
telegram_buttons.py, board_png.py), the webhooks (hooks.py, hooks_twilio.py), the outbox and its
outages (outbox.py, outages.py), addresses and their verification (identities.py, linking.py,
linking_selectors.py), the daily digest (digest.py), the phone simulator (simulator.py) and the
"My phones and chats" pages (views.py); urls.py has their URLs.

This package's own module is the channels' base (it was play/channels.py, so the setting values
"play.channels.Console" still name it); it imports none of the modules above.

Outbound channels: each sends one outbox row. The console channel prints and logs (the default,
as Django's console e-mail back-end), so `make run` needs no gateway; the web channel has nothing
to send, since the game page shows the record. SMS and Telegram plug in here (settings
PLAY_CHANNEL_BACKENDS maps a channel to a class); the e-mail channel carries only outage notices.

A channel class may have `check()`, which `manage.py play_channels check` calls: it returns a short
text when the channel works and raises `CheckFailed` (with the reason) when it does not."""

from __future__ import annotations

import logging
import smtplib
import sys

from django.conf import settings
from django.core.mail import get_connection, send_mail
from django.utils.module_loading import import_string

logger = logging.getLogger("play.outbound")


class TransientFailure(Exception):
    """The channel could not send now; the row stays pending and is tried again."""


class PermanentFailure(Exception):
    """The channel refused the message and will refuse it again (a wrong number, a chat that
    blocked the bot, bad credentials): the row is marked failed at once, for staff to see."""


class CheckFailed(Exception):
    """A channel's health check failed; the message says why, for the operator."""


class Console:
    def send(self, row) -> None:
        line = f"[{row.channel} -> {row.party} {row.address}] {row.text}"
        logger.info(line)
        stream = getattr(settings, "PLAY_CONSOLE_STREAM", None) or sys.stdout
        print(line, file=stream, flush=True)

    def check(self) -> str:
        return "prints and logs"


class Web:
    def send(self, row) -> None:
        """The page reads the record; delivery is the row being there."""

    def check(self) -> str:
        return "the game page shows the record"


class Email:
    """Outage notices (play/channels/outages.py) for players with no other working channel, by Django's
    mail to the address of an account linked to the player."""

    def send(self, row) -> None:
        subject = f"{settings.SITE_NAME or 'Mobile chess'}: {row.text.splitlines()[0][:100]}"
        try:
            send_mail(subject, row.text, None, [row.address])
        except (smtplib.SMTPRecipientsRefused, smtplib.SMTPSenderRefused) as error:
            raise PermanentFailure(f"mail refused: {error}") from error
        except (smtplib.SMTPException, OSError) as error:
            raise TransientFailure(f"mail server unreachable or failing: {error}") from error

    def check(self) -> str:
        try:
            with get_connection():
                pass
        except (smtplib.SMTPException, OSError) as error:
            raise CheckFailed(f"mail server unreachable: {error}") from error
        return settings.EMAIL_BACKEND


def get(channel: str):
    path = settings.PLAY_CHANNEL_BACKENDS.get(channel) or settings.PLAY_CHANNEL_BACKENDS["console"]
    return import_string(path)()
