"""What the mobile-chess benchmarks share: their PostgreSQL database and Redis broker, players and
open games made in bulk, percentiles.

BENCH_DATABASE_URL (default: a federation_play database on the local server, created and
migrated), BENCH_BROKER_URL (default: Redis database 6 on the local server) and BENCH_CACHE_URL
(default: Redis database 7). Tasks are not
eager: a message's outbound rows are committed with it and their delivery is queued on Redis,
as in production. Each benchmark empties the mobile-chess tables of that database first.
"""

from __future__ import annotations

import datetime
import os
import subprocess
import sys
import time
import uuid

from benchmarks.pipeline import ROOT, create_database

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/federation_play"
DEFAULT_BROKER = "redis://127.0.0.1:6379/6"
DEFAULT_CACHE = "redis://127.0.0.1:6379/7"
RESULTS = ROOT / "benchmarks" / "results"


def environment(queue: str) -> dict:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "federation.settings",
        "DATABASE_URL": os.environ.get("BENCH_DATABASE_URL", DEFAULT_DB),
        "CELERY_BROKER_URL": os.environ.get("BENCH_BROKER_URL", DEFAULT_BROKER),
        # Shared by the web processes and the worker, as in production (the outbox drain's flag).
        "CACHE_URL": os.environ.get("BENCH_CACHE_URL", DEFAULT_CACHE),
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "CELERY_TASK_DEFAULT_QUEUE": queue,
        "DATABASE_CONN_MAX_AGE": "60",
        "LOG_LEVEL": "WARNING",
        "DEBUG": "false",  # as in production: no query log kept in memory
    }


def setup() -> dict:
    """Database created and migrated, Django set up in this process on a queue of its own."""
    queue = f"bench-play-{uuid.uuid4().hex[:8]}"
    env = environment(queue)
    os.environ.update(env)
    create_database(env["DATABASE_URL"])
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    return env


