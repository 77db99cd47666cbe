"""Load: 50 concurrent clients against gunicorn on a generated federation, without and with the
page cache.

    python -m benchmarks.load [--players 20000] [--tournaments 2000] [--clients 50] [--seconds 30]

Uses BENCH_DATABASE_URL (default: a federation_load database on the local server; generated with
generate_federation and rated if it holds fewer players or tournaments than asked, else reused)
and BENCH_CACHE_URL for the shared Redis cache (default redis://127.0.0.1:6379/13, emptied before
each phase). Gunicorn runs with federation/gunicorn.conf.py on a free loopback port; the clients
are threads of this process, each with its own keep-alive connection, for a fixed time. Only
loopback traffic; it stops by itself.

Two ways of sending. "As fast as answered": each client sends its next request when the last is
answered; that measures the most the server does. With 50 such clients the mean latency is
50 / throughput (Little's law): 200 requests/s means 250 ms on average, whatever the server. So
the target is measured "paced": the 50 clients send 200 requests/s in all on a fixed schedule, and
each latency counts from the scheduled moment (a late answer delays the next request and counts
against it).

The mix, drawn with a fixed seed from the database: rating list pages of every system with
filters, sorting, pages and published months; player pages; the API's lists and player answers.
Players are drawn with a popularity falling with their rank (Zipf), as on a real site: the top of
the list is opened far more often than the tail. Target: at least 200 requests/s at p95 < 300 ms.

All clients come from 127.0.0.1, so the API's rate limit (API_RATE_LIMIT) is off unless the
environment names one (then the API answers 429 past it, counted as errors).
"""

from __future__ import annotations

import argparse
import bisect
import contextlib
import http.client
import itertools
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/federation_load"
DEFAULT_CACHE = "redis://127.0.0.1:6379/13"
CLASSES = ("list page", "player page", "API list", "API player")
WEIGHTS = (0.35, 0.30, 0.15, 0.20)


def environment(args) -> dict:
    smoke = {}
    if args.smoke:
        # The DATABASE_URL given (tests/benchmarks/test_smoke.py: a migrated SQLite file) and a cache in
        # files beside it that every process shares, never a Redis database someone else uses.
        folder = Path(tempfile.gettempdir()) / f"load-smoke-{os.getpid()}"
        smoke = {"BENCH_DATABASE_URL": os.environ["DATABASE_URL"], "BENCH_CACHE_URL": f"file://{folder}"}
    return {
        **os.environ,
        "API_RATE_LIMIT": os.environ.get("API_RATE_LIMIT", "off"),
        **smoke,
        "DJANGO_SETTINGS_MODULE": "benchmarks.load_settings",
        "DATABASE_URL": smoke.get("BENCH_DATABASE_URL") or os.environ.get("BENCH_DATABASE_URL", DEFAULT_DB),
        "BENCH_CACHE_URL": smoke.get("BENCH_CACHE_URL") or os.environ.get("BENCH_CACHE_URL", DEFAULT_CACHE),
        "DATABASE_CONN_MAX_AGE": str(args.conn_max_age),
        "LOG_LEVEL": "WARNING",
        "DEBUG": "false",
        "GUNICORN_ACCESS_LOG": "off",
        "GUNICORN_LOG_LEVEL": "warning",
        # A recycled worker takes its CPU time with it: none during the measurement.
        "GUNICORN_MAX_REQUESTS": "0",
    }


def connect(url: str):
    """PostgreSQL, or the smoke run's SQLite file: plain SQL either way."""
    if url.startswith("sqlite:"):
        import sqlite3

        return contextlib.closing(sqlite3.connect(url.removeprefix("sqlite:///")))
    import psycopg

    return psycopg.connect(url)


