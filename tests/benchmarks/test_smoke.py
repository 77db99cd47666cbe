"""Every benchmark starts and runs its own code path at a tiny size: a benchmark that cannot start
fails here, not on the day someone measures (issue 28: `make bench-load` stopped before measuring
anything and nobody knew).

The contract, for every module under benchmarks/ that can be run (`if __name__ == "__main__"`):

    python -m benchmarks.<module> --smoke

runs the same code as the real measurement at a tiny size, in seconds; it exits 0 when everything
ran and non-zero when anything failed. It writes nothing under benchmarks/results/ (worker and
server logs go to a temporary directory). A new benchmark is found here by itself: without --smoke
it fails this test.

Two kinds of module:
- most get the DATABASE_URL of their own copy of one migrated SQLite file and no CACHE_URL or
  CELERY_BROKER_URL (tasks run eagerly, the cache is local);
- those in SERVICES need PostgreSQL and Redis as their real runs do (Celery workers, gunicorn,
  pg_dump, EXPLAIN): when the test run itself is on PostgreSQL + Redis (CI), each gets a fresh
  PostgreSQL database of its own as BENCH_DATABASE_URL (CREATE DATABASE ... TEMPLATE of one
  migrated once for the session; both dropped afterwards; scale, backup and profile generate a tiny
  federation in it) and the test process's Redis databases as BENCH_BROKER_URL / BENCH_CACHE_URL
  (already this pytest-xdist worker's own: federation/settings_test.py).
What a benchmark needs (NEEDS: PostgreSQL and Redis, Stockfish) is its case's `needs` marker
(tests/optional.py): without it the case is skipped with the package to install.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCHMARKS = ROOT / "benchmarks"
SECONDS = 120  # the most one smoke run may take before it counts as hung

# Benchmarks that do not honour --smoke yet: each still runs here and must fail with argparse's
# "unrecognized arguments" until it gets its smoke mode; strict, so the day one passes the entry
# has to go.
PENDING = {
    # Its reduced run (five hosts' processes, a killed worker host) is already a test of its own,
    # tests/operations/test_multihost.py, about a minute: a second run here would double that.
    "benchmarks.multihost.layout": "five hosts' processes on PostgreSQL/Redis (see tests/operations/test_multihost.py)",
}


# Benchmarks whose smoke mode needs PostgreSQL and Redis, as their real runs do: when the test run
# itself is on PostgreSQL + Redis (DATABASE_URL, CELERY_BROKER_URL, CACHE_URL: CI), each gets a
# fresh PostgreSQL database of its own (a copy of one migrated once) and the test process's own Redis
# databases as BENCH_DATABASE_URL / BENCH_BROKER_URL / BENCH_CACHE_URL.
SERVICES = {
    "benchmarks.channels",
    "benchmarks.operations.backup",
    "benchmarks.pipeline",
    "benchmarks.play_engine_load",
    "benchmarks.play_move",
    "benchmarks.play_sweep",
    "benchmarks.play_throughput",
    "benchmarks.profile",
    "benchmarks.scale",
}
# Benchmarks that play with Stockfish (PLAY_ENGINE_PATH, passed on to them with the environment).
ENGINE = {"benchmarks.play_engine", "benchmarks.play_engine_load"}


def needs(name: str) -> tuple[str, ...]:
    """The optional tools a benchmark's smoke run needs (tests/optional.py)."""
    return (("postgresql", "redis") if name in SERVICES else ()) + (("stockfish",) if name in ENGINE else ())


