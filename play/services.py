"""Mobile chess writes: games and events created, messages received, the sweeper's pass, TD rulings,
outbound delivery. The rules are the pure machine (play/rules/); this module stores its value,
keeps the continuous record and turns what the machine says into outbox rows, in one transaction
per message, with the game's row locked so two messages for one game are applied one after the
other.
"""

from __future__ import annotations

import datetime
import functools
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import Q
from django.utils import timezone, translation

from play import signals, state, sweep
from play.channels import drain, identities, limits
from play.computer import turn
from play.models import Channel, Color, MobileEvent, MobileGame, Transmission
from play.rules import clock, pairing
from play.rules import game as machine
from play.rules.message import excerpt, parse_message, parse_request
from play.rules.segments import split_telegram
from play.rules.sms_texts import sms_parts
from play.rules.texts import render
from players.models import Player
from toolkit import pagecache, rowsql

logger = logging.getLogger(__name__)

_WHITE, _BLACK = MobileGame._meta.get_field("white"), MobileGame._meta.get_field("black")
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud and typed on phones


class PlayError(ValueError):
    """A request the rules or the data refuse; the message says why, for the user."""


@dataclass(frozen=True)
class Receipt:
    """What `message_receive` did: `applied` as the machine names it (or "duplicate", "unknown
    sender", "unknown game", "rate limited"), the game (None when none was reached) and the
    replies written."""

    applied: str
    game: MobileGame | None = None
    replies: list[Transmission] = field(default_factory=list)
    inbound: Transmission | None = None


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))


# --- creating ----------------------------------------------------------------------------------


def game_create(
    *,
    white,
    black,
    start: datetime.datetime,
    event: MobileEvent | None = None,
    control: str | None = None,
    norm: int | None = None,
    weight: int | None = None,
) -> MobileGame:
    """A game between two players, from `start` (White's first period begins at start + N). In an
    event it takes the event's control, norm and W; a challenge game has W = 250 (Decision)."""
    if white.pk == black.pk:
        raise PlayError("a player cannot play himself")
    if timezone.is_naive(start):
        raise PlayError("the start must carry its time zone")
    control = control or (event.control if event else None) or str(clock.TimeControl())
    norm = norm if norm is not None else (event.norm if event else 60)
    weight = weight if weight is not None else (event.weight if event else settings.PLAY_CHALLENGE_WEIGHT)
    try:
        parsed = clock.TimeControl.parse(control, norm=norm)
    except ValueError as error:
        raise PlayError(f"time control {control!r}: {error}") from error
    value = machine.new_game(start, parsed)
    # A player who linked a phone hears of the game there from the first message on; afterwards
    # each message's reply goes to the channel it came from.
    channels = identities.preferred_channels([white, black])
    for _ in range(5):
        game = MobileGame(
            code=new_code(),
            event=event,
            white=white,
            black=black,
            start=clock.whole_second(start),
            control=control,
            norm=norm,
            weight=weight,
            white_channel=channels[white.pk],
            black_channel=channels[black.pk],
        )
        state.store(game, value)
        try:
            with transaction.atomic():
                game.save()
            pagecache.bump_on_commit()  # the players' pages list their games
            if Player.Kind.COMPUTER in (white.kind, black.kind):  # a computer with White moves first
                turn.move_queue(game)
            return game
        except IntegrityError:  # a code already taken (1 in 10^9): draw another
            continue
    raise PlayError("no free game code")


def event_create(*, created_by, pair: bool = True, players=(), **fields) -> MobileEvent:
    """A mobile event (created by a federation admin). With all-play-all pairing and players
    given, every game is created at once, all starting at the event's start, colours balanced by
    the circle method."""
    with transaction.atomic():
        event = MobileEvent.objects.create(created_by=created_by, **fields)
        for player in players:
            event.entries.create(player=player)
        if pair and event.pairing == MobileEvent.Pairing.ALL_PLAY_ALL:
            for white, black in pairing.round_robin(list(players)):
                game_create(white=white, black=black, start=event.start, event=event)
    return event


# --- receiving ---------------------------------------------------------------------------------


# The handlers of requests for a new game (play.rules.message.parse_request), by the request's
# type: the rooms above this module register theirs when imported (PlayConfig.ready imports them),
# so this module names none of them. PLAY COMPUTER: play.computer.services.message_play.
_REQUEST_HANDLERS: dict[type, Callable[..., Receipt]] = {}


