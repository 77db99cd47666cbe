"""A synthetic federation of 100,000 players and 1,000,000 games, measured end to end on PostgreSQL.

    python -m benchmarks.scale [--players 100000] [--tournaments 10000] [--seed 1] [--reuse] [--smoke]

Five measures, each against its target:
  1. the full re-rating of the whole history (ORR, Mchess, PlayChess) by a real Celery worker,
     beside the floor: only reading every game and writing as many result rows;
  2. a 300-player tournament from upload to published report through Redis and the worker;
  3. rating list pages and name search at this size (server time), with their query plans;
  4. GCR over all games;
  5. the worker's peak memory during the full re-rating (all its processes together).

Uses BENCH_DATABASE_URL (default: a federation_scale database on the local server, dropped
and generated again unless --reuse finds it complete) and BENCH_BROKER_URL (default: Redis
database 6 on the local server).

`--smoke` (tests/benchmarks/test_smoke.py): the same five measures at a tiny size: 200 players,
5 tournaments, one re-rating, one 12-player upload, one GCR run; the worker's log goes to a
temporary directory, not benchmarks/results/.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

from benchmarks.pipeline import ROOT, environment, start_worker, stop_worker, wait_for_worker

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/federation_scale"
# This VM's speed varies by up to half from one minute to the next (the same COPY took 4.5 s and
# 7.8 s): the long measures are repeated and the least disturbed run is reported, all are printed.
RERATINGS = 2
GCR_RUNS = 3
RESULTS = ROOT / "benchmarks" / "results"


class TreeMemory(threading.Thread):
    """Polls the resident memory of every process of a process group (the worker and its children)."""

    def __init__(self, group: int, interval: float = 0.05):
        super().__init__(daemon=True)
        self.group, self.interval = group, interval
        self.peak_total = self.peak_single = 0
        self._done = threading.Event()

    def run(self) -> None:
        page = os.sysconf("SC_PAGE_SIZE")
        while not self._done.is_set():
            total = single = 0
            for entry in os.listdir("/proc"):
                if not entry.isdigit():
                    continue
                try:
                    with open(f"/proc/{entry}/stat") as stat:
                        fields = stat.read().rsplit(")", 1)[1].split()
                    if int(fields[2]) != self.group:  # the process group
                        continue
                    with open(f"/proc/{entry}/statm") as statm:
                        resident = int(statm.read().split()[1]) * page
                except (OSError, IndexError, ValueError):
                    continue
                total += resident
                single = max(single, resident)
            self.peak_total = max(self.peak_total, total)
            self.peak_single = max(self.peak_single, single)
            self._done.wait(self.interval)

    def reset(self) -> None:
        self.peak_total = self.peak_single = 0

    def stop(self) -> None:
        self._done.set()
        self.join()


def prepare_database(url: str, args, env: dict) -> tuple[float | None, str]:
    """The federation, generated unless --reuse finds it there; returns the generation time."""
    import psycopg
    from psycopg import sql

    name = url.rsplit("/", 1)[1]
    server = url.rsplit("/", 1)[0] + "/postgres"
    if args.reuse:
        try:
            with psycopg.connect(url) as connection:
                players = connection.execute("SELECT count(*) FROM players_player").fetchone()[0]
                tournaments = connection.execute("SELECT count(*) FROM tournaments_tournament").fetchone()[0]
            if players >= args.players and tournaments >= args.tournaments:
                subprocess.run(
                    [sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True
                )
                return None, "reused"
        except psycopg.OperationalError:
            pass
    with psycopg.connect(server, autocommit=True) as connection:
        connection.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
        connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    began = time.perf_counter()
    result = subprocess.run(  # noqa: S603
        [
            sys.executable,
            "manage.py",
            "generate_federation",
            "--players",
            str(args.players),
            "--tournaments",
            str(args.tournaments),
            "--seed",
            str(args.seed),
        ],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return time.perf_counter() - began, result.stdout.strip()


def vacuum() -> None:
    """What autovacuum does between a federation's busy moments; this machine's server has it off."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")


