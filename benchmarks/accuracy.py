"""Which system predicts best, over a generated federation on PostgreSQL: the figures computed
cold (what the first request after a rating run pays), the page and the API served afterwards.

    python -m benchmarks.accuracy [--players 20000] [--tournaments 1200] [--reuse] [--smoke]

--smoke: the same code over 60 players and 3 tournaments generated, rated and GCR-computed on the
migrated DATABASE_URL it is given, with the cache of the environment (tests/benchmarks/test_smoke.py).

Uses BENCH_DATABASE_URL (default: a federation_accuracy_bench database on the local server,
generated, rated and GCR-computed unless --reuse finds it there) and BENCH_CACHE_URL. Times are
medians, with a yardstick measured in the same run (a fixed pure-Python loop), since the machine
is shared: the ratios are what to compare between runs.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/federation_accuracy_bench"


def yardstick() -> float:
    began = time.perf_counter()
    total = 0.0
    for k in range(2_000_000):
        total += (k % 7) * 0.5
    return time.perf_counter() - began


def median(fn, runs: int = 5) -> float:
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        fn()
        times.append(time.perf_counter() - began)
    return statistics.median(times)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=20_000)
    parser.add_argument("--tournaments", type=int, default=1_200, help="about 100 games each")
    parser.add_argument("--reuse", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--smoke", action="store_true", help="a tiny federation on the given DATABASE_URL")
    args = parser.parse_args(argv)
    env = dict(os.environ)
    if args.smoke:
        subprocess.run(  # noqa: S603 (our own command, fixed arguments)
            [sys.executable, "manage.py", "generate_federation", "--players", "60", "--tournaments", "3",
             "--seed", str(args.seed), "--rate"],
            cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL,
        )  # fmt: skip
        subprocess.run(
            [sys.executable, "manage.py", "shell", "-c",
             "from ratings import services; services.gcr_recompute(force=True)"],
            cwd=ROOT, env=env, check=True,
        )  # fmt: skip
        return measure(runs=1, smoke=True)
    env["DATABASE_URL"] = env.get("BENCH_DATABASE_URL", DEFAULT_DB)
    env["CACHE_URL"] = env.get("BENCH_CACHE_URL", env.get("CACHE_URL", "locmem://"))
    os.environ.update(DATABASE_URL=env["DATABASE_URL"], CACHE_URL=env["CACHE_URL"])
    if not args.reuse:
        from benchmarks.scale import prepare_database

        prepare_database(env["DATABASE_URL"], args, env)
        subprocess.run(
            [sys.executable, "manage.py", "shell", "-c",
             "from ratings import services; services.rerate_since(since=None); services.gcr_recompute(force=True)"],
            cwd=ROOT, env=env, check=True,
        )  # fmt: skip

    return measure(runs=None)


def measure(runs: int | None, smoke: bool = False) -> int:
    """The measures over the federation of DATABASE_URL; `runs` overrides the medians' runs."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "federation.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.cache import cache
    from django.test import Client

    from ratings.accuracy import selectors
    from ratings.models import RatingChange

    stick = median(yardstick, runs or 3)
    games = sum(entry["all"]["games"] for entry in selectors.compute()["systems"])
    cold = median(selectors.compute, runs or 3)
    client = Client()
    cache.clear()
    client.get("/ratings/accuracy/")
    page = median(lambda: client.get("/ratings/accuracy/"), runs or 7)
    api = median(lambda: client.get("/api/systems/accuracy/"), runs or 7)
    if smoke:
        from django.conf import settings

        settings.ALLOWED_HOSTS = ["*"]
        answers = [client.get("/ratings/accuracy/").status_code, client.get("/api/systems/accuracy/").status_code]
        if answers != [200, 200] or not games:
            print(f"smoke: answers {answers}, {games} player-games", file=sys.stderr)
            return 1
    load = os.getloadavg()
    changes = RatingChange.objects.count()
    print("# Accuracy of the systems (issue 27.2)\n")
    print(f"Load average at the start of the measures: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}.")
    print(f"Federation: {changes:,} rating changes; {games:,} player-games over the four systems.\n")
    print("| measure | median | ÷ yardstick |")
    print("|---|---|---|")
    print(f"| yardstick (2M-step Python loop) | {stick * 1000:.0f} ms | 1.00 |")
    print(f"| figures computed cold (all four systems) | {cold * 1000:.0f} ms | {cold / stick:.2f} |")
    print(f"| page /ratings/accuracy/ (cached figures) | {page * 1000:.1f} ms | {page / stick:.3f} |")
    print(f"| API /api/systems/accuracy/ (cached) | {api * 1000:.1f} ms | {api / stick:.3f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