def request_handler(kind: type):
    """Register the decorated function as the handler of `kind`'s requests: it is called with the
    request and message_receive's player, channel, sender, text, arrival and external_id, and
    returns the Receipt."""

    def register(handler):
        _REQUEST_HANDLERS[kind] = handler
        return handler

    return register


def message_receive(
    *,
    channel: str,
    sender: str,
    text: str,
    arrival: datetime.datetime,
    sent: datetime.datetime | None = None,
    external_id: str | None = None,
    game_code: str | None = None,
    counted: bool = False,
) -> Receipt:
    """One inbound message from any channel (`counted`: the caller has counted it in the inbound
    limit already, as play.channels.telegram does for a button press). The sender is the channel's address
    (a verified phone number, a Telegram chat; on the web and the console the player's federation
    id, the page or the command having checked who may act as him). The game is the one tagged `#CODE`,
    or `game_code` (the web page's), or the sender's only open game. A message delivered twice
    (same `external_id` on the channel) is applied once; one from an unknown sender changes
    nothing."""
    if channel not in Channel.values:
        raise PlayError(f"unknown channel {channel!r}")
    signals.message_received.send_robust(sender=None, channel=channel)
    if timezone.is_naive(arrival) or (sent is not None and timezone.is_naive(sent)):
        raise PlayError("arrival and sending times must carry their time zone")
    if not counted and not limits.inbound_allowed(channel, sender, arrival):
        # Before any query: a flood costs a cache round trip a message, and one notice a window.
        return Receipt("rate limited", replies=rate_notice(channel, sender, arrival))
    if external_id is not None and rowsql.exists(
        Transmission, channel=channel, external_id=external_id, direction=Transmission.Direction.IN
    ):
        return Receipt("duplicate")
    player = identities.player_for(channel, sender)
    if player is None:
        # Nothing is stored for a stranger: it is logged for staff, and no game is touched.
        logger.warning("message from unknown sender %s:%s ignored", channel, sender)
        return Receipt("unknown sender")
    request = parse_request(text)  # "PLAY COMPUTER 3": a new game, not a move
    handler = _REQUEST_HANDLERS.get(type(request))
    if handler is not None:
        return handler(
            request, player=player, channel=channel, sender=sender, text=text, arrival=arrival, external_id=external_id
        )
    try:
        with transaction.atomic():
            receipt = _receive(player, channel, sender, text, arrival, sent, external_id, game_code)
            if receipt.game is not None:
                turn.move_queue(receipt.game)  # the computer's turn now: its move is queued on commit
            return receipt
    except IntegrityError:
        # The same external id committed by a concurrent delivery of the same message.
        if external_id is not None and Transmission.objects.filter(channel=channel, external_id=external_id).exists():
            return Receipt("duplicate")
        raise


def _pick_game(player, text: str, game_code: str | None) -> tuple[MobileGame | None, str | None]:
    """The game a message is for, locked (with its players, whom the replies name); or None with
    the reason told to the sender. One query in the common case: the tag's game, or his open ones."""
    parsed = parse_message(text)
    tag = parsed.game or game_code
    annulled = _appeal_of_annulled(player, parsed, tag)
    if annulled is not None:
        return annulled, None
    if not tag:
        # Locking a second open game for the moment it takes to say "which one?" is harmless.
        open_games = _open_games_locked(player.pk)
        if len(open_games) == 1:
            return open_games[0], None
    mine = (
        MobileGame.objects.filter(Q(white=player) | Q(black=player))
        .exclude(status=MobileGame.Status.ANNULLED)
        .select_related("white", "black")
    )
    locked = mine.select_for_update(of=("self",))
    if tag:
        game = locked.filter(code__iexact=tag).first()
        return (game, None) if game else (None, f"No game #{excerpt(tag.upper())} of yours.")
    if open_games:
        codes = mine.filter(status=MobileGame.Status.OPEN).order_by("code").values_list("code", flat=True)
        return None, "You play several games: start your message with its code ({}).".format(
            ", ".join(f"#{c}" for c in codes)
        )
    # No open game: the latest one, so a protest after the end still reaches its claim.
    last = locked.order_by("-finished_at", "-pk").first()
    return (last, None) if last else (None, "You have no game.")


