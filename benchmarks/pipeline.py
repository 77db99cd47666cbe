"""Upload of a 300-player tournament to its published report, through Redis and a real worker.

    python -m benchmarks.pipeline [--players 300] [--rounds 9] [--runs 3] [--smoke]

Uses PostgreSQL and Redis: DATABASE_URL and CELERY_BROKER_URL when set, otherwise the local
services at 127.0.0.1 with a database of its own (federation_bench, created and migrated).
A Celery worker is started for the run and stopped after it. Target: under 5 s. `--smoke`
(tests/benchmarks/test_smoke.py): the same path for one 12-player, 3-round tournament; the
worker's log goes to a temporary directory, not benchmarks/results/.
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/federation_bench"
DEFAULT_BROKER = "redis://127.0.0.1:6379/6"


def environment(queue: str) -> dict:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "federation.settings",
        "DATABASE_URL": os.environ.get("BENCH_DATABASE_URL", DEFAULT_DB),
        "CELERY_BROKER_URL": os.environ.get("BENCH_BROKER_URL", DEFAULT_BROKER),
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "CELERY_TASK_DEFAULT_QUEUE": queue,
        "GCR_DEBOUNCE_SECONDS": "1",
        "DATABASE_CONN_MAX_AGE": "60",
        "LOG_LEVEL": "WARNING",
        # As in production: with DEBUG on, Django keeps every query and templates carry debug data.
        "DEBUG": "false",
    }
    return env


def create_database(url: str) -> None:
    """Create the benchmark's own database if it does not exist yet."""
    import psycopg
    from psycopg import sql

    name = url.rsplit("/", 1)[1]
    server = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(server, autocommit=True) as connection:
        if connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone() is None:
            connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def tournament_file(seed: int, players: int, rounds: int, *, start: datetime.date) -> bytes:
    from tournaments.demo import synthetic
    from tournaments.importers.trf import format_player_line

    rng = random.Random(seed)
    strengths = [rng.gauss(1500, 350) for _ in range(players)]
    cells: dict[int, list] = {i: [] for i in range(players)}
    for _, white, black, result in synthetic.swiss(rng, strengths, rounds):
        if black is None:
            cells[white].append(("0000", "-", "U"))
            continue
        codes = {"1-0": ("1", "0"), "1/2-1/2": ("=", "="), "0-1": ("0", "1")}[result]
        cells[white].append((black + 1, "w", codes[0]))
        cells[black].append((white + 1, "b", codes[1]))
    end = start + datetime.timedelta(days=min(rounds, 28) - 1)
    lines = [f"012 Benchmark open {seed}", "022 Kazan", f"042 {start:%Y/%m/%d}", f"052 {end:%Y/%m/%d}"]
    for i in range(players):
        rating = max(0, round(strengths[i])) if i % 3 else ""
        lines.append(
            format_player_line(
                i + 1,
                f"Bench{seed}-{i:03},Player",
                rating=rating,
                birth=f"{1950 + i % 60}/0{1 + i % 9}/1{i % 10}",
                rounds=cells[i],
            )
        )
    return "\n".join(lines).encode()


def start_worker(
    env: dict, log_path: Path, queue: str, loglevel: str = "WARNING", concurrency: int = 1
) -> subprocess.Popen:
    """A Celery worker as `make worker` runs it (prefork, one child unless told), on a queue of its own."""
    log = open(log_path, "wb")  # noqa: SIM115 - closed by stop_worker
    worker = subprocess.Popen(  # noqa: S603
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "federation",
            "worker",
            f"--concurrency={concurrency}",
            "-Q",
            queue,
            f"--loglevel={loglevel}",
            "--without-heartbeat",
            "--without-mingle",
            "--without-gossip",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    worker.log = log
    return worker


def wait_for_worker(worker: subprocess.Popen, log_path: Path) -> None:
    from federation.celery import app

    deadline = time.monotonic() + 60
    while not app.control.ping(timeout=0.5):
        if time.monotonic() > deadline or worker.poll() is not None:
            raise SystemExit(f"the worker did not start (see {log_path})")


def stop_worker(worker: subprocess.Popen) -> None:
    os.killpg(worker.pid, signal.SIGTERM)
    worker.wait(timeout=60)
    worker.log.close()


def bench_arbiter():
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group, Permission

    from accounts.roles import ARBITERS, ensure_roles

    ensure_roles(Group, Permission)
    arbiter, _ = get_user_model().objects.get_or_create(username="bench-arbiter")
    arbiter.groups.add(Group.objects.get(name=ARBITERS))
    return arbiter


def measure_uploads(*, runs: int, players: int, rounds: int, start: datetime.date) -> list[tuple]:
    """Upload, confirm and wait for the rated report of `runs` tournaments; the phases in seconds."""
    from django.test import Client

    from tournaments import services
    from tournaments.models import Tournament

    arbiter = bench_arbiter()
    client = Client()
    rows = []
    for run in range(runs):
        seed = int(time.time() * 1000) % 1_000_000 + run
        data = tournament_file(seed, players, rounds, start=start)
        began = time.perf_counter()
        upload = services.upload_create(user=arbiter, file_name=f"bench-{seed}.trf", data=data)
        previewed = time.perf_counter()
        file = upload.preview["file"]
        details = services.TournamentDetails(
            name=file["name"],
            start_date=datetime.date.fromisoformat(file["start_date"]),
            end_date=datetime.date.fromisoformat(file["end_date"]),
            rounds=file["rounds"],
        )
        tournament = services.tournament_confirm(upload=upload, user=arbiter, details=details)
        confirmed = time.perf_counter()
        while Tournament.objects.values_list("status", flat=True).get(pk=tournament.pk) != "rated":
            if time.perf_counter() - began > 120:
                raise SystemExit("the tournament was not rated within 120 s")
            time.sleep(0.02)
        rated = time.perf_counter()
        response = client.get(f"/tournaments/{tournament.pk}/", HTTP_HOST="127.0.0.1")
        if response.status_code != 200:
            raise SystemExit(f"the report page answered {response.status_code}")
        published = time.perf_counter()
        rows.append((previewed - began, confirmed - previewed, rated - confirmed, published - rated, published - began))
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--smoke", action="store_true", help="the same code path at a tiny size (tests)")
    args = parser.parse_args(argv)
    if args.smoke:
        args.players, args.rounds, args.runs = 12, 3, 1

    queue = f"bench-{uuid.uuid4().hex[:8]}"
    env = environment(queue)
    os.environ.update(env)
    create_database(env["DATABASE_URL"])
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    results = Path(tempfile.mkdtemp()) if args.smoke else ROOT / "benchmarks" / "results"
    log_path = results / "pipeline-worker.log"
    worker = start_worker(env, log_path, queue)
    try:
        sys.path.insert(0, str(ROOT))
        import django

        django.setup()
        wait_for_worker(worker, log_path)
        rows = measure_uploads(
            runs=args.runs, players=args.players, rounds=args.rounds, start=datetime.date(2026, 10, 1)
        )
    finally:
        stop_worker(worker)
    print(f"# Upload to published report: {args.players} players, {args.rounds} rounds, PostgreSQL + Redis + worker")
    print()
    print("| run | read + preview | confirm | queue + rating run | report page | total | target | met |")
    print("|---|---|---|---|---|---|---|---|")
    for number, row in enumerate(rows, start=1):
        cells = " | ".join(f"{value * 1000:.0f} ms" for value in row)
        print(f"| {number} | {cells} | < 5000 ms | {'yes' if row[-1] < 5 else '**no**'} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
