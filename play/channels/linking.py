"""A player's phone number and Telegram chat (rule 5c): registered with a one-time code, changed
(verified again), removed, and every change told to the TD and the current opponents.

SMS: the player enters the number on the site, a 6-digit code goes to that number through the
outbox like any message, and he types it back. Telegram: the site shows a code and a deep link,
and the player sends `/start CODE` to the bot from the chat to be linked (play/channels/telegram.py hands
every `/start` here). Codes are kept as keyed hashes, expire after CODE_TTL, die after MAX_WRONG
wrong tries, and at most CODES_PER_HOUR are sent to one number (or made for one player's chat)
in an hour, so neither a guesser nor a button held down can run up SMS bills. Over any 24 hours,
an account may ask for, and a player be given, PLAY_CODES_PER_DAY codes on each channel, and one
player's SMS codes go to at most PLAY_NUMBERS_PER_DAY different numbers: without that, one account
could make the site text thousands of numbers, each SMS carrying the player's name (SMS pumping).

Whether a number is another player's is never told to whoever asks for a code: it is sent there
as to any number, and only its holder, typing it back, learns that the number is taken.
"""

from __future__ import annotations

import datetime
import re
import secrets
from dataclasses import dataclass

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from play import services
from play.channels import identities
from play.models import Channel, ChannelAddress, MobileGame, Transmission, VerificationCode
from play.rules import clock
from players.selectors import plays_as

CODE_TTL = datetime.timedelta(minutes=10)
MAX_WRONG = 5
CODES_PER_HOUR = 3
RATE_WINDOW = datetime.timedelta(hours=1)
DAY = datetime.timedelta(days=1)
TELEGRAM_CODE_LENGTH = 8  # looked up among every player's codes: long enough that guessing is hopeless
LINKABLE = (Channel.SMS, Channel.TELEGRAM)
HOW_TO_MOVE = gettext_noop(
    'Send moves as by SMS: "1. e4", or "12. Nf3 Nc6" repeating your opponent\'s last move; '
    'start with the game\'s code ("#G17 ...") when you play several games. HELP lists the commands.'
)
# Separators people type in numbers: "+7 (912) 345-67-89", "+44.20.7946.0958".
NUMBER_NOISE = re.compile(r"[\s().\-/]")
START = re.compile(r"^/start(?:@\w+)?(?:\s+(\S+))?\s*$", re.IGNORECASE)


class LinkError(ValueError):
    """A request refused; the message says why, for the user."""


@dataclass(frozen=True)
class TelegramCode:
    code: str
    row: VerificationCode


def site_name() -> str:
    """The site's name in messages and mails (the pages' own default when SITE_NAME is empty)."""
    return settings.SITE_NAME or "Chess Federation Ratings"


def _hash(code: str) -> str:
    # Keyed with SECRET_KEY: a leaked table does not give 6-digit codes away by brute force.
    return salted_hmac("play.channels.linking.code", code.strip().upper(), algorithm="sha256").hexdigest()


def _check_player(user, player) -> None:
    if not plays_as(user, player):
        raise LinkError(_("Your account does not play as this player."))


def number_normalise(text: str) -> str:
    """A phone number in E.164 (+ and 8 to 15 digits, the country code first). Spaces, brackets,
    dots and dashes are dropped; a leading 00 is the international prefix."""
    raw = NUMBER_NOISE.sub("", text or "")
    if raw.startswith("00"):
        raw = "+" + raw[2:]
    if not raw:
        raise LinkError(_("Enter a phone number."))
    if not raw.startswith("+"):
        raise LinkError(
            _("Write the number in international form: + and the country code first, e.g. +7 912 345 67 89.")
        )
    digits = raw[1:]
    if not digits.isdigit() or not digits.isascii():
        raise LinkError(_("A phone number has only digits after the +."))
    if not 8 <= len(digits) <= 15 or digits[0] == "0":
        raise LinkError(_("This is not a phone number: after the + come the country code and 8 to 15 digits in all."))
    return raw


def _full_until(codes, now: datetime.datetime, window: datetime.timedelta, limit: int) -> datetime.datetime | None:
    """When `codes` made within `window` before `now` number fewer than `limit` again (the
    limit-th latest leaves the window), or None when they are fewer already."""
    times = sorted(codes.filter(created_at__gt=now - window).values_list("created_at", flat=True))
    return times[-limit] + window if len(times) >= limit else None


def _rate_check(codes, now: datetime.datetime, sentence: str, **values) -> None:
    """At most CODES_PER_HOUR codes an hour; `sentence` (translated, with %(count)s and %(time)s)
    says when to ask again."""
    again = _full_until(codes, now, RATE_WINDOW, CODES_PER_HOUR)
    if again is not None:
        raise LinkError(sentence % {"count": CODES_PER_HOUR, "time": f"{again:%H:%M}", **values})


