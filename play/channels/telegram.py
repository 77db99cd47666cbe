"""Telegram through the Bot API, with the maintained client (python-telegram-bot).

Outbound: `TelegramBot` is the "telegram" channel class (PLAY_TELEGRAM_BACKEND=play.channels.telegram.TelegramBot);
it sends one outbox row's text to the chat id kept as the row's address. A message of an open game
carries the game's buttons (play/channels/telegram_buttons.py); the opponent's move comes with the board as
a picture, from the receiving player's side (play/channels/board_png.py).

Inbound: Telegram posts each Update to /play/hooks/telegram/ (play/channels/hooks.py) with the secret token
set in setWebhook (`manage.py play_telegram webhook`; in development `play_telegram poll` fetches
Updates instead). The view checks that token and the Update's shape, answers at once and queues
play.tasks.telegram_update, which calls `update_receive` here: a text message or a button press
becomes a message for the game service, with the update_id (or the press's id) as dedup key, so an
Update that Telegram delivers twice is applied once."""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import functools
import logging
import ssl
from collections.abc import Awaitable, Callable
from typing import TypeVar

import chess
import httpx
import telegram
from django.conf import settings
from django.utils import translation
from telegram import error as telegram_errors
from telegram.request import HTTPXRequest

from play import services, state
from play.channels import CheckFailed, PermanentFailure, TransientFailure, board_png, identities, limits, linking
from play.channels import telegram_buttons as buttons
from play.models import Color, MobileGame
from play.rules import ending
from play.rules.clock import opponent
from play.rules.segments import split_telegram
from play.rules.texts import render

logger = logging.getLogger("play.telegram")

# A Bot API that does not answer must not hold a delivery worker (and the rows it locks) for long:
# the row stays pending and the next delivery or the outbox sweeper tries again.
TIMEOUT_SECONDS = 15
CAPTION_LIMIT = 1024  # Telegram's longest photo caption
ALLOWED_UPDATES = ("message", "callback_query")  # what the bot reads; setWebhook and getUpdates ask for these

T = TypeVar("T")


class Malformed(Exception):
    """The body is not an Update we can read: 400, nothing changes."""


# --- the Bot API ---------------------------------------------------------------------------------


@functools.cache
def _tls() -> ssl.SSLContext:
    """One TLS context per process, as httpx builds it by default (its CA bundle, or SSL_CERT_FILE):
    building one (reading the CA bundle) is most of the cost of opening an HTTP client, and each
    send opens its own (see `_opened`), which took some 0.2 s a message."""
    return httpx.create_ssl_context()


@contextlib.asynccontextmanager
async def _opened():
    """A Bot whose HTTP client lives for this block only. `Bot.initialize` (what `async with bot`
    does) also calls getMe, to learn the bot's own user and check the token: one extra round trip
    per message sent, for a user we never read. The client is opened here without it; a wrong
    token is still caught, by the call itself (401, a PermanentFailure for the row)."""
    request = HTTPXRequest(
        read_timeout=TIMEOUT_SECONDS,
        write_timeout=TIMEOUT_SECONDS,
        connect_timeout=TIMEOUT_SECONDS,
        pool_timeout=TIMEOUT_SECONDS,
        media_write_timeout=TIMEOUT_SECONDS,
        httpx_kwargs={"verify": _tls()},
    )
    # One client serves getUpdates too (the library would open a second one for it): calls here
    # are one after the other, and a long poll adds its own timeout to the read timeout.
    bot = telegram.Bot(
        settings.TELEGRAM_BOT_TOKEN, base_url=settings.TELEGRAM_API_URL, request=request, get_updates_request=request
    )
    await request.initialize()
    try:
        yield bot
    finally:
        await request.shutdown()


def api_call(call: Callable[[telegram.Bot], Awaitable[T]]) -> T:
    """Run one or more Bot API calls from synchronous code (a delivery task, a command): each in
    its own event loop, which must not outlive the HTTP clients, so they are opened inside it."""

    async def run():
        async with _opened() as bot:
            return await call(bot)

    return asyncio.run(run())


# --- outbound ------------------------------------------------------------------------------------