def runnable() -> list[str]:
    """Every module of benchmarks/ that can be run, as `python -m` names it."""
    found = []
    for path in sorted(BENCHMARKS.rglob("*.py")):
        if '__name__ == "__main__"' in path.read_text(encoding="utf-8"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            found.append(".".join(parts))
    return found


def cases():
    for name in runnable():
        marks = [pytest.mark.xfail(strict=True, reason=f"no --smoke yet: {PENDING[name]}")] if name in PENDING else []
        if needs(name):
            marks.append(pytest.mark.needs(*needs(name)))
        yield pytest.param(name, marks=marks, id=name)


def _server(url: str) -> str:
    return url.rsplit("/", 1)[0] + "/postgres"


def _drop(server: str, name: str) -> None:
    import psycopg
    from psycopg import sql

    with psycopg.connect(server, autocommit=True) as connection:
        connection.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


@pytest.fixture(scope="session")
def migrated_postgres():
    """One PostgreSQL database migrated once for the run (dropped after it); each benchmark that
    needs PostgreSQL gets its own copy (CREATE DATABASE ... TEMPLATE)."""
    import psycopg
    from psycopg import sql

    server = _server(os.environ["DATABASE_URL"])
    name = f"federation_smoke_{uuid.uuid4().hex[:10]}_t"
    with psycopg.connect(server, autocommit=True) as connection:
        connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        url = server.rsplit("/", 1)[0] + "/" + name
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": "federation.settings", "DATABASE_URL": url}
        migrate = [sys.executable, "manage.py", "migrate", "--noinput", "-v0"]
        subprocess.run(migrate, cwd=ROOT, env=env, check=True, capture_output=True)  # noqa: S603
        yield server, name
    finally:
        _drop(server, name)


@pytest.fixture
def services(request, tmp_path) -> dict:
    """BENCH_* variables for a benchmark that needs PostgreSQL and Redis: a fresh database of its own
    and the test process's Redis databases (already this xdist worker's own, federation/settings_test)."""
    import psycopg
    from psycopg import sql

    server, template = request.getfixturevalue("migrated_postgres")
    name = f"federation_smoke_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(server, autocommit=True) as connection:
        connection.execute(
            sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(sql.Identifier(name), sql.Identifier(template))
        )
    try:
        yield {
            "BENCH_DATABASE_URL": server.rsplit("/", 1)[0] + "/" + name,
            "BENCH_BROKER_URL": os.environ["CELERY_BROKER_URL"],
            "BENCH_CACHE_URL": os.environ["CACHE_URL"],
        }
    finally:
        _drop(server, name)


def test_it_finds_every_benchmark_and_knows_no_benchmark_that_is_gone():
    found = set(runnable())
    assert {"benchmarks.engines", "benchmarks.load", "benchmarks.operations.fide_list"} <= found
    assert set(PENDING) <= found, f"PENDING names modules that are gone: {set(PENDING) - found}"
    assert found >= SERVICES, f"SERVICES names modules that are gone: {SERVICES - found}"
    assert found >= ENGINE, f"ENGINE names modules that are gone: {ENGINE - found}"
    assert not SERVICES & set(PENDING), f"both pending and given services: {SERVICES & set(PENDING)}"


@pytest.mark.parametrize("module", list(cases()))
def test_it_runs_each_benchmark_in_smoke_mode(module, migrated_sqlite_template, tmp_path, request):
    bench = request.getfixturevalue("services") if module in SERVICES else {}
    database = tmp_path / "db.sqlite3"
    shutil.copyfile(migrated_sqlite_template, database)  # migrated once for the run (tests/conftest.py)
    # Nothing of the test run's own: its Redis cache and broker stay out of the smoke runs (the tasks
    # run eagerly, the cache is the process's or, for bench-load, files of its own). No settings
    # module named either: `make bench` names none, so a benchmark must find its settings itself.
    own = ("CACHE_URL", "CELERY_BROKER_URL", "DJANGO_SETTINGS_MODULE")
    outside = {name: value for name, value in os.environ.items() if name not in own}
    env = {
        **outside,
        "DATABASE_URL": f"sqlite:///{database}",
        "LOG_LEVEL": "WARNING",
        "PYTHONPATH": str(ROOT),
        **bench,
    }
    began = time.monotonic()
    result = subprocess.run(  # noqa: S603  (this interpreter, a module of the repository)
        [sys.executable, "-m", module, "--smoke"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=SECONDS,
    )
    took = time.monotonic() - began
    assert result.returncode == 0, (
        f"python -m {module} --smoke exited {result.returncode} after {took:.1f} s:\n"
        f"{result.stdout[-2000:]}\n{result.stderr[-3000:]}"
    )
    assert result.stdout.strip(), f"python -m {module} --smoke printed nothing"