# Refusals of the daily caps, naming only what the account asking may know (whole sentences).
ACCOUNT_DAY = gettext_noop(
    "Your account has asked for as many codes as a day allows (%(limit)s): ask again after %(when)s UTC."
)
PLAYER_DAY = gettext_noop(
    "As many codes as a day allows (%(limit)s) were made for %(player)s: ask again after %(when)s UTC."
)
NUMBERS_DAY = gettext_noop(
    "Codes for %(player)s went to as many different numbers as a day allows (%(limit)s): ask again after "
    "%(when)s UTC, or use one of those numbers."
)


def _day_check(*, user, player, channel: str, now: datetime.datetime, number: str | None = None) -> None:
    """The caps over 24 hours: PLAY_CODES_PER_DAY codes for the account and for the player on
    `channel`, and (given the `number` asked for) PLAY_NUMBERS_PER_DAY different numbers for the
    player's SMS codes. In the caller's transaction, the player and the account locked, so two
    quick requests cannot both pass."""
    on_channel = VerificationCode.objects.filter(channel=channel)
    limit = settings.PLAY_CODES_PER_DAY
    for codes, msgid in (
        (on_channel.filter(created_by=user), ACCOUNT_DAY),
        (on_channel.filter(player=player), PLAYER_DAY),
    ):
        again = _full_until(codes, now, DAY, limit)
        if again is not None:
            _day_refuse(msgid, limit, player, again)
    if number is None:
        return
    # The latest code to each other number: the count falls when the earliest of those is a day old.
    latest: dict[str, datetime.datetime] = {}
    day = on_channel.filter(player=player, created_at__gt=now - DAY).exclude(address=number)
    for address, created in day.values_list("address", "created_at"):
        latest[address] = max(created, latest.get(address, created))
    limit = settings.PLAY_NUMBERS_PER_DAY
    if len(latest) >= limit:
        _day_refuse(NUMBERS_DAY, limit, player, sorted(latest.values())[-limit] + DAY)


def _day_refuse(msgid: str, limit: int, player, when: datetime.datetime):
    values = {"limit": limit, "player": player.full_name, "when": f"{when:%d.%m %H:%M}"}
    raise LinkError(translation.gettext(msgid) % values)


# --- SMS ---------------------------------------------------------------------------------------


def sms_code_request(*, user, player, number: str, now: datetime.datetime | None = None) -> VerificationCode:
    """Send a one-time code by SMS to `number` for `player`; the number is his once the code is typed
    back (sms_code_confirm). Returns the code's row (its plain code is only in the SMS)."""
    now = clock.whole_second(now or timezone.now())
    _check_player(user, player)
    number = number_normalise(number)
    verified = ChannelAddress.objects.filter(channel=Channel.SMS, address=number, verified_at__isnull=False)
    if verified.filter(player=player).exists():  # his own number: nothing about anyone else
        raise LinkError(
            _("%(number)s is already the verified number of %(player)s.")
            % {"number": number, "player": player.full_name}
        )
    # A number verified for another player is not refused here: that answer would tell any account
    # whose number it is. The code goes there as to any number, within the same caps, and the
    # holder who types it back is told the number is taken (sms_code_confirm).
    code = f"{secrets.randbelow(10**6):06d}"
    with transaction.atomic():
        # One request at a time per player and per account: two quick clicks cannot both pass a limit.
        type(player).objects.select_for_update().filter(pk=player.pk).first()
        user._meta.model.objects.select_for_update().filter(pk=user.pk).first()
        _rate_check(
            VerificationCode.objects.filter(channel=Channel.SMS, address=number), now,
            _("%(count)s codes were made for %(number)s in the last hour: ask again after %(time)s UTC."),
            number=number,
        )  # fmt: skip
        _day_check(user=user, player=player, channel=Channel.SMS, now=now, number=number)
        row = VerificationCode.objects.create(
            player=player, channel=Channel.SMS, address=number, code_hash=_hash(code), created_by=user,
            created_at=now, expires_at=now + CODE_TTL,
        )  # fmt: skip
        services.notice_send(
            game=None, player=player, channel=Channel.SMS, address=number, kind="verification", at=now,
            text=_code_text(player, code), data={"code_id": row.pk},
        )  # fmt: skip
    return row


