"""The what-if calculator's response time (target: under 200 ms), as a ratio to a yardstick.

    python -m benchmarks.whatif.calculator [--players 2000] [--repeat 30] [--smoke]

Uses BENCH_DATABASE_URL (default: SQLite in a temporary file), migrated here, with `--players`
rated players (ORR, Mchess and PlayChess standings with stored games). Measures GET
/ratings/whatif/ through Django's test client (the whole request: form, reads, the rating
run's code, the template): a player by federation id against 20 opponents by id, and a
provisional player by rating against 11 opponents by rating. The yardstick, measured in the
same run, is a fixed pure-Python loop: the machine is shared and noisy, so the ratio is the
number to compare between runs. Prints a Markdown report. --smoke: 30 players, 2 requests per
case, on the migrated DATABASE_URL it is given (tests/benchmarks/test_smoke.py).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time


def yardstick() -> float:
    start = time.perf_counter()
    total = 0
    for n in range(2_000_000):
        total += n * n % 7
    return time.perf_counter() - start


def setup(url: str, *, migrate: bool = True) -> None:
    if url:
        os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "federation.settings")
    import django

    django.setup()
    from django.core.management import call_command

    if migrate:
        call_command("migrate", verbosity=0)


def seed(count: int) -> list[int]:
    from players.models import Player
    from players.services import allocate_federation_ids
    from ratings.models import PlayerRating

    rng = random.Random(27)
    PlayerRating.objects.all().delete()
    Player.objects.filter(family_name__startswith="Bench").delete()
    ids = allocate_federation_ids(count)
    players = Player.objects.bulk_create(
        Player(federation_id=fid, family_name=f"Bench{n}", given_names="Ivan") for n, fid in enumerate(ids)
    )
    rows = []
    for player in players:
        rating = rng.randint(1000, 2500)
        stored = [[rng.randint(1000, 2500), rng.choice([0, 1, 2]), None, 1, None] for _ in range(5)]
        for system in ("orr", "mchess", "playchess"):
            state = {"rating": rating, "provisional": False, "games": 60, "tournaments": 6, "stored": []}
            if system == "orr" and player.pk % 10 == 0:  # a tenth provisional, with stored games
                state.update(provisional=True, games=5, tournaments=1, stored=stored)
            rows.append(PlayerRating(player=player, system=system, rating=rating, provisional=state["provisional"],
                                     games=state["games"], tournaments=state["tournaments"], state=state))  # fmt: skip
    PlayerRating.objects.bulk_create(rows, batch_size=2000)
    return [p.federation_id for p in players]


def measure(client, params: dict, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        response = client.get("/ratings/whatif/", params)
        times.append(time.perf_counter() - start)
        if response.status_code != 200 or not response.context["results"]:
            raise RuntimeError(f"the calculator did not calculate: {response.content[-500:]!r}")
    return times


def main(argv=None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--smoke", action="store_true", help="a tiny run on the migrated DATABASE_URL given")
    args = parser.parse_args(argv)
    if args.smoke:
        args.players, args.repeat = 30, 2
        url = os.environ.get("DATABASE_URL", "")
        setup(url, migrate=False)
    else:
        url = os.environ.get("BENCH_DATABASE_URL") or f"sqlite:///{tempfile.mkdtemp()}/whatif-bench.sqlite3"
        setup(url)
    from django.test import Client
    from django.test.utils import setup_test_environment

    setup_test_environment()
    ids = seed(args.players)
    rng = random.Random(3)
    by_id = {"player": ids[1], "opponents": "\n".join(f"#{i} {rng.choice(['1', '0.5', '0'])}" for i in ids[2:22])}
    by_rating = {
        "rating": 1450,
        "provisional": "on",
        "games": 4,
        "birth_year": 2012,
        "opponents": "\n".join(f"{rng.randint(1000, 2200)} {rng.choice(['1', '0.5', '0'])}" for _ in range(11)),
    }
    client = Client()
    measure(client, by_id, 3)  # warm: imports, template compilation
    stick = min(yardstick() for _ in range(3))
    cases = {"by id, 20 opponents by id": by_id, "by rating (provisional), 11 opponents by rating": by_rating}
    print("# What-if calculator (GET /ratings/whatif/)\n")
    print(f"Database: {url.split('@')[-1]}; {args.players} rated players; {args.repeat} requests per case; "
          f"load average {os.getloadavg()[0]:.2f}; yardstick {stick * 1000:.0f} ms.\n")  # fmt: skip
    print("| case | median ms | p90 ms | median / yardstick | target |")
    print("|---|---:|---:|---:|---|")
    for name, params in cases.items():
        times = sorted(measure(client, params, args.repeat))
        median = statistics.median(times)
        p90 = times[int(len(times) * 0.9) - 1]
        verdict = "met" if p90 < 0.2 else "MISSED"
        print(f"| {name} | {median * 1000:.1f} | {p90 * 1000:.1f} | {median / stick:.3f} | < 200 ms: {verdict} |")


if __name__ == "__main__":
    sys.exit(main())