@functools.cache
def _open_games_sql(vendor: str) -> str:
    """The common case's lock query, built once: the player's open games (at most two: one is
    his game, two mean "which one?") with both players, as the ORM's select_related query reads
    them; building that query cost more Python than the move itself (issue 28)."""
    del vendor  # part of the cache key: FOR UPDATE OF is PostgreSQL's
    quote = connection.ops.quote_name
    lock = " FOR UPDATE OF g" if connection.features.has_select_for_update_of else ""
    player = quote(Player._meta.db_table)
    return (
        f"SELECT {rowsql.select_list(MobileGame, 'g')}, {rowsql.select_list(Player, 'w')}, "  # noqa: S608
        f"{rowsql.select_list(Player, 'b')} FROM {quote(MobileGame._meta.db_table)} g "
        f"INNER JOIN {player} w ON w.id = g.white_id INNER JOIN {player} b ON b.id = g.black_id "
        f"WHERE (g.white_id = %s OR g.black_id = %s) AND g.status = %s ORDER BY g.id LIMIT 2{lock}"
    )


def _open_games_locked(player_id: int) -> list[MobileGame]:
    with connection.cursor() as cursor:
        cursor.execute(_open_games_sql(connection.vendor), (player_id, player_id, MobileGame.Status.OPEN))
        rows = cursor.fetchall()
    games, width = [], rowsql.width(MobileGame)
    for row in rows:
        game = rowsql.instance(MobileGame, row)
        _WHITE.set_cached_value(game, rowsql.instance(Player, row, width))
        _BLACK.set_cached_value(game, rowsql.instance(Player, row, width + rowsql.width(Player)))
        games.append(game)
    return games


def _receive(player, channel, sender, text, arrival, sent, external_id, game_code) -> Receipt:
    game, problem = _pick_game(player, text, game_code)
    inbound = {
        "direction": Transmission.Direction.IN,
        "channel": channel,
        "address": sender,
        "text": text,
        "at": clock.whole_second(arrival),
        "sent": sent,
        "external_id": external_id,
        "player": player,
    }
    if game is None:
        record = Transmission.objects.create(game=None, party="", kind="unknown game", **inbound)
        replies = _write_out(None, player, channel, sender, "unknown game", {"text": problem}, arrival)
        return Receipt("unknown game", None, replies, record)
    color = game.color_of(player.pk)
    value = state.load(game)
    value, received = machine.receive(value, color, text, arrival, sent)
    record = Transmission(game=game, party=color, kind=received.applied, **inbound)
    if color == Color.WHITE:
        game.white_channel = channel
    else:
        game.black_channel = channel
    # The sender's address on his channel is the one he wrote from: his replies need no lookup.
    known = {} if channel in identities.BY_FEDERATION_ID else {(color, channel): sender}
    replies = commit_value(game, value, received.send, inbound=record, known=known)
    return Receipt(received.applied, game, replies, record)


# --- the machine's value and the outbox ----------------------------------------------------------


def commit_value(
    game: MobileGame, value: machine.Game, send, inbound: Transmission | None = None, known: dict | None = None
) -> list[Transmission]:
    """Store the new value on the locked row, write the inbound record and the outbox (one
    insert), and on commit deliver it and (if the result changed) ask for a re-rating from the
    finishing moment. `known`: addresses already known, by (color, channel)."""
    moment = _store(game, value)
    # Cached statements (toolkit/rowsql.py): game.save(update_fields=...) and bulk_create, without
    # building the ORM's queries anew for every message (neither model has signal receivers).
    rowsql.update_one(game, SAVED_FIELDS)
    replies = [row for item in send for row in outbound_rows(game, item, known)]
    rowsql.insert_returning([inbound, *replies] if inbound is not None else replies)
    deliver_on_commit(replies, [(game, moment)] if moment else [])
    return replies


def _store(game: MobileGame, value: machine.Game) -> datetime.datetime | None:
    """Put the value on the row; the moment to re-rate from when the result changed, else None."""
    before = (game.result, game.finished_at, game.status)
    state.store(game, value)
    after = (game.result, game.finished_at, game.status)
    if after == before:
        return None
    moments = [m for m in (before[1], after[1]) if m is not None]
    return min(moments) if moments else None


def deliver_on_commit(replies: list[Transmission], rerate: list[tuple[MobileGame, datetime.datetime]]) -> None:
    ids = [r.pk for r in replies if r.delivery == Transmission.Delivery.PENDING]
    # The clock files a time claim with one message to the TD (and one to the player it is against).
    if filed := sum(1 for r in replies if r.kind == "claim" and r.party == machine.TD):
        transaction.on_commit(lambda: signals.claim_event.send_robust(sender=None, event="filed", count=filed))
    if ids:
        transaction.on_commit(lambda: _deliver_later(ids))
    if rerate:
        from ratings.services import rating_request

        # The player pages list mobile games with their results: anonymous copies are stale now.
        pagecache.bump_on_commit()

        # From the earlier of the old and new finishing moments: the timeline re-rates from there.
        rating_request(reason="mobile", since=min(moment for _, moment in rerate))


