"""A newcomer's first minutes (issue 35): `make run` on a fresh clone to its first page, and the demo.

    python -m benchmarks.operations.setup [--runs 3] [--smoke]

Each run clones this repository (its committed HEAD) into an empty temporary folder and, with no
environment of the project's own (the SQLite file, eager tasks, the local cache: what a newcomer
has), starts `make run PORT=<a free port>` in its own process group, polls the home page until it
answers 200 and stops the group (SIGINT, as Ctrl-C would). The time to that first page includes
making the virtualenv from pip's cache (warm after the first run: each run installs again); the
lines make prints split it into install, migrate, admin, demo and the server's start. Then the
demo alone: `manage.py load_demo` on an empty, migrated SQLite database with the clone's own
virtualenv, wall and CPU time. Best and worst of the runs, with the machine's load average (1 min)
before and after each, as a Markdown report (`make bench-setup` writes benchmarks/results/setup.md).
Goals: the first page within 60 s, the demo within 20 s.

--smoke (tests/benchmarks/test_smoke.py): the same code at a tiny size, in seconds. A fresh clone;
the demo without its two large example files (the children's season and the mobile games) on the
migrated DATABASE_URL it is given; then `make run` with this interpreter's virtualenv (no install)
on that database, whose demo is loaded already, to its first page and stopped.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIRST_PAGE_SECONDS = 600  # the most a run may take to serve before it counts as failed
# What `make run` prints as it starts each step (its headers, "== 01:53:03 UTC Admin account"), in
# order: the phases.
STEPS = (("migrate", " Database: migrating"), ("admin", " Admin account"), ("demo", " Demo federation"))
SERVER = " Serving http://"
STARTING = "The site is running at http://"  # runserver's closing block, printed once the port is bound
# The project's own settings: a newcomer has none of them (the defaults: SQLite, eager tasks).
PROJECT_VARIABLES = re.compile(
    r"(DATABASE_URL|CACHE_URL|CELERY_.*|DJANGO_.*|DEBUG|SITE_URL|PAGE_CACHE_.*|LOG_.*|PYTHONPATH|VIRTUAL_ENV|"
    r"DEV_SCHEDULER|ADMIN_PASSWORD|DEMO_PLAYER_PASSWORD|BENCH_.*|PYTEST_.*)"
)


def newcomer_environment(**extra: str) -> dict:
    env = {name: value for name, value in os.environ.items() if not PROJECT_VARIABLES.fullmatch(name)}
    # Unbuffered, so that each step's lines (and runserver's closing block) reach
    # the pipe when they are printed, as they reach a terminal.
    return {**env, "PYTHONUNBUFFERED": "1", **extra}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def load() -> float:
    return os.getloadavg()[0]


def clone(folder: Path) -> Path:
    """A fresh clone of this repository's committed HEAD (a local clone: seconds)."""
    target = folder / "clone"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(target)], check=True)  # noqa: S603, S607
    return target


@dataclass
class FirstPage:
    seconds: float
    phases: dict[str, float] = field(default_factory=dict)
    load: tuple[float, float] = (0.0, 0.0)
    log: str = ""


def first_page(checkout: Path, port: int, *, make_args: tuple[str, ...] = (), env: dict | None = None) -> FirstPage:
    """`make run PORT=port` in `checkout` until its home page answers 200, then its process group stopped."""
    env = env or newcomer_environment()
    log_path = checkout.parent / "make-run.log"
    lines: list[tuple[float, str]] = []
    before = load()
    began = time.monotonic()
    make = subprocess.Popen(  # noqa: S603
        ["make", *make_args, "run", f"PORT={port}"],  # noqa: S607
        cwd=checkout,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,  # its own process group: make, manage.py and runserver's child, stopped together
    )

    def read():
        with log_path.open("w") as log:
            for line in make.stdout:
                lines.append((time.monotonic() - began, line))
                log.write(line)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        served = _poll(f"http://127.0.0.1:{port}/", make, began, log_path, lines)
    finally:
        _stop(make)
        reader.join(timeout=10)
    return FirstPage(served, _phases(lines, served), (before, load()), log_path.read_text())


def _poll(url: str, make: subprocess.Popen, began: float, log_path: Path, lines: list) -> float:
    """Polled once make run's server says it starts: on a shared machine another process may take
    the free port meanwhile, and its answer must not count as make run's first page."""
    while time.monotonic() - began < FIRST_PAGE_SECONDS:
        if make.poll() is not None:
            raise RuntimeError(f"make run ended ({make.returncode}) before serving: see {log_path}")
        if not any(STARTING in line for _t, line in lines):
            time.sleep(0.1)
            continue
        try:
            with urllib.request.urlopen(url, timeout=5) as response:  # noqa: S310 - our own local server
                if response.status == 200:
                    return time.monotonic() - began
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.2)
    raise RuntimeError(f"no page within {FIRST_PAGE_SECONDS} s")


def _stop(process: subprocess.Popen) -> None:
    """Ctrl-C to the whole group, as in a terminal; then SIGTERM, then SIGKILL for what is left."""
    for sig, wait in ((signal.SIGINT, 15), (signal.SIGTERM, 10), (signal.SIGKILL, 10)):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            return
        try:
            process.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            continue
        try:  # make is gone; runserver's child may still be leaving
            os.killpg(process.pid, 0)
        except ProcessLookupError:
            return
        time.sleep(1)


