"""Telegram through the Bot API, with the maintained client (python-telegram-bot).

Outbound: `TelegramBot` is the "telegram" channel class (PLAY_TELEGRAM_BACKEND=play.telegram.TelegramBot);
it sends one outbox row's text to the chat id kept as the row's address.

Inbound: Telegram posts each Update to /play/hooks/telegram/ (play/hooks.py) with the secret token
set in setWebhook. The view checks that token and the Update's shape, answers at once and queues
play.tasks.telegram_update, which calls `update_receive` here: a text message becomes a message for
the game service, with the message's own date as its sending time and the update_id as dedup key,
so an Update that Telegram delivers twice is applied once."""

from __future__ import annotations

import asyncio
import datetime
import logging

import telegram
from django.conf import settings
from telegram import error as telegram_errors

from play import services
from play.channels import CheckFailed, PermanentFailure, TransientFailure

logger = logging.getLogger("play.telegram")

# A Bot API that does not answer must not hold a delivery worker (and the rows it locks) for long:
# the row stays pending and the next delivery or the outbox sweeper tries again.
TIMEOUT_SECONDS = 15


class Malformed(Exception):
    """The body is not an Update we can read: 400, nothing changes."""


class TelegramBot:
    """The "telegram" channel: one outbox row sent by sendMessage to the chat id in row.address."""

    def send(self, row) -> None:
        try:
            asyncio.run(self._send(row.address, row.text))
        except telegram_errors.RetryAfter as error:
            raise TransientFailure(f"Telegram asks to wait: {error}") from error
        except telegram_errors.NetworkError as error:
            # NetworkError covers no connection, time-outs (TimedOut) and 5xx answers; the row
            # stays pending. (BadRequest and Forbidden are not network errors: see below.)
            raise TransientFailure(f"Telegram unreachable or failing: {error}") from error
        except telegram_errors.TelegramError as error:
            # A refused chat (the player blocked the bot, a wrong id) or a wrong token will not heal
            # by itself: the row is failed at once, with this text as its error, for staff.
            raise PermanentFailure(f"Telegram refused the message: {error}") from error

    @staticmethod
    async def _send(chat_id: str, text: str) -> None:
        bot = telegram.Bot(settings.TELEGRAM_BOT_TOKEN, base_url=settings.TELEGRAM_API_URL)
        # `async with` opens and closes the HTTP client within this call: the sync delivery task
        # runs each send in its own event loop, which must not outlive a connection pool.
        async with bot:
            await bot.send_message(
                chat_id=chat_id,
                text=text,
                read_timeout=TIMEOUT_SECONDS,
                write_timeout=TIMEOUT_SECONDS,
                connect_timeout=TIMEOUT_SECONDS,
                pool_timeout=TIMEOUT_SECONDS,
            )

    def check(self) -> str:
        """getMe with the token: the Bot API reachable and the token taken. Names the bot."""
        try:
            me = asyncio.run(_get_me())
        except telegram_errors.TelegramError as error:
            raise CheckFailed(f"Telegram getMe failed: {error}") from error
        return f"@{me.username} ({settings.TELEGRAM_API_URL})"


async def _get_me() -> telegram.User:
    bot = telegram.Bot(settings.TELEGRAM_BOT_TOKEN, base_url=settings.TELEGRAM_API_URL)
    async with bot:  # opening the bot calls getMe, and keeps its answer
        return bot.bot


def update_parse(data) -> telegram.Update:
    """The Update in a webhook's JSON; raises Malformed before anything is queued or written."""
    if not isinstance(data, dict):
        raise Malformed("the body is not a JSON object")
    if not isinstance(data.get("update_id"), int) or isinstance(data.get("update_id"), bool):
        raise Malformed("update_id is missing or not an integer")
    try:
        return telegram.Update.de_json(dict(data), None)
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise Malformed(f"not a Telegram Update: {error!r}") from None


def update_receive(data: dict, *, now: datetime.datetime) -> str:
    """Apply one Update (already checked by the webhook); returns what was done, in a word or two."""
    update = update_parse(data)
    message = update.message
    if message is None or not isinstance(message.text, str):
        # Edits, photos, stickers, joins...: no moves. An edited move is not a new message.
        return "ignored"
    sent = message.date
    if sent.tzinfo is None:  # the library gives UTC; never guess a zone
        sent = sent.replace(tzinfo=datetime.UTC)
    receipt = services.message_receive(
        channel="telegram",
        sender=str(message.chat.id),
        text=message.text,
        arrival=now,
        # Telegram's server time of the message is its sending time; the spec's rules clamp it.
        sent=sent.astimezone(datetime.UTC),
        external_id=f"tg:{update.update_id}",
    )
    return receipt.applied
