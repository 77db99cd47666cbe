"""The sweeper's rows, set-based (issue 28): `play.services.games_sweep` drives the pass, this
module reads and writes its rows.

The due games are read as tuples (one locking query through the next_due index, with the two
columns of each player the outbox needs), never as model instances: a pass spent half its time
building games, players and outbox rows in the ORM and preparing them value by value. The clock
rules get the snapshot; `play.state.store` writes its columns onto a `Due` exactly as onto a row;
the outbox is built as tuples; and on PostgreSQL a batch's games are written back by one UPDATE
and its outbox by one INSERT, each reading its rows from one JSON parameter
(json_populate_recordset against the table's own row type, so every column keeps its type and no
value is prepared one by one in Python). Elsewhere (SQLite, the tests' default) the same tuples go
through the ORM.
"""

from __future__ import annotations

import datetime
from collections import namedtuple

import orjson
from django.db import connection
from django.utils import translation

from play import state
from play.channels import identities
from play.models import Channel, ChannelAddress, Color, MobileGame, Transmission
from play.rules import clock, snapshot
from play.rules import game as machine
from play.rules.segments import split_telegram
from play.rules.sms_texts import sms_parts
from play.rules.texts import render
from toolkit.bulk import update_rows

# What a pass reads of a due game: what the clock rules load, what `_store` compares (result,
# finished_at, status), and what the outbox names (code, channels, each player's id, federation
# id and message language).
DUE_COLUMNS = (
    "id", "code", "state", "rules_version", "result", "finished_at", "status", "white_channel", "black_channel",
    "white_id", "white__federation_id", "white__message_language",
    "black_id", "black__federation_id", "black__message_language",
)  # fmt: skip
# The outbox row's columns, in the order `outbox_rows` builds them.
OUT_COLUMNS = ("game_id", "player_id", "channel", "party", "address", "kind", "text", "data", "at")

# An outbox row as written: what deliver_on_commit reads of it.
Written = namedtuple("Written", "pk delivery kind party")


class Person:
    """A player as the outbox needs him (identities.message_language reads `message_language`)."""

    __slots__ = ("federation_id", "message_language", "pk")

    def __init__(self, pk: int, federation_id: int, message_language: str):
        self.pk, self.federation_id, self.message_language = pk, federation_id, message_language


class Due:
    """A due game: the columns read, and those play.state.store sets (it sets them on a Due as on a
    model row, so the pass and a message store the same columns from the same value)."""

    __slots__ = (
        "black",
        "black_channel",
        "code",
        "finished_at",
        "id",
        "next_due",
        "on_move",
        "on_move_since",
        "plies",
        "result",
        "rules_version",
        "state",
        "status",
        "termination",
        "white",
        "white_channel",
    )  # fmt: skip

    def __init__(self, row: tuple):
        (
            self.id, self.code, self.state, self.rules_version, self.result, self.finished_at, self.status,
            self.white_channel, self.black_channel, white, white_fid, white_language, black, black_fid, black_language,
        ) = row  # fmt: skip
        self.white = Person(white, white_fid, white_language)
        self.black = Person(black, black_fid, black_language)


def due_games(now: datetime.datetime, seen: list[int], batch: int) -> list[Due]:
    """The next `batch` games due before `now` (by the next_due index), locked, skipping those
    another worker or a message holds and those this pass has advanced already (`seen`)."""
    return [Due(row) for row in due_query(now, seen, batch)]


def due_query(now: datetime.datetime, seen: list[int], batch: int):
    """due_games' query (benchmarks/play_sweep.py shows its plan: the partial index on next_due)."""
    return (
        MobileGame.objects.select_for_update(skip_locked=True, of=("self",))
        .filter(next_due__lt=now)
        .exclude(pk__in=seen)
        .order_by("next_due")
        .values_list(*DUE_COLUMNS)[:batch]
    )


def value_of(game: Due) -> machine.Game:
    """The machine's value (as play.state.load): the snapshot, or for one of an older shape the
    value rebuilt from the record, which needs the row itself (rare: once per rules change)."""
    if game.state and game.rules_version == snapshot.RULES_VERSION:
        return snapshot.load(game.state)
    return state.rebuild(MobileGame.objects.get(pk=game.id))


# --- the outbox ------------------------------------------------------------------------------------
# The same rows play.services.outbound_rows builds as Transmission instances (the message path's),
# as tuples; tests/play/test_sweep_rows.py holds the two equal on every channel.


def outbox_rows(sends: list[tuple[Due, tuple[machine.Outbound, ...]]]) -> list[tuple]:
    """The outbox rows (OUT_COLUMNS) of what the machine sends for each game, in order. The phone
    addresses they go to are read in one query."""
    wanted = {
        (player.pk, channel)
        for game, items in sends
        for item in items
        if item.to != machine.TD
        for player, channel in [_recipient(game, item.to)]
        if channel not in identities.BY_FEDERATION_ID
    }
    addresses: dict[tuple[int, str], str] = {}
    if wanted:
        found = ChannelAddress.objects.filter(
            player_id__in={pk for pk, _ in wanted}, channel__in={channel for _, channel in wanted}
        ).values_list("player_id", "channel", "address")
        addresses = {(pk, channel): address for pk, channel, address in found}
    rows: list[tuple] = []
    for game, items in sends:
        for item in items:
            rows.extend(_rows(game, item, addresses))
    return rows


def _recipient(game: Due, color: str) -> tuple[Person, str]:
    if color == Color.WHITE:
        return game.white, game.white_channel
    return game.black, game.black_channel