def reset() -> None:
    """No mobile-chess rows left from an earlier run."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "TRUNCATE play_transmission, play_mobilegame, play_entry, play_mobileevent, play_channeladdress "
            "RESTART IDENTITY CASCADE"
        )


def purge_queue() -> None:
    """The delivery tasks queued while no worker ran (the benchmark measured their queueing only)."""
    from federation.celery import app

    with app.connection_for_write() as conn:
        conn.default_channel.queue_delete(app.conf.task_default_queue)


def players(count: int) -> list:
    """`count` benchmark players (made once in bulk, reused by later runs)."""
    from players.models import Player
    from players.services import allocate_federation_ids

    have = list(Player.objects.filter(family_name="Bench-play").order_by("pk")[:count])
    missing = count - len(have)
    if missing > 0:
        ids = allocate_federation_ids(missing)
        Player.objects.bulk_create(
            [
                Player(
                    federation_id=fid,
                    family_name="Bench-play",
                    given_names=f"P{fid}",
                    name_key=f"bench-play p{fid}",
                    latin_key=f"bench-play p{fid}",
                    birth_date=datetime.date(2000, 1, 1),
                    birth_precision="day",
                )
                for fid in ids
            ],
            batch_size=5000,
        )
        have = list(Player.objects.filter(family_name="Bench-play").order_by("pk")[:count])
    return have


def open_games(pairs: list[tuple], starts: list[datetime.datetime], channel: str = "web", prefix: str = "B") -> int:
    """Open games without moves, made in bulk: one row per (white, black) pair with its start,
    the machine's value and its columns as play.state.store writes them (one value per distinct
    start, since new games starting together are equal)."""
    from play import state
    from play.models import MobileGame
    from play.rules import clock
    from play.rules import game as machine

    control = clock.TimeControl()
    templates: dict = {}
    rows = []
    for number, ((white, black), start) in enumerate(zip(pairs, starts, strict=True)):
        if start not in templates:
            template = MobileGame(start=start)
            state.store(template, machine.new_game(start, control))
            templates[start] = template
        t = templates[start]
        rows.append(
            MobileGame(
                code=f"{prefix}{number:07d}",
                white_id=white.pk,
                black_id=black.pk,
                start=clock.whole_second(start),
                control=str(control),
                norm=control.norm,
                weight=250,
                state=t.state,
                rules_version=t.rules_version,
                result=t.result,
                termination=t.termination,
                status=t.status,
                on_move=t.on_move,
                plies=0,
                next_due=t.next_due,
                on_move_since=t.on_move_since,
                white_channel=channel,
                black_channel=channel,
            )
        )
    MobileGame.objects.bulk_create(rows, batch_size=5000)
    return len(rows)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))
    return ordered[index]


def summary(values_ms: list[float]) -> str:
    return " | ".join(f"{percentile(values_ms, p):.1f} ms" for p in (50, 95, 99)) + f" | {max(values_ms):.1f} ms"


def machine_line() -> str:
    import platform

    return f"{platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} cores, PostgreSQL + Redis"


class Split:
    """Where the service's time goes: SQL round trips (Django's execute wrapper, statements
    counted), COMMIT, the game machine's `operation` (receive or advance), the snapshot pickling,
    queueing the delivery; the rest is the ORM and the service's own Python."""

    def __init__(self, operation: str, *, sql: str = "SQL", delivery: str = "delivery queued"):
        self.operation, self.sql_part, self.delivery_part = operation, sql, delivery
        self.machine_part = f"game machine ({operation})"
        parts = (sql, "COMMIT (WAL flush)", self.machine_part, "snapshot load + dump", delivery)
        self.seconds = dict.fromkeys(parts, 0.0)
        self.statements = 0

    def timed(self, key, function):
        def wrapper(*args, **kwargs):
            began = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                self.seconds[key] += time.perf_counter() - began

        return wrapper

    def sql(self, execute, sql, params, many, context):
        began = time.perf_counter()
        self.statements += 1
        try:
            return execute(sql, params, many, context)
        finally:
            self.seconds[self.sql_part] += time.perf_counter() - began

    def install(self):
        from django.db import connections

        from play import services
        from play.rules import game, snapshot

        setattr(game, self.operation, self.timed(self.machine_part, getattr(game, self.operation)))
        snapshot.load = self.timed("snapshot load + dump", snapshot.load)
        snapshot.dump = self.timed("snapshot load + dump", snapshot.dump)
        services._deliver_later = self.timed(self.delivery_part, services._deliver_later)
        default = connections["default"]
        default._commit = self.timed("COMMIT (WAL flush)", default._commit)

    def reset(self):
        self.seconds = dict.fromkeys(self.seconds, 0.0)
        self.statements = 0


def message_floor(senders: list[int], *, channel: str = "console") -> list[float]:
    """The message path's floor: for each federation id in `senders` (one message each, in order),
    the rows a move message reads and writes, by plain psycopg on Django's connection, one
    transaction a message: the sender's player row, his open game locked (with both players, as
    the service reads them), the game row's saved columns written back, and the inbound record and
    two outbound rows inserted in one statement. No ORM, no game machine, no queueing: what the
    database itself costs. Milliseconds per message."""
    from django.db import connection

    from play.services import SAVED_FIELDS

    connection.ensure_connection()
    raw = connection.connection  # psycopg's own connection (autocommit, as Django keeps it)
    columns = [c for c in SAVED_FIELDS if c != "updated_at"]
    update = (
        f"UPDATE play_mobilegame SET {', '.join(f'{c} = %s' for c in columns)}, updated_at = now() "  # noqa: S608
        "WHERE id = %s"
    )
    read = (
        f"SELECT g.id, {', '.join(f'g.{c}' for c in columns)}, w.*, b.* FROM play_mobilegame g "  # noqa: S608
        "JOIN players_player w ON w.id = g.white_id JOIN players_player b ON b.id = g.black_id "
        "WHERE (g.white_id = %s OR g.black_id = %s) AND g.status = 'open' ORDER BY g.id LIMIT 2 FOR UPDATE OF g"
    )
    insert = (
        "INSERT INTO play_transmission (game_id, player_id, direction, channel, party, address, kind, text, data, "
        "at, sent, external_id, delivery, attempts, delivered_at, error, delivery_reports) VALUES "
        "(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, NULL, NULL, %s, 0, NULL, '', '[]'), "
        "(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, NULL, NULL, %s, 0, NULL, '', '[]'), "
        "(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, NULL, NULL, %s, 0, NULL, '', '[]') RETURNING id"
    )
    times = []
    for fid in senders:
        began = time.perf_counter()
        with raw.cursor() as cursor:
            cursor.execute("SELECT id FROM players_player WHERE federation_id = %s", (fid,))
            (player,) = cursor.fetchone()
            with raw.transaction():
                cursor.execute(read, (player, player))
                row = cursor.fetchone()
                game = row[0]
                cursor.execute(update, (*row[1 : 1 + len(columns)], game))
                at = datetime.datetime.now(datetime.UTC)
                text = "#FLOOR 1. e4"
                values = [
                    (game, player, "in", channel, "white", str(fid), "move", text, "{}", at, ""),
                    (game, player, "out", channel, "white", str(fid), "acknowledgement", text, "{}", at, "pending"),
                    (game, player, "out", channel, "black", str(fid), "move", text, '{"move": "e4"}', at, "pending"),
                ]
                cursor.execute(insert, [value for row_values in values for value in row_values])
        times.append((time.perf_counter() - began) * 1000)
    return times