def prepare_database(env: dict, args) -> str:
    """The federation, generated and rated unless it is there already; returns what was done."""
    if args.smoke:
        return generate(env, args, env["DATABASE_URL"].rsplit("/", 1)[1])
    import psycopg
    from psycopg import sql

    url = env["DATABASE_URL"]
    name = url.rsplit("/", 1)[1]
    server = url.rsplit("/", 1)[0] + "/postgres"
    manage = [sys.executable, "manage.py"]
    try:
        with psycopg.connect(url) as connection:
            players = connection.execute("SELECT count(*) FROM players_player").fetchone()[0]
            rated = connection.execute("SELECT count(*) FROM tournaments_tournament WHERE status = 'rated'").fetchone()[
                0
            ]
        if players >= args.players and rated >= args.tournaments:
            subprocess.run([*manage, "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)  # noqa: S603
            return f"reused {name}: {players:,} players, {rated:,} rated tournaments"
    except psycopg.Error:
        pass
    began = time.perf_counter()
    with psycopg.connect(server, autocommit=True) as connection:
        connection.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
        connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    subprocess.run([*manage, "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)  # noqa: S603
    return generate(env, args, name, began)


def generate(env: dict, args, name: str, began: float | None = None) -> str:
    began = began or time.perf_counter()
    manage = [sys.executable, "manage.py"]
    generate = [*manage, "generate_federation", "--players", str(args.players)]
    generate += ["--tournaments", str(args.tournaments), "--seed", str(args.seed), "--rate"]
    subprocess.run(generate, cwd=ROOT, env=env, check=True, capture_output=True)  # noqa: S603
    # A published month and GCR, so the mix has monthly lists and a fourth live list.
    code = (
        "import datetime, django; django.setup();"
        "from ratings import services;"
        "services.publish_lists(month=datetime.date(2026, 1, 1)); services.gcr_recompute(force=True)"
    )
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, check=True)  # noqa: S603
    if not args.smoke:
        import psycopg

        with psycopg.connect(env["DATABASE_URL"], autocommit=True) as connection:
            connection.execute("VACUUM ANALYZE")  # what autovacuum does (it is off on this machine)
    return f"generated {name} in {time.perf_counter() - began:.0f} s"


def draw_urls(env: dict, args) -> dict[str, list[str]]:
    """Each class's addresses, many distinct, drawn with the seed."""
    rng = random.Random(args.seed)
    with connect(env["DATABASE_URL"]) as connection:
        ranked = [
            row[0]
            for row in connection.execute(
                "SELECT p.federation_id FROM ratings_playerrating r JOIN players_player p ON p.id = r.player_id "
                "WHERE r.system = 'orr' AND r.rating IS NOT NULL AND p.merged_into_id IS NULL "
                "ORDER BY r.rating DESC, p.id"
            )
        ]
        clubs = [row[0] for row in connection.execute("SELECT id FROM players_club ORDER BY id")]
        regions = [row[0] for row in connection.execute("SELECT id FROM players_region ORDER BY id")]
        months = [
            str(row[0])[:7]  # a date (PostgreSQL) or its ISO text (SQLite)
            for row in connection.execute("SELECT DISTINCT month FROM ratings_ratinglist ORDER BY 1")
        ]
        counts = dict(
            connection.execute(
                "SELECT system, count(*) FROM ratings_playerrating WHERE rating IS NOT NULL GROUP BY system"
            ).fetchall()
        )
    systems = [system for system in ("orr", "mchess", "playchess", "gcr") if counts.get(system)]

    def list_query(per_page: int, size: int) -> dict:
        query: dict = {}
        roll = rng.random()
        if roll < 0.35:
            pass  # the whole list
        elif roll < 0.55:
            query["age_group"] = rng.choice(["u8", "u10", "u12", "u14", "u16", "u18", "adults"])
            if rng.random() < 0.4:
                query["sex"] = "F"
        elif roll < 0.65:
            query["sex"] = rng.choice(["M", "F"])
        elif roll < 0.77:
            query["club"] = rng.choice(clubs)
        elif roll < 0.85:
            query["region"] = rng.choice(regions)
        elif roll < 0.93:
            query["active"] = "on"
            query["provisional"] = rng.choice(["no", "yes"])
        else:
            query["birth_year"] = rng.randint(1960, 2018)
        if rng.random() < 0.1 and months:
            query["month"] = rng.choice(months)
        # Mostly the first pages; now and then one deep in the whole list (`size` players). A filtered
        # list stays on its first page: the API answers 400 to a page past a list's end, as it should,
        # and a visitor only reaches the pages a list has.
        if query and set(query) != {"month"}:
            return query
        pages = max(1, size // per_page)
        page = 1 if rng.random() < 0.5 else min(pages, int(rng.paretovariate(1.0)))
        if rng.random() < 0.05:
            page = rng.randint(1, pages)
        if page > 1:
            query["page"] = page
        return query

    def system() -> str:
        # The main list far more often than the others.
        return rng.choices(systems, weights=[6, 2, 2, 1][: len(systems)])[0]

    urls: dict[str, list[str]] = {name: [] for name in CLASSES}
    for _ in range(args.distinct):
        name = system()
        query = list_query(50, counts[name])
        if rng.random() < 0.1 and "month" not in query:
            query["sort"] = rng.choice(["name", "birth_year", "club"])
        urls["list page"].append(f"/ratings/{name}/" + (f"?{urlencode(query)}" if query else ""))
        name = system()
        query = list_query(100, counts[name])
        urls["API list"].append(f"/api/lists/{name}/" + (f"?{urlencode(query)}" if query else ""))
    # The most visited of all first: the main list's first page.
    urls["list page"].insert(0, "/ratings/orr/")
    urls["API list"].insert(0, "/api/lists/orr/")
    urls["ranked players"] = ranked[: args.players_top] if args.players_top else ranked  # drawn by popularity
    return urls


class Client(threading.Thread):
    """One visitor after another on a keep-alive connection: the next request when the last is answered."""

    def __init__(
        self, number: int, port: int, urls: dict, deadline: float, seed: int, results: list, interval: float = 0
    ):
        super().__init__(daemon=True)
        # Paced (interval > 0): a request every `interval` seconds on its schedule, its latency
        # counted from the scheduled moment, so a slow answer delays (and counts against) the next.
        self.interval = interval
        self.next_at = time.perf_counter() + number * interval / 50
        self.rng = random.Random(seed * 1000 + number)
        self.port, self.urls, self.deadline, self.results = port, urls, deadline, results
        players = urls["ranked players"]
        # Zipf popularity by rank: the cumulative weights 1/1 + 1/2 + ... for bisect.
        self.players = players
        self.cumulative = list(itertools.accumulate(1 / rank for rank in range(1, len(players) + 1)))

    def player(self) -> int:
        return self.players[bisect.bisect_left(self.cumulative, self.rng.random() * self.cumulative[-1])]

    def next_url(self) -> tuple[str, str]:
        kind = self.rng.choices(CLASSES, weights=WEIGHTS)[0]
        if kind == "player page":
            return kind, f"/players/{self.player()}/"
        if kind == "API player":
            return kind, f"/api/players/{self.player()}/"
        # Lists: popular queries come back (the whole list's first page) while the rest spread out.
        pool = self.urls[kind]
        return kind, pool[min(len(pool) - 1, int(self.rng.paretovariate(0.6)) - 1)]

    def run(self) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        # The federation's visitors read Russian mostly.
        language = self.rng.choices(["ru", "en"], weights=[4, 1])[0]
        headers = {"Accept-Language": language}
        while time.perf_counter() < self.deadline:
            kind, url = self.next_url()
            began = time.perf_counter()
            if self.interval:
                if self.next_at > began:
                    time.sleep(self.next_at - began)
                began, self.next_at = self.next_at, self.next_at + self.interval
                if began >= self.deadline:
                    break
            try:
                connection.request("GET", url, headers=headers)
                response = connection.getresponse()
                response.read()
                status, hit = response.status, response.getheader("X-Page-Cache")
            except (OSError, http.client.HTTPException):
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                status, hit = 0, None
            self.results.append((kind, time.perf_counter() - began, status, hit, began))
        connection.close()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(env: dict, port: int, *, cache: bool, workers: int, threads: int) -> subprocess.Popen:
    env = {
        **env,
        "GUNICORN_BIND": f"127.0.0.1:{port}",
        "WEB_CONCURRENCY": str(workers),
        "GUNICORN_THREADS": str(threads),
        "PAGE_CACHE_SECONDS": "3600" if cache else "0",
    }
    gunicorn = str(Path(sys.executable).with_name("gunicorn"))
    server = subprocess.Popen([gunicorn, "-c", "federation/gunicorn.conf.py", "federation.wsgi"], cwd=ROOT, env=env)  # noqa: S603
    for _ in range(300):
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            connection.request("GET", "/api/")
            if connection.getresponse().status == 200:
                connection.close()
                return server
        except OSError:
            time.sleep(0.1)
        if server.poll() is not None:
            raise SystemExit("gunicorn did not start")
    server.terminate()
    raise SystemExit("gunicorn did not answer within 30 s")


def warm_up(port: int, seconds: float = 3.0) -> None:
    """Every worker's database connection and imports, on pages outside the mix (nothing cached)."""
    deadline = time.perf_counter() + seconds

    def visit():
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        while time.perf_counter() < deadline:
            connection.request("GET", "/ratings/about/")
            connection.getresponse().read()
        connection.close()

    threads = [threading.Thread(target=visit) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def flush_cache(url: str) -> None:
    if url.startswith("file://"):
        shutil.rmtree(url.removeprefix("file://"), ignore_errors=True)
        return
    import redis

    redis.Redis.from_url(url).flushdb()


def server_cpu(master: int) -> float:
    """CPU seconds used so far by gunicorn's workers (the children of its master process)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == master:  # ppid
            total += int(fields[11]) + int(fields[12])  # utime + stime
    return total / ticks


def publish(env: dict, port: int, *, warm: bool) -> tuple[float, dict | None]:
    """A rating run's publishing step after its commit, in a process of its own as in a Celery worker:
    the most visited pages rendered under the next version first (warm, toolkit/pagecache.py) or not
    (the bump alone, as before issue 28), then the bump. The data stay the same: every page the
    visitors stored is out of date all the same. Returns the seconds it took and what the warming
    did (pagecache.last_warming())."""
    code = "import json, django; django.setup(); from toolkit import pagecache; "
    code += "pagecache.warm_and_bump(); print(json.dumps(pagecache.last_warming()))" if warm else "pagecache.bump()"
    # The pages are stored under the host the visitors ask for: this server's address.
    publishing = {**env, "PAGE_CACHE_SECONDS": "3600", "SITE_URL": f"http://127.0.0.1:{port}"}
    began = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=publishing, check=True, capture_output=True)  # noqa: S603
    took = time.perf_counter() - began
    warming = json.loads(done.stdout.decode().strip().splitlines()[-1]) if warm else None
    return took, warming


def run_clients(
    port: int, urls: dict, args, window: int, master: int, rate: float = 0, seconds: float | None = None
) -> dict:
    """The clients for one window: each as fast as it is answered, or paced to `rate` requests/s in all."""
    results: list = []
    cpu = server_cpu(master)
    began = time.perf_counter()
    deadline = began + (seconds or (args.fill if window == 1 else args.seconds))
    interval = args.clients / rate if rate else 0
    clients = [Client(n, port, urls, deadline, args.seed + window, results, interval) for n in range(args.clients)]
    for client in clients:
        client.start()
    for client in clients:
        client.join(timeout=args.seconds + 60)
    elapsed = time.perf_counter() - began
    return {"results": results, "elapsed": elapsed, "cpu": server_cpu(master) - cpu, "load": os.getloadavg()[0]}


def phase(env: dict, urls: dict, args, *, cache: bool) -> list[dict]:
    """One server from an empty cache: without the cache one window; with it two, the first right
    after the cache was emptied (as after a rating run), the second after `fill` more seconds of the
    same traffic (not measured): the cache holds what the visitors asked for since."""
    flush_cache(env["BENCH_CACHE_URL"])
    port = free_port()
    server = start_server(env, port, cache=cache, workers=args.workers, threads=args.threads)
    try:
        warm_up(port, args.warm_up)
        windows = [run_clients(port, urls, args, 0, server.pid)]
        if cache:
            if args.fill:
                run_clients(port, urls, args, 1, server.pid)
            windows.append(run_clients(port, urls, args, 2, server.pid))
            if args.rate:
                windows.append(run_clients(port, urls, args, 3, server.pid, rate=args.rate))
                # Right after a rating run publishes (issue 28): the bump alone, then warm and bump, each
                # followed by the first `after` seconds of the paced traffic.
                for number, warm in ((4, False), (5, True)):
                    took, warming = publish(env, port, warm=warm)
                    windows.append(
                        run_clients(port, urls, args, number, server.pid, rate=args.rate, seconds=args.after)
                    )
                    windows[-1]["publish"], windows[-1]["warming"] = took, warming
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
    return windows


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def summary_row(label: str, rows: list, elapsed: float) -> str:
    times = [row[1] * 1000 for row in rows]
    errors = sum(1 for row in rows if row[2] != 200)
    hits = sum(1 for row in rows if row[3] == "hit")
    return (
        f"| {label} | {len(rows):,} | {len(rows) / elapsed:.0f} | {percentile(times, 0.5):.0f} | "
        f"{percentile(times, 0.95):.0f} | {percentile(times, 0.99):.0f} | {errors} | "
        f"{100 * hits / len(rows) if rows else 0:.0f} % |"
    )


def report(name: str, measured: dict) -> tuple[list[str], float, float]:
    results, elapsed = measured["results"], measured["elapsed"]
    lines = [
        f"#### {name}",
        "",
        "| requests | count | per second | p50 ms | p95 ms | p99 ms | errors | from the cache |",
        "|---|---|---|---|---|---|---|---|",
        summary_row("all", results, elapsed),
    ]
    by_class = defaultdict(list)
    for row in results:
        by_class[row[0]].append(row)
    lines += [summary_row(kind, by_class[kind], elapsed) for kind in CLASSES]
    statuses = defaultdict(int)
    for row in results:
        if row[2] != 200:
            statuses[row[2]] += 1
    if statuses:
        lines.append("")
        lines.append("Errors by status (0: no answer): " + ", ".join(f"{k}: {v}" for k, v in sorted(statuses.items())))
    per_request = measured["cpu"] / max(1, len(results)) * 1000
    lines.append("")
    lines.append(
        f"Gunicorn's workers used {measured['cpu']:.1f} CPU s in {elapsed:.1f} s: {per_request:.1f} ms a request, "
        f"so 2 free cores would serve at most {2000 / per_request:.0f} requests/s (PostgreSQL, Redis and the "
        "clients not counted)."
    )
    lines.append(f"Load average at the window's end: {measured['load']:.1f}.")
    times = [row[1] * 1000 for row in results]
    hits = sum(1 for row in results if row[3] == "hit") / max(1, len(results))
    return lines, len(results) / elapsed, percentile(times, 0.95), per_request, hits


def after_run_table(verdicts: list, rate: float) -> list[str]:
    """Issue 28's windows beside its goals, with what holds on a loaded machine: gunicorn's CPU per
    request against the budget that 2 cores give `rate` requests/s, and against the yardstick measured
    in the same run (the paced window long after the cache filled)."""
    budget = 2000 / rate if rate else float("nan")
    yardstick = next((v[3] for v in verdicts if "still, paced" in v[0]), float("nan"))
    lines = [
        f"Issue 28, the first seconds after a run publishes (goals: >= {rate:.0f} requests/s, p95 < 300 ms; "
        f"gunicorn CPU <= {budget:.0f} ms a request, what 2 cores allow at {rate:.0f}/s with nothing else):",
        "",
        "| window | requests/s | p95 ms | goals met | from the cache | gunicorn CPU ms/request | "
        "CPU within budget | CPU vs the filled cache's | load average |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for label, achieved, p95, per_request, hits, load in verdicts:
        if "publishes" not in label:
            continue
        met = "yes" if achieved >= 0.97 * rate and p95 < 300 else "**no**"
        lines.append(
            f"| {label} | {achieved:.0f} | {p95:.0f} | {met} | {100 * hits:.0f} % | {per_request:.1f} | "
            f"{'yes' if per_request <= budget else '**no**'} | {per_request / yardstick:.2f}× | {load:.1f} |"
        )
    return lines


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=20_000)
    parser.add_argument("--tournaments", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--fill", type=float, default=60, help="seconds of traffic between the two cached windows")
    parser.add_argument("--rate", type=float, default=200, help="requests/s of the paced window (0: none)")
    parser.add_argument("--distinct", type=int, default=2000, help="distinct list queries per class")
    parser.add_argument("--players-top", type=int, default=0, help="only the N most popular players (diagnosis)")
    parser.add_argument("--workers", type=int, default=2 * (os.cpu_count() or 1))
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--conn-max-age", type=int, default=60)
    parser.add_argument("--phases", default="off,on", help="cache off, on, or both (off,on)")
    parser.add_argument("--after", type=float, default=10, help="seconds measured right after a run publishes")
    parser.add_argument("--warm-up", type=float, default=3, help="seconds of warming every worker before measuring")
    parser.add_argument("--smoke", action="store_true", help="every window for a second, on the DATABASE_URL given")
    args = parser.parse_args(argv)
    if args.smoke:
        # Proves every step runs, not its figures (tests/benchmarks/test_smoke.py): the least that does.
        args.players, args.tournaments, args.clients, args.workers, args.threads = 30, 2, 2, 1, 2
        args.seconds, args.fill, args.after, args.rate, args.distinct, args.phases = 1, 0.5, 1, 10, 20, "on"
        args.warm_up = 0.5
    if not 1 <= args.clients <= 200 or not 1 <= args.seconds <= 300:
        raise SystemExit("at most 200 clients and 300 seconds")

    env = environment(args)
    prepared = prepare_database(env, args)
    urls = draw_urls(env, args)
    out = [
        "### Load: 50 concurrent clients",
        "",
        f"{prepared}. Gunicorn: {args.workers} workers × {args.threads} threads (gthread), "
        f"CONN_MAX_AGE {args.conn_max_age} s, DEBUG off, access log off; cache: Redis. "
        f"{args.clients} clients for {args.seconds:.0f} s each window, seed {args.seed}; "
        f"machine: {os.cpu_count()} cores, load average before {os.getloadavg()[0]:.1f}.",
        "",
        "Mix: list pages 35 %, player pages 30 %, API lists 15 %, API players 20 %, in Russian (4 in 5) and English; "
        f"{len(set(urls['list page']))} distinct list queries and as many API list queries, "
        f"players drawn by popularity (Zipf by rank) from {len(urls['ranked players']):,}.",
        "",
    ]
    verdicts = []
    failed = []  # windows with errors or without an answer: a smoke run exits 1
    for name in args.phases.split(","):
        cache = name.strip() == "on"
        windows = phase(env, urls, args, cache=cache)
        later = f"cache on, {args.seconds + args.fill:.0f} s later"
        labels = [
            "cache on, emptied (just after a rating run), as fast as answered",
            f"{later}, as fast as answered",
            f"{later} still, paced to {args.rate:.0f} requests/s",
            f"first {args.after:.0f} s after a run publishes, the bump alone (before issue 28), paced",
            f"first {args.after:.0f} s after a run publishes, most visited and most asked pages warmed first, paced",
        ]
        for label, measured in zip(labels if cache else ["cache off, as fast as answered"], windows, strict=False):
            lines, rate, p95, per_request, hits = report(label[0].upper() + label[1:], measured)
            if "publish" in measured:
                lines += [
                    "",
                    f"The publishing step (its own process, Django's start included): {measured['publish']:.1f} s.",
                ]
            if measured.get("warming"):
                warming = measured["warming"]
                lines.append(
                    f"Warming: {warming['pages']} of {warming.get('planned', '?')} pages stored in "
                    f"{warming.get('seconds', 0):.1f} s ({len(warming['failed'])} failed, out of time: "
                    f"{warming.get('out_of_time')}, gave way to a run: {warming.get('stopped')})."
                )
            out += [*lines, ""]
            verdicts.append((label, rate, p95, per_request, hits, measured["load"]))
            if not measured["results"] or any(row[2] != 200 for row in measured["results"]):
                failed.append(label)
            print("\n".join(lines), file=sys.stderr, flush=True)
    out.append(f"| window | requests/s | p95 ms | target: {args.rate:.0f}/s at p95 < 300 ms |")
    out.append("|---|---|---|---|")
    for label, rate, p95, *_rest in verdicts:
        if "paced" in label:
            met = "yes" if rate >= 0.97 * args.rate and p95 < 300 else "**no**"
        else:
            met = "(the most it serves)" if rate >= args.rate else "**no**: below the rate"
        out.append(f"| {label} | {rate:.0f} | {p95:.0f} | {met} |")
    out += ["", *after_run_table(verdicts, args.rate), "", f"Load average after: {os.getloadavg()[0]:.1f}."]
    print("\n".join(out))
    if args.smoke and failed:
        print(f"smoke run failed: errors or no answer in {failed}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