class TelegramBot:
    """The "telegram" channel: one outbox row sent to the chat id in row.address, with the game's
    buttons while it is open, and the board as a picture with the opponent's move.

    A repeat cannot be ruled out here: the Bot API's sendMessage and sendPhoto take no idempotency
    key, and a bot cannot read back the messages it sent to a chat (getUpdates brings only what
    reaches the bot), so a send whose answer was lost after Telegram took it (a time-out) is sent
    again on the next try, and the player sees it twice. It is the lesser harm: a lost move notice
    costs time on the clock, a repeated one is recognisable by its text, which names the move."""

    def send(self, row) -> None:
        markup = _markup_of(row)
        photo = _picture_of(row)
        try:
            api_call(lambda bot: _send(bot, row.address, row.text, markup, photo))
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

    def check(self) -> str:
        """getMe with the token: the Bot API reachable and the token taken. Names the bot."""
        try:
            me = api_call(lambda bot: bot.get_me())
        except telegram_errors.TelegramError as error:
            raise CheckFailed(f"Telegram getMe failed: {error}") from error
        return f"@{me.username} ({settings.TELEGRAM_API_URL})"


async def _send(bot: telegram.Bot, chat_id: str, text: str, markup, photo: bytes | None) -> None:
    if photo is not None and len(text) <= CAPTION_LIMIT:
        await bot.send_photo(chat_id=chat_id, photo=photo, caption=text, reply_markup=markup)
        return
    if photo is not None:
        # Too long for a caption: the picture, then the text with the buttons under it. Should
        # the text fail after the picture went, the row stays pending and a retry sends both:
        # a second picture is harmless, a lost move notice is not.
        await bot.send_photo(chat_id=chat_id, photo=photo)
    # The game service writes a long text as rows of one message each (play.services._out_rows);
    # a row written whole elsewhere (a notice) and over the limit still goes, in numbered parts,
    # the buttons under the last: the Bot API refuses a longer text outright.
    parts = split_telegram(text)
    for index, part in enumerate(parts, 1):
        await bot.send_message(chat_id=chat_id, text=part, reply_markup=markup if index == len(parts) else None)


def _party(row) -> str | None:
    return row.party if row.party in (Color.WHITE, Color.BLACK) else None


def _markup_of(row):
    """The buttons for a row's message: only for a player's message of a game still open (a
    result, or a message without a game, has nothing to press)."""
    party = _party(row)
    game = row.game if row.game_id else None
    if party is None or game is None or game.status != MobileGame.Status.OPEN:
        return None
    return game_keyboard(game, party)


def game_keyboard(game: MobileGame, party: str):
    """The buttons as the game stands now (the state at sending, which is what a press acts on)."""
    value = state.load(game)
    if value.over:
        return None
    may_accept = value.draw_offer == opponent(party)
    may_claim = value.on_move == party and ending.draw_claim(value.board) is not None
    return buttons.keyboard(game.code, may_accept=may_accept, may_claim=may_claim)


def _picture_of(row) -> bytes | None:
    """The board after the opponent's move, for a "move" notice: from the receiver's side, that
    move highlighted. The position is the one after that move (its ply in the row's data), not
    the game's latest, so a notice sent late still shows the move it tells of."""
    party = _party(row)
    if row.kind != "move" or party is None or not row.game_id or not isinstance(row.data.get("ply"), int):
        return None
    moves = [m.move for m in state.load(row.game).moves[: row.data["ply"]]]
    return board_png.after_moves(moves, orientation=chess.WHITE if party == Color.WHITE else chess.BLACK)


# --- inbound -------------------------------------------------------------------------------------


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
    if update.callback_query is not None:
        return callback_receive(update.callback_query, now=now)
    if update.message is not None:
        return message_receive(update, now=now)
    # Edits, channel posts, joins...: no moves. An edited move is not a new message.
    return "ignored"


def message_receive(update: telegram.Update, *, now: datetime.datetime) -> str:
    """A text message: the player's typed message, as from any channel."""
    message = update.message
    if not isinstance(message.text, str):
        return "ignored"  # photos, stickers, voice...
    if linking.is_start(message.text):  # "/start CODE" links the chat to a player (play/channels/linking.py)
        chat = str(message.chat.id)
        # Counted like any message (the game service counts the others): a flood of /start
        # would otherwise be answered in full, or guess link codes at the speed of the network.
        if not limits.inbound_allowed("telegram", chat, now):
            services.rate_notice("telegram", chat, now)
            return "rate limited"
        return linking.telegram_start(chat, message.text, update.update_id, now=now, sent=message.date)
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