def sms_code_confirm(*, user, player, code: str, now: datetime.datetime | None = None) -> ChannelAddress:
    """The code typed back: the number it was sent to becomes the player's verified SMS address
    (replacing an earlier one, which the TD and opponents are told of)."""
    now = now or timezone.now()
    _check_player(user, player)
    entered = re.sub(r"\s", "", code or "")
    if not re.fullmatch(r"\d{6}", entered):
        raise LinkError(_("The code is the 6 digits of the SMS."))
    with transaction.atomic():
        row = (
            VerificationCode.objects.select_for_update()
            .filter(player=player, channel=Channel.SMS)
            .order_by("-created_at", "-pk")
            .first()
        )
        if row is None or row.used_at is not None:
            raise LinkError(_("No code is waiting for this player: ask for one first."))
        if row.wrong_tries >= MAX_WRONG:
            raise LinkError(_("%(count)s wrong codes were typed: ask for a new code.") % {"count": MAX_WRONG})
        if now >= row.expires_at:
            raise LinkError(_("The code has expired: ask for a new one."))
        right = constant_time_compare(_hash(entered), row.code_hash)
        if right:
            row.used_at = now
            row.save(update_fields=["used_at"])
            return _address_set(player, Channel.SMS, row.address, now)
        # A wrong try is counted even though this request fails: saved here, raised after commit.
        row.wrong_tries += 1
        row.save(update_fields=["wrong_tries"])
        left = MAX_WRONG - row.wrong_tries
    if left:
        raise LinkError(
            ngettext(
                "Wrong code: %(left)s more try with this code.", "Wrong code: %(left)s more tries with this code.", left
            )
            % {"left": left}
        )
    raise LinkError(_("Wrong code, and that was the %(count)sth: ask for a new code.") % {"count": MAX_WRONG})


# --- Telegram ----------------------------------------------------------------------------------


def telegram_code_create(*, user, player, now: datetime.datetime | None = None) -> TelegramCode:
    """A code the player sends to the bot as `/start CODE` from the chat to be linked."""
    now = clock.whole_second(now or timezone.now())
    _check_player(user, player)
    code = "".join(secrets.choice(services.CODE_ALPHABET) for _ in range(TELEGRAM_CODE_LENGTH))
    with transaction.atomic():
        type(player).objects.select_for_update().filter(pk=player.pk).first()
        user._meta.model.objects.select_for_update().filter(pk=user.pk).first()
        _rate_check(
            VerificationCode.objects.filter(channel=Channel.TELEGRAM, player=player), now,
            _("%(count)s codes were made for this player in the last hour: ask again after %(time)s UTC."),
        )  # fmt: skip
        _day_check(user=user, player=player, channel=Channel.TELEGRAM, now=now)
        row = VerificationCode.objects.create(
            player=player, channel=Channel.TELEGRAM, code_hash=_hash(code), created_by=user, created_at=now,
            expires_at=now + CODE_TTL,
        )  # fmt: skip
    return TelegramCode(code, row)


def telegram_link(code: str) -> str | None:
    """The bot's deep link that sends `/start CODE` (None when the bot's username is not set)."""
    name = settings.TELEGRAM_BOT_USERNAME.lstrip("@")
    return f"https://t.me/{name}?start={code}" if name else None


def is_start(text: str) -> bool:
    return bool(START.match(text or ""))


def telegram_start(
    chat_id: str, text: str, update_id: int, *, now: datetime.datetime, sent: datetime.datetime | None = None
) -> str:
    """A `/start` sent to the bot. With a valid code the chat becomes the code's player's verified
    Telegram address; alone, it is answered with how to link. The message of a known chat is kept
    in the record (with the update id, so an Update delivered twice is applied once); every `/start`
    is answered via the outbox."""
    external_id = f"tg:{update_id}"
    if Transmission.objects.filter(channel=Channel.TELEGRAM, external_id=external_id, direction="in").exists():
        return "duplicate"
    if sent is not None and sent.tzinfo is None:
        sent = sent.replace(tzinfo=datetime.UTC)
    now = clock.whole_second(now)
    try:
        with transaction.atomic():
            return _start(chat_id, text, external_id, now, sent)
    except IntegrityError:
        if Transmission.objects.filter(channel=Channel.TELEGRAM, external_id=external_id, direction="in").exists():
            return "duplicate"
        raise