def _phases(lines: list[tuple[float, str]], served: float) -> dict[str, float]:
    """Seconds of each step, from when make echoed its command to the next one's (best effort: a
    step make did not echo is left out)."""
    marks = [("install", 0.0)]
    for name, command in STEPS:
        at = next((t for t, line in lines if command in line), None)
        if at is not None:
            marks.append((name, at))
    at = next((t for t, line in lines if SERVER in line), None)
    if at is not None:
        marks.append(("server start", at))
    marks.append(("", served))
    return {name: round(marks[i + 1][1] - start, 1) for i, (name, start) in enumerate(marks[:-1])}


@dataclass
class Demo:
    wall: float
    cpu: float
    load: tuple[float, float]
    output: str


def demo(checkout: Path, python: str, database: str, *, migrate: bool = True, examples: Path | None = None) -> Demo:
    """`manage.py load_demo` on the empty database `database` (migrated first, not timed)."""
    env = newcomer_environment(DATABASE_URL=database)
    manage = [python, "manage.py"]
    if migrate:
        subprocess.run([*manage, "migrate", "--noinput", "-v0"], cwd=checkout, env=env, check=True)  # noqa: S603
    command = [*manage, "load_demo", *(["--examples", str(examples)] if examples else [])]
    before, cpu = load(), _children_cpu()
    began = time.monotonic()
    done = subprocess.run(command, cwd=checkout, env=env, capture_output=True, text=True)  # noqa: S603
    wall = time.monotonic() - began
    if done.returncode != 0 or "tournaments rated" not in done.stdout:
        raise RuntimeError(f"load_demo failed ({done.returncode}):\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}")
    return Demo(wall, _children_cpu() - cpu, (before, load()), done.stdout)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def measure(runs: int) -> tuple[list[FirstPage], list[Demo]]:
    pages, demos = [], []
    for run in range(runs):
        with tempfile.TemporaryDirectory(prefix="bench-setup-") as folder:
            checkout = clone(Path(folder))
            page = first_page(checkout, free_port())
            pages.append(page)
            print(f"<!-- run {run + 1}: first page {page.seconds:.1f} s {page.phases} -->", flush=True)
            database = f"sqlite:///{Path(folder) / 'demo.sqlite3'}"
            shown = demo(checkout, str(checkout / ".venv" / "bin" / "python"), database)
            demos.append(shown)
            print(f"<!-- run {run + 1}: demo {shown.wall:.1f} s, {shown.cpu:.1f} s CPU -->", flush=True)
    return pages, demos


def smoke() -> tuple[list[FirstPage], list[Demo]]:
    database = os.environ.get("DATABASE_URL", "")
    if not database.startswith("sqlite:///"):
        raise SystemExit("--smoke needs the migrated SQLite DATABASE_URL it is given (tests/benchmarks/test_smoke.py)")
    with tempfile.TemporaryDirectory(prefix="bench-setup-") as folder:
        checkout = clone(Path(folder))
        if (checkout / ".venv").exists() or (checkout / "db.sqlite3").exists():
            raise RuntimeError("the clone is not fresh")
        none = Path(folder) / "no-examples"
        none.mkdir()
        shown = demo(checkout, sys.executable, database, migrate=False, examples=none)
        # This interpreter's virtualenv, taken as made (-o: not installed again into it), and the
        # database whose demo is loaded now: make run's own steps, then the server.
        venv = sys.prefix
        env = newcomer_environment(DATABASE_URL=database, LOG_LEVEL="WARNING")
        page = first_page(checkout, free_port(), make_args=(f"VENV={venv}", "-o", f"{venv}/.runtime"), env=env)
    return [page], [shown]


def report(pages: list[FirstPage], demos: list[Demo], *, smoke_run: bool) -> str:
    def span(values: list[float]) -> str:
        return f"{min(values):.1f} s" if len(values) == 1 else f"{min(values):.1f} s / {max(values):.1f} s"

    def loads(pairs) -> str:
        return ", ".join(f"{a:.1f}→{b:.1f}" for a, b in pairs)

    title = "smoke: no install, a reduced demo" if smoke_run else f"{len(pages)} fresh clones"
    out = [
        f"# A newcomer's first minutes: `make run` to its first page, and the demo ({title})",
        "",
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} cores, "
        f"Python {sys.version.split()[0]}.",
        "",
        "| measure | best / worst | goal | load average (1 min) before→after each run |",
        "|---|---:|---|---|",
        f"| `make run` on a fresh clone to its first page | {span([p.seconds for p in pages])} | ≤ 60 s | "
        f"{loads(p.load for p in pages)} |",
        f"| `manage.py load_demo` on an empty SQLite database, wall | {span([d.wall for d in demos])} | ≤ 20 s | "
        f"{loads(d.load for d in demos)} |",
        f"| the same, CPU (user + system) | {span([d.cpu for d in demos])} | | |",
        "",
        "Where each run's first page went (seconds from `make run`, split at make run's step headers):",
        "",
    ]
    names = list(dict.fromkeys(name for p in pages for name in p.phases))
    out += ["| run | " + " | ".join(names) + " | first page |", "|---|" + "---:|" * (len(names) + 1)]
    for number, page in enumerate(pages, start=1):
        cells = " | ".join(f"{page.phases[n]:.1f}" if n in page.phases else "—" for n in names)
        out.append(f"| {number} | {cells} | {page.seconds:.1f} |")
    return "\n".join(out)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args(argv)
    pages, demos = smoke() if args.smoke else measure(args.runs)
    print(report(pages, demos, smoke_run=args.smoke))
    return 0


if __name__ == "__main__":
    sys.exit(main())