def replay_logs(path) -> list[str]:
    """The worker's own account of each rating of the whole history (the replay logs its phases)."""
    lines = [line for line in path.read_text(errors="replace").splitlines() if "replayed" in line]
    phases = [line.split("replayed", 1)[1].strip() for line in lines]
    # "10000 events, ...": the whole history, not the small runs of the upload measure.
    return [phase for phase in phases if (count := phase.split(" ", 1)[0]).isdigit() and int(count) >= 1000]


def floor(changes: int) -> tuple[float, float]:
    """Read every game and participant as the re-rating does, and write `changes` result rows into a
    copy of the results table with its indexes (then thrown away): what no rating code can beat."""
    from django.db import connection, transaction

    from ratings.models import RatingChange
    from toolkit.bulk import copy_stream, raw_rows
    from tournaments.models import Game, Participant

    with transaction.atomic():
        began = time.perf_counter()
        games = list(
            raw_rows(
                Game.objects.filter(black__isnull=False).values_list(
                    "tournament_id", "round", "white_id", "black_id", "result", "kind"
                )
            )
        )
        entrants = list(
            raw_rows(Participant.objects.values_list("tournament_id", "player_id", "fide_rating_in_file", "is_guest"))
        )
        read = time.perf_counter() - began
        with connection.cursor() as cursor:
            cursor.execute("CREATE TEMP TABLE floor_changes (LIKE ratings_ratingchange INCLUDING ALL) ON COMMIT DROP")
        # The same writer as the re-rating, into the copy of its table.
        began = time.perf_counter()
        columns = ("player_id", "tournament_id", "system", "games", "details")
        with copy_stream(RatingChange, columns, table="floor_changes") as stream:
            written = 0
            for system in ("orr", "mchess", "playchess"):
                for tournament_id, player_id, *_ in entrants:
                    if written == changes:
                        break
                    stream.write((player_id, tournament_id, system, 0, {}))
                    written += 1
        write = time.perf_counter() - began
        transaction.set_rollback(True)
    del games
    return read, write


def full_rerate(memory: TreeMemory) -> tuple[float, int, int]:
    """The whole history re-rated by the worker; seconds from sending the task to its commit."""
    from ratings.models import RatingChange
    from ratings.tasks import rerate_since
    from tournaments.models import Tournament

    total = Tournament.objects.filter(status__in=["confirmed", "queued", "rated"]).count()
    memory.reset()
    sent_at = datetime.datetime.now(datetime.UTC)
    began = time.perf_counter()
    rerate_since.delay(None)
    while Tournament.objects.filter(rated_at__gte=sent_at).count() < total:
        if time.perf_counter() - began > 1800:
            raise SystemExit("the re-rating did not finish within 30 minutes")
        time.sleep(0.1)
    elapsed = time.perf_counter() - began
    time.sleep(0.5)  # the forked child is gone; the worker's own peak is in
    return elapsed, total, RatingChange.objects.count()


def gcr_time() -> tuple[float, int]:
    from ratings.models import GcrRun
    from ratings.services import gcr_recompute

    began = time.perf_counter()
    gcr_recompute(force=True)
    elapsed = time.perf_counter() - began
    return elapsed, GcrRun.objects.get(pk=1).games