def _address(game: MobileGame, color: str, known: dict | None = None) -> tuple[str, str]:
    channel = game.white_channel if color == Color.WHITE else game.black_channel
    if known and (color, channel) in known:
        return channel, known[color, channel]
    player = game.player_of(color)
    return channel, identities.address_of(player, channel)


def outbound_rows(game: MobileGame, item: machine.Outbound, known: dict | None = None) -> list[Transmission]:
    """The outbox rows (unsaved) of one message the machine sends: one, or an SMS's parts.
    `known`: addresses already known, by (color, channel) (the sender's, who wrote from it)."""
    if item.to == machine.TD:
        # The TD reads his list on the site (the desk); it is recorded like any transmission.
        return [_out_row(game, None, Channel.WEB, "td", item.kind, item.data, item.at, party="td")]
    channel, address = _address(game, item.to, known)
    return _out_rows(game, game.player_of(item.to), channel, address, item.kind, item.data, item.at, party=item.to)


def _write_out(game, player, channel, address, kind, data, at, party: str = "") -> list[Transmission]:
    """Save the rows of one message and queue them on commit (not left for the outbox sweep)."""
    rows = _out_rows(game, player, channel, address, kind, data, at, party)
    for row in rows:
        row.save()
    deliver_on_commit(rows, [])
    return rows


def _out_rows(game, player, channel, address, kind, data, at, party: str = "") -> list[Transmission]:
    """On SMS, the compact text (play/rules/sms_texts.py), and a text longer than one SMS (or than
    Telegram's 4,096 characters) as one row per numbered part, in order (rows go out in pk order),
    so that the continuous record shows exactly the messages that were sent. The machine's data
    stays on the first part only: a RECORD's moves copied onto each part would say nothing more."""
    prefix = f"#{game.code} " if game is not None else ""
    if channel == Channel.TELEGRAM:
        texts = split_telegram(_words(kind, data, channel, player), prefix=prefix)
    elif channel != Channel.SMS:
        return [_out_row(game, player, channel, address, kind, data, at, party)]
    else:
        language = identities.message_language(channel, player)  # not English: he chose it, told of UCS-2's cost
        with translation.override(language):
            texts = sms_parts(kind, data, prefix=prefix, translate=None if language == "en" else translation.gettext)
    if len(texts) == 1:
        return [_out_row(game, player, channel, address, kind, data, at, party, text=texts[0])]
    return [
        _out_row(
            game, player, channel, address, kind, {**(data if i == 1 else {}), "part": i, "parts": len(texts)}, at,
            party, text=text,
        )
        for i, text in enumerate(texts, 1)
    ]  # fmt: skip


def _words(kind: str, data: dict, channel: str, player) -> str:
    """The message's text in its recipient's message language (English needs no translation)."""
    language = identities.message_language(channel, player)
    if language == "en":
        return render(kind, data)
    with translation.override(language):
        return render(kind, data, translation.gettext)


def _out_row(game, player, channel, address, kind, data, at, party="", *, text: str | None = None) -> Transmission:
    if not party and game is not None and player is not None:
        party = game.color_of(player.pk) or ""
    if text is None:
        text = _words(kind, data, channel, player)
        if game is not None:
            text = f"#{game.code} {text}"
    # The web channel has nothing to send: the page reads the record, so the row being written is
    # its delivery, and no task is queued for it.
    web = channel == Channel.WEB
    return Transmission(
        game=game,
        player=player,
        direction=Transmission.Direction.OUT,
        channel=channel,
        party=party,
        address=address,
        kind=kind,
        text=text,
        data=data,
        at=clock.whole_second(at),
        delivery=Transmission.Delivery.SENT if web else Transmission.Delivery.PENDING,
        delivered_at=timezone.now() if web else None,
    )


def _deliver_later(ids: list[int]) -> None:
    """After commit: a drain of the outbox queued, unless one is queued already and not yet
    started (it takes these rows too): one task for the rows of many messages."""
    drain.request(ids)


# --- time ----------------------------------------------------------------------------------------