def callback_receive(query: telegram.CallbackQuery, *, now: datetime.datetime) -> str:
    """A button press. It is always answered (Telegram shows a spinner on the button until then),
    whatever came of it; a press that acts on the game goes to the message service as the text a
    player would type."""
    chat = str(query.message.chat.id if query.message is not None else query.from_user.id)
    press = buttons.press_parse(query.data)
    note, alert = "", False
    try:
        # Every press is counted here, before any query, those that reach the game service too
        # (told so, it does not count them again): a press is a message.
        if not limits.inbound_allowed("telegram", chat, now):
            outcome, note = "rate limited", _too_many(chat, now)
        elif press is None:
            outcome, note = "ignored", "This button is not for this bot."
        elif identities.player_for("telegram", chat) is None:
            # Nothing is stored for a stranger (as for a typed message): answered, and that is all.
            logger.warning("button press from unknown chat telegram:%s ignored", chat)
            outcome, note = "unknown sender", buttons.APPLIED_NOTES["unknown sender"]
        elif press.action in buttons.STEPS:
            outcome, note, alert = _step(query, chat, press)
        else:
            receipt = services.message_receive(
                channel="telegram",
                sender=chat,
                text=press.text,
                arrival=now,
                # A press has no date of its own (the date on query.message is when the bot sent
                # the message the button sits under, maybe hours before): the press is sent the
                # moment it arrives, as far as anyone can tell, so its sending time is the arrival.
                sent=now,
                external_id=f"tgcb:{query.id}",
                counted=True,
            )
            outcome = receipt.applied
            note = buttons.APPLIED_NOTES.get(outcome, outcome.capitalize() + ".")
    finally:
        _answer(query.id, note, alert)
    return outcome


def _too_many(chat: str, now: datetime.datetime) -> str:
    """The answer to a press over the inbound limit, in the channel's message language."""
    data = {"limit": settings.PLAY_INBOUND_PER_MINUTE, "seconds": limits.inbound_wait("telegram", chat, now)}
    with translation.override(identities.message_language("telegram")):
        return render("rate limited", data, translation.gettext)


def _step(query: telegram.CallbackQuery, chat: str, press: buttons.Press) -> tuple[str, str, bool]:
    """A press that changes only the buttons (resign's first step, cancel) or only explains
    (offer draw): nothing reaches the game or its record."""
    if press.action == buttons.OFFER:
        return "offer hint", buttons.OFFER_HINT, True
    player = identities.player_for("telegram", chat)
    game = MobileGame.objects.filter(code__iexact=press.code).select_related("white", "black").first()
    party = game.color_of(player.pk) if game is not None else None
    if party is None:
        return "unknown game", f"No game #{press.code} of yours.", False
    if game.status != MobileGame.Status.OPEN:
        return "after end", buttons.APPLIED_NOTES["after end"], False
    if press.action == buttons.RESIGN:
        _edit_buttons(query, buttons.confirm_keyboard(game.code))
        return "resign asked", f"Tap Confirm resign to resign #{game.code}.", False
    _edit_buttons(query, game_keyboard(game, party))
    return "resign cancelled", "Not resigned.", False


def _edit_buttons(query: telegram.CallbackQuery, markup) -> None:
    message = query.message
    if message is None or not settings.TELEGRAM_BOT_TOKEN:
        return
    try:
        api_call(
            lambda bot: bot.edit_message_reply_markup(
                chat_id=message.chat.id, message_id=message.message_id, reply_markup=markup
            )
        )
    except telegram_errors.TelegramError as error:
        # A message too old to edit, or deleted: the player can still type RESIGN.
        logger.warning("buttons of Telegram message %s not changed: %s", message.message_id, error)


def _answer(query_id: str, note: str, alert: bool) -> None:
    if not settings.TELEGRAM_BOT_TOKEN:
        return
    try:
        api_call(lambda bot: bot.answer_callback_query(query_id, text=note[:200] or None, show_alert=alert or None))
    except telegram_errors.TelegramError as error:
        # A press delivered twice is answered once by Telegram's count; the second answer is
        # refused ("query is too old"), which changes nothing here.
        logger.info("Telegram callback %s not answered: %s", query_id, error)