def same_rows_write() -> float:
    """Write the very rows the re-rating wrote, calculation details and engine states included,
    into a copy of their table: what storing its output costs PostgreSQL, rating aside."""
    from django.db import connection, transaction

    with connection.cursor() as cursor:
        raw = cursor.cursor
        with raw.copy("COPY ratings_ratingchange TO STDOUT") as copy:
            blocks = [bytes(block) for block in copy]
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("CREATE TEMP TABLE same_changes (LIKE ratings_ratingchange INCLUDING ALL) ON COMMIT DROP")
            began = time.perf_counter()
            with cursor.cursor.copy("COPY same_changes FROM STDIN") as copy:
                for block in blocks:
                    copy.write(block)
            elapsed = time.perf_counter() - began
        transaction.set_rollback(True)
    return elapsed


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--tournaments", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reuse", action="store_true", help="keep the federation if it is already generated")
    parser.add_argument("--smoke", action="store_true", help="the same code path at a tiny size (tests)")
    args = parser.parse_args(argv)
    reratings, gcr_repeats, upload = RERATINGS, GCR_RUNS, {"runs": 3, "players": 300, "rounds": 9}
    logs = RESULTS
    if args.smoke:
        args.players, args.tournaments = 200, 5
        reratings, gcr_repeats, upload = 1, 1, {"runs": 1, "players": 12, "rounds": 3}
        logs = Path(tempfile.mkdtemp())

    queue = f"bench-{uuid.uuid4().hex[:8]}"
    env = environment(queue)
    env["DATABASE_URL"] = os.environ.get("BENCH_DATABASE_URL", DEFAULT_DB)
    # GCR is measured on its own: the worker must not start it in the middle of another measure.
    env["GCR_DEBOUNCE_SECONDS"] = "86400"
    env["LOG_LEVEL"] = "INFO"  # the replay logs where its time went
    os.environ.update(env)
    logs.mkdir(exist_ok=True)
    generated, generation = prepare_database(env["DATABASE_URL"], args, env)
    load_before = _load()

    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.db import connection

    from benchmarks.lists import measure_pages, query_plans
    from benchmarks.pipeline import measure_uploads
    from players.models import Player
    from tournaments.models import Game

    games = Game.objects.filter(kind="played").count()
    players = Player.objects.count()
    log_path = logs / "scale-worker.log"
    vacuum()
    worker = start_worker(env, log_path, queue, loglevel="INFO")
    memory = TreeMemory(worker.pid)
    memory.start()
    try:
        wait_for_worker(worker, log_path)
        first = None
        if generated is not None:
            # A new federation has no ratings yet: rate it once, so that what is measured is a
            # re-rating, which first rolls back everything the federation holds.
            first, _, _ = full_rerate(memory)
            vacuum()  # what autovacuum does after a run
        runs, peaks = [], []
        for _ in range(reratings):
            elapsed, tournaments, changes = full_rerate(memory)
            runs.append(elapsed)
            peaks.append((memory.peak_total, memory.peak_single))
            vacuum()
        rerate = min(runs)
        peak_total, peak_single = max(peaks)
        read, write = floor(changes)
        same_write = same_rows_write()
        phases = replay_logs(log_path)
        uploads = measure_uploads(**upload, start=datetime.date(2026, 11, 14))
    finally:
        memory.stop()
        stop_worker(worker)
    vacuum()
    pages = measure_pages()
    plans = query_plans()
    gcr_runs = [gcr_time() for _ in range(gcr_repeats)]
    gcr_seconds, gcr_games = min(gcr_runs)
    rated = connection.cursor()
    rated.execute("SELECT count(*) FROM ratings_playerrating WHERE system = 'orr' AND rating IS NOT NULL")
    orr_rated = rated.fetchone()[0]

    floor_total = read + write
    gib = 1024**3
    upload_seconds = max(u[-1] for u in uploads)
    # (measure, result, ratio, goal for the ratio): every measure with a goal as a ratio beside its
    # goal, so that a noisy machine's seconds are read against what was measured in the same run.
    rows = [
        (
            f"1. full re-rating, ORR + Mchess + PlayChess (worker, best of {reratings})",
            f"{rerate:.1f} s",
            rerate / 60,
            "≤ 1 (of 60 s)",
        ),
        ("1. floor: read every game and participant", f"{read:.1f} s", None, ""),
        (f"1. floor: write {changes:,} result rows", f"{write:.1f} s", None, ""),
        ("1. re-rating / floor", f"{rerate:.1f} s / {floor_total:.1f} s", rerate / floor_total, "≤ 3"),
        ("1. for comparison: write the same rows, details included", f"{same_write:.1f} s", None, ""),
        ("1. re-rating / (floor read + that write)", "", rerate / (read + same_write), ""),
        (
            f"2. {upload['players']} players, {upload['rounds']} rounds: upload to published report "
            f"(worst of {upload['runs']})",
            f"{upload_seconds * 1000:.0f} ms",
            upload_seconds / 5,
            "≤ 1 (of 5000 ms)",
        ),
    ]
    for label, elapsed in pages:
        rows.append((f"3. {label}", f"{elapsed * 1000:.0f} ms", elapsed / 0.1, "≤ 1 (of 100 ms)"))
    for label, used in (
        ("3. list page plan uses rating_list_idx", plans["list page"]),
        ("3. name search plan uses the trigram indexes", plans["name search"]),
    ):
        rows.append((label, "yes" if used else "no", None, "yes"))
    rows.append(
        (
            f"4. GCR over {gcr_games:,} games (best of {gcr_repeats})",
            f"{gcr_seconds:.1f} s",
            gcr_seconds / 10,
            "≤ 1 (of 10 s)",
        )
    )
    rows.append(
        (
            "5. worker peak memory during 1 (all its processes)",
            f"{peak_total / gib:.2f} GiB",
            peak_total / gib,
            "≤ 1 (of 1 GiB)",
        )
    )
    rows.append(("5. largest single process", f"{peak_single / gib:.2f} GiB", None, ""))

    print(f"# Scale benchmark: {players:,} players, {tournaments:,} tournaments, {games:,} played games")
    print()
    python = platform.python_version()
    print(f"Machine: {_cpu()}, {os.cpu_count()} cores, {_memory()} RAM; Python {python}; {_server(connection)}.")
    if generated is not None:
        print(f"Generated in {generated:.0f} s: {generation}")
    print(f"ORR-rated players after the re-rating: {orr_rated:,}.")
    if first is not None:
        print(f"First rating of the generated history (from no ratings at all): {first:.1f} s.")
    print("Full re-ratings: " + ", ".join(f"{run:.1f} s" for run in runs) + "; GCR: "
          + ", ".join(f"{run:.1f} s" for run, _ in gcr_runs) + ".")  # fmt: skip
    print("The worker's log of each rating of the whole history:")
    for phase in phases:
        print(f"- replayed {phase}")
    print()
    print(f"Load average (1, 5, 15 min) before / after the measures: {load_before} / {_load()}.")
    print()
    print("| measure | result | ratio | goal | met |")
    print("|---|---|---|---|---|")
    for label, value, ratio, goal in rows:
        shown = "" if ratio is None else f"{ratio:.2f}"
        print(f"| {label} | {value} | {shown} | {goal} | {_met(value, ratio, goal)} |")
    print()
    print("Upload runs (read + preview, confirm, queue + rating run, report page, total):")
    for number, row in enumerate(uploads, start=1):
        print(f"- run {number}: " + ", ".join(f"{value * 1000:.0f} ms" for value in row))
    return 0


def _met(value: str, ratio: float | None, goal: str) -> str:
    """'yes' or '**no**' for a measure with a goal ("≤ x" for a ratio, "yes" for a plan), else ''."""
    if goal == "yes":
        return "yes" if value == "yes" else "**no**"
    if ratio is None or not goal:
        return ""
    limit = float(goal.split()[1])
    return "yes" if ratio <= limit else "**no**"


def _load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f}, {five:.2f}, {fifteen:.2f}"


def _cpu() -> str:
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _memory() -> str:
    try:
        with open("/proc/meminfo") as info:
            kib = int(info.readline().split()[1])
        return f"{kib / 1024**2:.0f} GiB"
    except (OSError, ValueError, IndexError):
        return "?"


def _server(connection) -> str:
    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version")
        return f"PostgreSQL {cursor.fetchone()[0].split()[0]}"


if __name__ == "__main__":
    sys.exit(main())