def games_sweep(*, now: datetime.datetime | None = None, batch: int = 500) -> int:
    """One pass of the sweeper: every game whose next due moment has passed (one indexed query)
    is advanced to `now`. Games are taken a batch at a time under row locks, skipping those
    another worker or a message holds (they are advanced by that message, or the next pass);
    each batch is one transaction with one bulk update and one bulk insert of the outbox, its
    rows read and written as tuples (play/sweep.py). Returns how many games it advanced."""
    now = now or timezone.now()
    done = 0
    seen: list[int] = []
    while True:
        with transaction.atomic():
            games = sweep.due_games(now, seen, batch)
            if not games:
                return done
            sends, rerate = [], []
            for game in games:
                seen.append(game.id)
                value, send = machine.advance(sweep.value_of(game), now)
                moment = _store(game, value)  # the columns onto the Due, as onto a row
                if moment is not None:
                    rerate.append((game, moment))
                if send:
                    sends.append((game, send))
            replies = sweep.write(games, sweep.outbox_rows(sends), timezone.now())
            deliver_on_commit(replies, rerate)
            done += len(games)
        if len(games) < batch:
            return done


SAVED_FIELDS = (
    "state", "rules_version", "result", "termination", "plies", "next_due", "status", "finished_at", "on_move",
    "on_move_since", "white_channel", "black_channel", "updated_at",
)  # fmt: skip
SWEPT_FIELDS = sweep.SWEPT_FIELDS


# --- notices outside the machine (play/channels/linking.py) ----------------------------------------------


def notice_send(
    *, game: MobileGame | None, player, channel: str, address: str, kind: str, text: str, at: datetime.datetime,
    data: dict | None = None, party: str = "",
) -> Transmission:  # fmt: skip
    """An outbound row whose words the caller writes (a verification code, a linked chat, a change
    of number told to the TD and opponents), written in the caller's transaction and delivered on
    commit exactly like the machine's messages. A game's notice is prefixed with its `#CODE`."""
    row = _out_row(game, player, channel, address, kind, data or {}, at, party)
    row.text = f"#{game.code} {text}" if game is not None else text
    row.save()
    deliver_on_commit([row], [])
    return row


def rate_notice(channel: str, sender: str, at: datetime.datetime) -> list[Transmission]:
    """The "too many messages, wait N s" notice, once a window, to a known sender over the inbound
    limit (an answer to each dropped message would be a storm of its own; a stranger gets none)."""
    player = identities.player_for(channel, sender) if limits.inbound_notice_due(channel, sender, at) else None
    if player is None:
        return []
    data = {"limit": settings.PLAY_INBOUND_PER_MINUTE, "seconds": limits.inbound_wait(channel, sender, at)}
    return _write_out(None, player, channel, sender, "rate limited", data, at)


def reply_send(
    *, game: MobileGame | None, player, channel: str, address: str, kind: str, text: str, at: datetime.datetime
) -> list[Transmission]:
    """A reply whose words the caller writes (the answer to PLAY COMPUTER), sized to its channel as
    the machine's replies are (an SMS in numbered parts) and delivered on commit like them."""
    return _write_out(game, player, channel, address, kind, {"text": text}, at)


def notice_address(game: MobileGame, color: str) -> tuple[str, str]:
    """The channel and address a player's messages in `game` go to (the one he last used)."""
    return _address(game, color)


def _appeal_of_annulled(player, parsed, tag: str | None) -> MobileGame | None:
    """An APPEAL from a player whose games were annulled (a withdrawal, rule 8) reaches the game
    of the latest decision on him, though messages otherwise skip annulled games: with a tag,
    that game or another of the decision's games; without one, the decision's game (or its first
    game, for a decision on him in all his games). None when the message is no APPEAL or that
    game is not annulled (the usual choice then applies), locked like any picked game."""
    from play.models import Decision
    from play.rules.message import Command

    if parsed.command is not Command.APPEAL:
        return None

    mine = Q(game__white=player) | Q(game__black=player) | Q(player=player)
    decision = Decision.objects.filter(mine).order_by("-at", "-pk").first()
    if decision is None:
        return None
    codes = [decision.game_id] if decision.game_id else [e["game"] for e in decision.effects if "game" in e]
    games = (
        MobileGame.objects.filter(pk__in=codes, status=MobileGame.Status.ANNULLED)
        .filter(Q(white=player) | Q(black=player))
        .select_related("white", "black")
        .select_for_update(of=("self",))
        .order_by("pk")
    )
    if tag:
        games = games.filter(code__iexact=tag.lstrip("#"))
    return games.first()
