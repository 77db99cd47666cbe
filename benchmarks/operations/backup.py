"""Backup and restore of a large federation, as an operator meets them.

    python -m benchmarks.operations.backup [--players 100000] [--tournaments 10000] [--smoke]

Uses BENCH_DATABASE_URL (default: a federation_backup_bench database on the local server, generated
and rated by `generate_federation --rate` when it has no tournaments yet; kept for the next run).
Measures `manage.py backup` (time, size), `manage.py restore` into a new empty database
<name>_restored (created, then dropped), `manage.py rerate` there, and checks that the ORR, Mchess
and PlayChess lists of the restored and re-rated database equal the original's. No target is set in
the issue: the numbers go into docs/operators/backups.md. `--smoke` (tests/benchmarks/test_smoke.py):
the same steps for a federation of 200 players and 5 tournaments.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
from psycopg import sql

from benchmarks.pipeline import ROOT

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/federation_backup_bench"
SYSTEMS = ("orr", "mchess", "playchess")


def manage(*arguments: str, url: str, folder: Path) -> tuple[float, str]:
    environment = {
        **{key: value for key, value in os.environ.items() if not key.startswith(("CELERY", "CACHE"))},
        "DJANGO_SETTINGS_MODULE": "federation.settings",
        "DATABASE_URL": url,
        "MEDIA_ROOT": str(folder / "media"),
        "PRIVATE_ROOT": str(folder / "private"),
        "DEV_SCHEDULER": "false",
        "LOG_LEVEL": "WARNING",
    }
    began = time.perf_counter()
    answer = subprocess.run(  # noqa: S603 - our own interpreter and manage.py
        [sys.executable, "manage.py", *arguments], cwd=ROOT, env=environment, capture_output=True, text=True
    )
    if answer.returncode != 0:
        sys.exit(f"manage.py {' '.join(arguments)} failed:\n{answer.stderr[-3000:]}")
    return time.perf_counter() - began, answer.stdout


def admin(url: str):
    parts = urlsplit(url)
    return psycopg.connect(urlunsplit(parts._replace(path="/postgres")), autocommit=True)


def tournaments(url: str) -> int:
    try:
        with psycopg.connect(url) as database:
            return database.execute("SELECT count(*) FROM tournaments_tournament").fetchone()[0]
    except (psycopg.OperationalError, psycopg.errors.UndefinedTable):
        return 0


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--tournaments", type=int, default=10_000)
    parser.add_argument("--smoke", action="store_true", help="the same code path at a tiny size (tests)")
    options = parser.parse_args()
    if options.smoke:
        options.players, options.tournaments = 200, 5
    url = os.environ.get("BENCH_DATABASE_URL", DEFAULT_DB)
    name = urlsplit(url).path.lstrip("/")
    restored_name = f"{name}_restored"
    restored_url = urlunsplit(urlsplit(url)._replace(path=f"/{restored_name}"))
    work = Path(tempfile.mkdtemp(prefix="federation-backup-bench-"))

    if not tournaments(url):
        if not options.smoke:  # smoke: the test's own fresh database, already migrated (a no-op below)
            with admin(url) as server:
                server.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
                server.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        manage("migrate", "-v0", url=url, folder=work / "site")
        seconds, _ = manage(
            "generate_federation",
            "--players",
            str(options.players),
            "--tournaments",
            str(options.tournaments),
            "--rate",
            url=url,
            folder=work / "site",
        )
        print(f"(generated and rated the federation in {seconds:.0f} s)\n", file=sys.stderr)
    with psycopg.connect(url) as database:
        size, games = database.execute(
            "SELECT pg_database_size(current_database()), (SELECT count(*) FROM tournaments_game)"
        ).fetchone()

    backup_seconds, _ = manage("backup", str(work / "backups"), url=url, folder=work / "site")
    (folder,) = (work / "backups").glob("backup-*")
    backup_bytes = sum(path.stat().st_size for path in folder.iterdir())
    with admin(url) as server:
        server.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(restored_name)))
        server.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(restored_name)))
    try:
        restore_seconds, _ = manage("restore", str(work / "backups"), url=restored_url, folder=work / "restored")
        rerate_seconds, _ = manage("rerate", url=restored_url, folder=work / "restored")
        same = {}
        for system in SYSTEMS:
            _, original = manage("export_list", "--system", system, url=url, folder=work / "site")
            _, restored = manage("export_list", "--system", system, url=restored_url, folder=work / "restored")
            same[system] = (original == restored, len(original.splitlines()) - 1)
    finally:
        with admin(url) as server:
            server.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(restored_name)))
        shutil.rmtree(work, ignore_errors=True)

    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
    print(f"# Backup and restore ({platform.node()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f})\n")
    print(f"Database {name}: {size / 1e6:,.0f} MB, {games:,} games.\n")
    print("| step | seconds |\n|---|---|")
    print(f"| backup ({backup_bytes / 1e6:,.1f} MB) | {backup_seconds:.1f} |")
    print(f"| restore into a new database | {restore_seconds:.1f} |")
    print(f"| full re-rate of the restored database | {rerate_seconds:.1f} |")
    print(f"\nPeak memory of the largest child process (the re-rate, as a rule): {peak} MB.")
    for system, (equal, rows) in same.items():
        print(f"- {system}: {rows:,} rows, {'the same as the original' if equal else 'DIFFERENT from the original'}")
    if not all(equal for equal, _ in same.values()):
        sys.exit(1)


if __name__ == "__main__":
    main()