def _rows(game: Due, item: machine.Outbound, addresses: dict) -> list[tuple]:
    at = clock.whole_second(item.at)
    prefix = f"#{game.code} "
    if item.to == machine.TD:  # the TD reads his list on the site: recorded like any transmission
        text = prefix + _words(item.kind, item.data, Channel.WEB, None)
        return [(game.id, None, Channel.WEB, "td", "td", item.kind, text, item.data, at)]
    player, channel = _recipient(game, item.to)
    if channel in identities.BY_FEDERATION_ID:
        address = str(player.federation_id)
    else:
        address = addresses.get((player.pk, channel), "")
    head = (game.id, player.pk, channel, item.to, address, item.kind)
    if channel == Channel.TELEGRAM:
        texts = split_telegram(_words(item.kind, item.data, channel, player), prefix=prefix)
    elif channel != Channel.SMS:
        return [(*head, prefix + _words(item.kind, item.data, channel, player), item.data, at)]
    else:
        language = identities.message_language(channel, player)
        with translation.override(language):
            translate = None if language == "en" else translation.gettext
            texts = sms_parts(item.kind, item.data, prefix=prefix, translate=translate)
    if len(texts) == 1:
        return [(*head, texts[0], item.data, at)]
    # Parts in order (rows go out in pk order); the machine's data on the first part only.
    return [
        (*head, text, {**(item.data if i == 1 else {}), "part": i, "parts": len(texts)}, at)
        for i, text in enumerate(texts, 1)
    ]


def _words(kind: str, data: dict, channel: str, player: Person | None) -> str:
    language = identities.message_language(channel, player)
    if language == "en":
        return render(kind, data)
    with translation.override(language):
        return render(kind, data, translation.gettext)


# --- the writes ------------------------------------------------------------------------------------

SWEPT_FIELDS = (
    "state", "rules_version", "result", "termination", "plies", "next_due", "status", "finished_at", "on_move",
    "on_move_since", "updated_at",
)  # fmt: skip


def write(games: list[Due], outbox: list[tuple], now: datetime.datetime) -> list[Written]:
    """Save the games' swept columns and insert the outbox (web rows are delivered as they are
    written: the page reads the record). `now` is the clock's moment of writing (updated_at,
    delivered_at), not the pass's. Returns the outbox rows written, in pk order."""
    if connection.vendor != "postgresql":
        return _write_orm(games, outbox, now)
    table, quote = MobileGame._meta.db_table, connection.ops.quote_name
    swept = [_swept(game, now) for game in games]
    columns = ", ".join(f"{quote(name)} = v.{quote(name)}" for name in SWEPT_FIELDS)
    rows = [_out(row, now) for row in outbox]
    names = (*OUT_COLUMNS, "direction", "delivery", "delivered_at", "attempts", "error", "delivery_reports")
    listed = ", ".join(quote(name) for name in names)
    with connection.cursor() as cursor:
        # Only names from the models' metadata are formatted in; the rows are one JSON parameter.
        cursor.execute(
            f"UPDATE {quote(table)} AS g SET {columns} "  # noqa: S608
            f"FROM json_populate_recordset(NULL::{quote(table)}, %s::json) AS v WHERE g.id = v.id",
            [_json(swept)],
        )
        if not rows:
            return []
        out = quote(Transmission._meta.db_table)
        cursor.execute(
            f"INSERT INTO {out} ({listed}) SELECT {listed} "  # noqa: S608
            f"FROM json_populate_recordset(NULL::{out}, %s::json) RETURNING id, delivery, kind, party",
            [_json(rows)],
        )
        return sorted(Written(*row) for row in cursor.fetchall())


def _swept(game: Due, now: datetime.datetime) -> dict:
    return {
        "id": game.id,
        "state": "\\x" + game.state.hex(),  # bytea's hex text
        "rules_version": game.rules_version,
        "result": game.result,
        "termination": game.termination,
        "plies": game.plies,
        "next_due": game.next_due,
        "status": game.status,
        "finished_at": game.finished_at,
        "on_move": game.on_move,
        "on_move_since": game.on_move_since,
        "updated_at": now,
    }


def _out(row: tuple, now: datetime.datetime) -> dict:
    channel = row[2]
    return {
        **dict(zip(OUT_COLUMNS, row, strict=True)),
        "direction": Transmission.Direction.OUT,
        "delivery": _delivery(channel),
        "delivered_at": now if channel == Channel.WEB else None,
        "attempts": 0,
        "error": "",
        "delivery_reports": [],
    }


def _delivery(channel: str) -> str:
    # The web channel has nothing to send: the row being written is its delivery.
    return Transmission.Delivery.SENT if channel == Channel.WEB else Transmission.Delivery.PENDING


def _json(rows: list[dict]) -> str:
    # Aware datetimes keep their offset.
    return orjson.dumps(rows, option=orjson.OPT_NON_STR_KEYS).decode()


def _write_orm(games: list[Due], outbox: list[tuple], now: datetime.datetime) -> list[Written]:
    rows = []
    for game in games:
        row = MobileGame(id=game.id)
        for name in SWEPT_FIELDS[:-1]:
            setattr(row, name, getattr(game, name))
        rows.append(row)
    update_rows(rows, SWEPT_FIELDS)
    written = Transmission.objects.bulk_create(Transmission(**_out(row, now)) for row in outbox)
    return [Written(row.pk, row.delivery, row.kind, row.party) for row in written]