def _code_text(player, code: str) -> str:
    """The verification SMS, in the player's message language (identities.message_language: English
    by default, in the GSM alphabet; Russian if he chose it)."""
    minutes = int(CODE_TTL.total_seconds() // 60)
    with translation.override(identities.message_language(Channel.SMS, player)):
        return translation.ngettext(
            "%(site)s: your code is %(code)s. It confirms this number for %(name)s and is valid for "
            "%(minutes)s minute.",
            "%(site)s: your code is %(code)s. It confirms this number for %(name)s and is valid for "
            "%(minutes)s minutes.",
            minutes,
        ) % {"site": site_name(), "code": code, "name": player.full_name, "minutes": minutes}


def _words(msgid: str, *, then: str = "", player=None, **values) -> str:
    """A Telegram answer in the message language of the chat's player (play.channels.identities.
    message_language; the federation's for a chat not linked yet), and the sentence `then` after it."""
    with translation.override(identities.message_language(Channel.TELEGRAM, player)):
        text = translation.gettext(msgid) % values
        return f"{text} {translation.gettext(then)}" if then else text


def _start(chat_id: str, text: str, external_id: str, now, sent) -> str:
    match = START.match(text or "")
    code = match.group(1) if match else None
    current = identities.player_for(Channel.TELEGRAM, chat_id)
    player, applied = current, "start"
    page = f"{settings.SITE_URL}{reverse('play:channels')}"
    if not code:
        if current is not None:
            reply = _words(
                gettext_noop("This chat is linked to %(name)s."),
                name=current.full_name,
                then=HOW_TO_MOVE,
                player=current,
            )
        else:
            reply = _words(
                gettext_noop(
                    "To link this chat to your player, open %(page)s, choose Telegram and send the code: /start CODE."
                ),
                page=page,
            )
    else:
        row = (
            VerificationCode.objects.select_for_update()
            .filter(channel=Channel.TELEGRAM, code_hash=_hash(code), used_at__isnull=True)
            .select_related("player")
            .order_by("-created_at", "-pk")
            .first()
        )
        if row is None:
            applied = "unknown code"
            reply = _words(
                gettext_noop("This code is unknown or already used. Ask for a new one at %(page)s."),
                page=page,
                player=current,
            )
        elif now >= row.expires_at:
            applied = "expired code"
            reply = _words(
                gettext_noop("This code has expired. Ask for a new one at %(page)s."), page=page, player=current
            )
        else:
            try:
                # A refusal is answered in the chat's message language, as the other answers are.
                with translation.override(identities.message_language(Channel.TELEGRAM, row.player)):
                    _address_set(row.player, Channel.TELEGRAM, chat_id, now)
            except LinkError as error:
                # Told only to this chat, whose holder may know it is linked (a bare /start says
                # to whom): unlike an SMS number typed on the site, nobody else asks about it here.
                applied, reply = "refused", str(error)
            else:
                row.used_at = now
                row.save(update_fields=["used_at"])
                player, applied = row.player, "linked"
                reply = _words(
                    gettext_noop("Linked to %(name)s."), name=row.player.full_name, then=HOW_TO_MOVE, player=row.player
                )
    if player is not None:
        # Kept under the player's name, like his other messages; a stranger's is not stored (as in
        # play.services), so a repeated Update of his only gets the same answer again.
        Transmission.objects.create(
            game=None, player=player, direction=Transmission.Direction.IN, channel=Channel.TELEGRAM, party="",
            address=chat_id, kind="link", text=text, at=now, sent=sent, external_id=external_id,
        )  # fmt: skip
    services.notice_send(
        game=None, player=player, channel=Channel.TELEGRAM, address=chat_id, kind="link", text=reply, at=now,
        data={"applied": applied},
    )  # fmt: skip
    return applied


# --- the address itself, and rule 5c ----------------------------------------------------------------


def _address_set(player, channel: str, address: str, now: datetime.datetime) -> ChannelAddress:
    """Make `address` the player's verified address on `channel` (inside the caller's transaction)."""
    others = ChannelAddress.objects.select_for_update().filter(channel=channel, address=address).exclude(player=player)
    for other in others:
        if other.verified_at is not None:
            raise LinkError(
                _("This SMS number is already verified for another player; remove it there first.")
                if channel == Channel.SMS
                else _("This Telegram chat is already verified for another player; remove it there first.")
            )
        # Someone's unverified claim on the address yields to the one who proved he holds it.
        other.delete()
    row = ChannelAddress.objects.select_for_update().filter(player=player, channel=channel).first()
    old = row.address if row is not None and row.verified_at is not None else None
    if row is None:
        row = ChannelAddress.objects.create(player=player, channel=channel, address=address, verified_at=now)
    else:
        row.address, row.verified_at = address, now
        row.save(update_fields=["address", "verified_at"])
    if old is not None and old != address:
        _change_notify(player, channel, old, address, now)
    return row


def address_remove(*, user, player, channel: str, now: datetime.datetime | None = None) -> None:
    """Remove the player's number or chat. His open games whose messages went there go to the game
    page (web) from now on, and the TD and opponents are told (rule 5c)."""
    now = now or timezone.now()
    _check_player(user, player)
    if channel not in LINKABLE:
        raise LinkError(_("Only an SMS number or a Telegram chat can be removed."))
    with transaction.atomic():
        row = ChannelAddress.objects.select_for_update().filter(player=player, channel=channel).first()
        if row is None:
            raise LinkError(
                (
                    _("%(player)s has no SMS number to remove.")
                    if channel == Channel.SMS
                    else _("%(player)s has no Telegram chat to remove.")
                )
                % {"player": player.full_name}
            )
        row.delete()
        for color in ("white", "black"):
            MobileGame.objects.filter(
                **{color: player, f"{color}_channel": channel}, status=MobileGame.Status.OPEN
            ).update(**{f"{color}_channel": Channel.WEB})
        if row.verified_at is not None:
            _change_notify(player, channel, row.address, None, now)


# Rule 5c's notices, whole for each channel and change (Russian declines "номер" and "чат" apart).
CHANGE_TOLD = {
    (Channel.SMS, "removed"): gettext_noop(
        "%(name)s removed the SMS number; messages to %(name)s now go through the game page."
    ),
    (Channel.TELEGRAM, "removed"): gettext_noop(
        "%(name)s removed the Telegram chat; messages to %(name)s now go through the game page."
    ),
    (Channel.SMS, "changed"): gettext_noop("%(name)s has a new SMS number, verified %(at)s UTC."),
    (Channel.TELEGRAM, "changed"): gettext_noop("%(name)s has a new Telegram chat, verified %(at)s UTC."),
}
CHANGE_TD = {
    (Channel.SMS, "removed"): gettext_noop("Rule 5c: %(name)s removed the SMS number %(old)s."),
    (Channel.TELEGRAM, "removed"): gettext_noop("Rule 5c: %(name)s removed the Telegram chat %(old)s."),
    (Channel.SMS, "changed"): gettext_noop(
        "Rule 5c: %(name)s changed the SMS number from %(old)s to %(new)s, verified %(at_seconds)s UTC."
    ),
    (Channel.TELEGRAM, "changed"): gettext_noop(
        "Rule 5c: %(name)s changed the Telegram chat from %(old)s to %(new)s, verified %(at_seconds)s UTC."
    ),
}


def _change_sentence(sentences: dict, channel: str, new: str | None) -> str:
    return translation.gettext(sentences[(channel, "removed" if new is None else "changed")])


def _change_notify(player, channel: str, old: str, new: str | None, now: datetime.datetime) -> list[Transmission]:
    """Rule 5c: the TD of each open game of the player, and the opponent in it, are told. The TD's
    notice (in the game's record, which only he and staff read) names both addresses; the
    opponent's says only that it changed."""
    name = player.full_name
    games = (
        MobileGame.objects.filter(Q(white=player) | Q(black=player), status=MobileGame.Status.OPEN)
        .select_related("white", "black")
        .order_by("pk")
    )
    data = {"player": player.federation_id, "channel": channel, "old": old, "new": new}
    rows = []
    for game in games:
        opponent = clock.opponent(game.color_of(player.pk))
        to_channel, to_address = services.notice_address(game, opponent)
        values = {
            "name": name,
            "old": old,
            "new": new,
            "at": f"{now:%d.%m %H:%M}",
            "at_seconds": f"{now:%d.%m %H:%M:%S}",
        }
        with translation.override(identities.message_language(to_channel, game.player_of(opponent))):
            told = _change_sentence(CHANGE_TOLD, channel, new) % values
        with translation.override(identities.message_language(Channel.WEB)):
            td = _change_sentence(CHANGE_TD, channel, new) % values
        rows.append(
            services.notice_send(
                game=game, player=game.player_of(opponent), channel=to_channel, address=to_address,
                kind="address change", text=told, at=now, data=data, party=opponent,
            )
        )  # fmt: skip
        rows.append(
            services.notice_send(
                game=game, player=None, channel=Channel.WEB, address="td", kind="address change", text=td, at=now,
                data=data, party="td",
            )
        )  # fmt: skip
    return rows


# --- the language of his messages ---------------------------------------------------------------


def message_language_set(*, user, player, language: str) -> None:
    """The language of the player's game messages on every channel (identities.message_language):
    "default" (the federation's), "ru" or "en"."""
    _check_player(user, player)
    if language not in type(player).MessageLanguage.values:
        raise LinkError(_("Choose one of the languages offered."))
    type(player).objects.filter(pk=player.pk).update(message_language=language)
    player.message_language = language