def sweep_floor(now: datetime.datetime, *, batch: int = 500) -> tuple[float, int]:
    """The sweeper's floor: the rows one pass reads and writes, by plain psycopg, `batch` games a
    transaction: the due games locked by the next_due index (with both players, as the pass reads
    them), their swept columns written back in one UPDATE ... FROM (VALUES ...), and an outbound row
    for each plus one for every second game (a fallen flag's claim has two notices: 1.5 rows a
    game, as in benchmarks/play_sweep.py). The values written are those read, so the games stay
    due for the pass timed after it. (seconds, games); the floor's rows are deleted after."""
    from django.db import connection

    from play.services import SWEPT_FIELDS

    connection.ensure_connection()
    raw = connection.connection
    columns = [c for c in SWEPT_FIELDS if c != "updated_at"]
    read = (
        f"SELECT g.id, g.next_due, {', '.join(f'g.{c}' for c in columns)}, w.*, b.* FROM play_mobilegame g "  # noqa: S608
        "JOIN players_player w ON w.id = g.white_id JOIN players_player b ON b.id = g.black_id "
        "WHERE g.next_due < %s AND (g.next_due, g.id) > (%s, %s) ORDER BY g.next_due, g.id LIMIT %s "
        "FOR UPDATE OF g SKIP LOCKED"
    )
    with raw.cursor() as cursor:  # each column's type, for the VALUES list (a NULL there is text)
        cursor.execute(
            "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'play_mobilegame'"
        )
        types = dict(cursor.fetchall())
    games, began = 0, time.perf_counter()
    last = (datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC), 0)
    with raw.cursor() as cursor:
        while True:
            with raw.transaction():
                cursor.execute(read, (now, *last, batch))
                rows = cursor.fetchall()
                if not rows:
                    break
                width = len(columns)
                one = "(%s::bigint, " + ", ".join(f"%s::{types[c]}" for c in columns) + ")"
                values = ", ".join([one] * len(rows))
                update = (
                    f"UPDATE play_mobilegame g SET {', '.join(f'{c} = v.{c}' for c in columns)}, "  # noqa: S608
                    f"updated_at = now() FROM (VALUES {values}) AS v(id, {', '.join(columns)}) WHERE g.id = v.id"
                )
                cursor.execute(update, [value for row in rows for value in (row[0], *row[2 : 2 + width])])
                outbound = [row[0] for number, row in enumerate(rows) for _ in range(1 + number % 2)]
                row_sql = "(%s, NULL, 'out', 'console', 'white', 'floor', 'reminder', 'floor', '{}', %s, NULL, 'pending', 0, '', '[]')"  # noqa: E501
                cursor.execute(
                    "INSERT INTO play_transmission (game_id, player_id, direction, channel, party, address, kind, "  # noqa: S608
                    "text, data, at, external_id, delivery, attempts, error, delivery_reports) VALUES "
                    + ", ".join([row_sql] * len(outbound)),
                    [value for game in outbound for value in (game, now)],
                )
                games += len(rows)
                last = (rows[-1][1], rows[-1][0])
    seconds = time.perf_counter() - began
    with raw.cursor() as cursor:
        cursor.execute("DELETE FROM play_transmission WHERE address = 'floor'")
    return seconds, games
