"""A rating run while people play computers: how much slower the run gets, and how late the
computers' replies are, with one engine worker (`make engine-worker`: queue "engine", one slot)
beside the rating worker on this machine.

    python -m benchmarks.play_engine_load [--games 20] [--tournaments 1000] [--rounds 3] [--think keep|min] [--smoke]

The federation is generated as benchmarks.scale does (about 100 games a tournament: 1,000
tournaments are about 100,000 games, the issue's size). Each round re-rates the whole history
twice with rerate_since, the rating worker's usual task: once with no game running (the baseline)
and once while `--games` people play computer levels 1-8 in turn, each answering the computer at
once (a random legal move, fixed seed): the worst a room of people can do. `--think keep` keeps
each level's think time (5-10 s, as on the site); `--think min` puts every level at the least the
levels allow (3 s), so the engine worker rests least (a stress case; the shipped think times are
put back after). A game the computer wins is not replaced.

Reported: the baseline and loaded re-rating times of each round, the slowdown of the medians
(target, issue 17: at most 20 %), the computers' reply lateness (engine task's arrival minus the
person's move minus the think time; p50 / p95 by level), the load average before and after.

Uses BENCH_DATABASE_URL (default: a federation_engine_load database on the local server) and
BENCH_BROKER_URL (default: Redis database 6).

`--smoke` (tests/benchmarks/test_smoke.py): the same path at a tiny size: 200 players, 3
tournaments, one round with 2 games, `--think min` and a 5 s warm-up; the workers' logs go to a
temporary directory and no report is written under benchmarks/results/ (it is printed); it exits
non-zero unless the engine worker's replies arrived.
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

from benchmarks.pipeline import ROOT, create_database, environment, start_worker, stop_worker

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/federation_engine_load"
RESULTS = ROOT / "benchmarks" / "results"


def prepare(args, env: dict) -> str:
    """Migrated, and the federation generated unless one of this size is there."""
    create_database(env["DATABASE_URL"])
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    import psycopg

    with psycopg.connect(env["DATABASE_URL"]) as connection:
        have = connection.execute("SELECT count(*) FROM tournaments_tournament").fetchone()[0]
    if have >= args.tournaments:
        return f"reused ({have} tournaments)"
    result = subprocess.run(  # noqa: S603
        [sys.executable, "manage.py", "generate_federation", "--players", str(args.players),
         "--tournaments", str(args.tournaments), "--seed", "1"],
        cwd=ROOT, env=env, check=True, capture_output=True, text=True,
    )  # fmt: skip
    return result.stdout.strip()


def engine_worker(env: dict, log_path) -> subprocess.Popen:
    """The engine worker as `make engine-worker` runs it: queue engine, one slot (prefork)."""
    log = open(log_path, "wb")  # noqa: SIM115 - closed by stop_worker
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "federation", "worker", "-Q", "engine", "-n", "engine@%h",
         "--concurrency=1", "--loglevel=WARNING", "--without-heartbeat", "--without-mingle", "--without-gossip"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    worker.log = log
    return worker


def wait_for_workers(count: int) -> None:
    from federation.celery import app

    deadline = time.monotonic() + 90
    while len(app.control.ping(timeout=0.5) or []) < count:
        if time.monotonic() > deadline:
            raise SystemExit("the workers did not start (see benchmarks/results/*.log)")


def rerate() -> float:
    """The whole history re-rated by the rating worker; seconds from sending the task to the last
    tournament's commit (as benchmarks.scale measures it)."""
    from ratings.tasks import rerate_since
    from tournaments.models import Tournament

    total = Tournament.objects.filter(status__in=["confirmed", "queued", "rated"]).count()
    sent_at = datetime.datetime.now(datetime.UTC)
    began = time.perf_counter()
    rerate_since.delay(None)
    while Tournament.objects.filter(rated_at__gte=sent_at).count() < total:
        if time.perf_counter() - began > 1800:
            raise SystemExit("the re-rating did not finish within 30 minutes")
        time.sleep(0.05)
    return time.perf_counter() - began


class People(threading.Thread):
    """`count` people, each in a game against a computer level (1-8 in turn), answering every
    computer move at once with a random legal move through the message service."""

    def __init__(self, people: list, seed: int):
        super().__init__(daemon=True)
        self.people, self.rng = people, random.Random(seed)
        self.stop = threading.Event()
        self.games: list[int] = []
        self.moves = 0

    def start_games(self) -> None:
        from play.computer import services as computer
        from play.models import ComputerLevel

        levels = list(ComputerLevel.objects.filter(active=True).order_by("number"))
        for n, person in enumerate(self.people):
            game = computer.computer_game_create(player=person, level=levels[n % len(levels)], side="black")
            self.games.append(game.pk)

    def run(self) -> None:
        from django.db import connection
        from django.utils import timezone

        from play import services, state
        from play.computer import services as computer
        from play.models import MobileGame

        try:
            while not self.stop.is_set():
                waiting = MobileGame.objects.filter(pk__in=self.games, status="open", on_move="black").select_related(
                    "white", "black"
                )
                for game in waiting:
                    board = state.load(game).board
                    move = self.rng.choice(sorted(board.legal_moves, key=lambda m: m.uci()))
                    services.message_receive(
                        channel="web", sender=str(game.black.federation_id),
                        text=computer.move_message(game, move.uci()), arrival=timezone.now(), game_code=game.code,
                    )  # fmt: skip
                    self.moves += 1
                self.stop.wait(0.05)
        finally:
            connection.close()


def lateness(game_ids: list[int]) -> dict[int, list[float]]:
    """Per level: each computer move's arrival minus the person's move before it minus the think time."""
    from play.computer.turn import level_of
    from play.models import MobileGame, Transmission

    by_level: dict[int, list[float]] = {}
    for game in MobileGame.objects.filter(pk__in=game_ids).select_related("white", "black"):
        level = level_of(game.white)
        rows = (
            Transmission.objects.filter(game=game, direction="in").order_by("at", "pk").values_list("player_id", "at")
        )
        previous = None
        for player_id, at in rows:
            if player_id == game.white_id and previous is not None:
                by_level.setdefault(level.number, []).append((at - previous).total_seconds() - level.think_seconds)
            previous = at if player_id == game.black_id else None
    return by_level


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--tournaments", type=int, default=1_000, help="about 100 games each")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--think", choices=["keep", "min"], default="keep")
    parser.add_argument("--warmup", type=float, default=15.0, help="seconds of play before each loaded run")
    parser.add_argument("--smoke", action="store_true", help="the same code path at a tiny size (tests)")
    args = parser.parse_args(argv)
    logs = RESULTS
    if args.smoke:
        args.games, args.players, args.tournaments, args.rounds, args.warmup = 2, 200, 3, 1, 5.0
        args.think = "min"  # 3 s think times: the engine worker replies within the short warm-up
        logs = Path(tempfile.mkdtemp())

    os.environ.setdefault("BENCH_DATABASE_URL", DEFAULT_DB)
    queue = f"bench-engine-load-{uuid.uuid4().hex[:8]}"
    env = environment(queue)
    os.environ.update(env)
    generated = prepare(args, env)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from benchmarks.play_common import players, reset
    from federation.celery import app
    from play.computer import services as computer
    from play.models import THINK_SECONDS, ComputerLevel
    from ratings.models import RatingChange
    from tournaments.models import Game

    # No game or queued computer move left from an earlier run (its people would have a game in
    # progress with each level). The cascade empties the rating changes too: the warm-up re-rates.
    reset()
    with app.connection_for_write() as conn:
        conn.default_channel.queue_delete("engine")
    computer.levels_ensure()
    if args.think == "min":
        ComputerLevel.objects.filter(active=True).update(think_seconds=THINK_SECONDS[0])
    games_count = Game.objects.count()
    people = players(args.games * args.rounds)
    load_before = os.getloadavg()
    rating_log, engine_log = logs / "play-engine-load-rating.log", logs / "play-engine-load-engine.log"
    rating_worker = start_worker(env, rating_log, queue)
    engines = engine_worker(env, engine_log)
    baseline, loaded, moves, finished, all_games = [], [], [], [], []
    try:
        wait_for_workers(2)
        print(f"warm-up re-rating: {rerate():.2f} s", flush=True)
        for n in range(args.rounds):
            baseline.append(rerate())
            group = People(people[n * args.games : (n + 1) * args.games], seed=n)
            group.start_games()
            group.start()
            time.sleep(args.warmup)
            before = group.moves
            loaded.append(rerate())
            moves.append(group.moves - before)
            group.stop.set()
            group.join()
            all_games += group.games
            finished.append(_finished(group.games))
            print(
                f"round {n + 1}: baseline {baseline[-1]:.2f} s, with {args.games} games {loaded[-1]:.2f} s", flush=True
            )
        time.sleep(2)  # the last replies in
        late = lateness(all_games)
    finally:
        stop_worker(rating_worker)
        stop_worker(engines)
    load_after = os.getloadavg()
    if args.think == "min":
        computer_levels_restore()
    if args.smoke and not any(late.values()):
        raise SystemExit(f"smoke: no computer reply arrived ({moves} person moves)")

    slowdown = statistics.median(loaded) / statistics.median(baseline) - 1
    mode = "think times kept" if args.think == "keep" else f"every think time {THINK_SECONDS[0]} s: a stress case"
    lines = [
        f"# A rating run while {args.games} people play computers ({mode})",
        "",
        f"Machine: {os.cpu_count()} cores shared with other users; load average before {_load(load_before)}, "
        f"after {_load(load_after)}. Federation: {generated}; {games_count:,} games, "
        f"{RatingChange.objects.count():,} rating changes.",
        "One rating worker (one slot) and one engine worker (queue engine, one slot), as `make worker` and "
        "`make engine-worker`. People answer each computer move at once (random legal moves); levels 1-8 in turn.",
        "",
        "| round | re-rating alone | re-rating with the games | person moves during it | games over at its end |",
        "|---|---|---|---|---|",
        *(
            f"| {n + 1} | {b:.2f} s | {w:.2f} s | {m} | {f} |"
            for n, (b, w, m, f) in enumerate(zip(baseline, loaded, moves, finished, strict=True))
        ),
        "",
        f"Median: {statistics.median(baseline):.2f} s alone, {statistics.median(loaded):.2f} s with the games: "
        f"**{slowdown:+.0%}** (target: at most +20 %).",
        "",
        "Computer reply lateness (engine task's arrival minus the person's move minus the think time):",
        "",
        "| level | replies | p50 | p95 | max |",
        "|---|---|---|---|---|",
        *(
            f"| {level} | {len(v)} | {percentile(v, 50):.2f} s | {percentile(v, 95):.2f} s | {max(v):.2f} s |"
            for level, v in sorted(late.items())
        ),
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    name = "play-engine-load.md" if args.think == "keep" else "play-engine-load-stress.md"
    if not args.smoke:
        (RESULTS / name).write_text(text)
    return 0


def _finished(game_ids: list[int]) -> int:
    from play.models import MobileGame

    return MobileGame.objects.filter(pk__in=game_ids).exclude(status="open").count()


def computer_levels_restore() -> None:
    """The shipped think times back after a stress run (the ladder as the migration has it)."""
    from play.computer.ladder import LADDER
    from play.models import ComputerLevel

    for number, _label, _settings, think in LADDER:
        ComputerLevel.objects.filter(number=number, active=True).update(think_seconds=think)


def _load(values) -> str:
    return " / ".join(f"{v:.2f}" for v in values)


if __name__ == "__main__":
    sys.exit(main())
