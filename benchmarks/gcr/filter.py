"""GCR over a filter of games on PostgreSQL: 100,000 games pass the filter.

    python -m benchmarks.gcr.filter [--games 100000] [--players 10000] [--smoke]

--smoke: the same code on 500 games among 100 players, on the migrated DATABASE_URL it is given
(tests/benchmarks/test_smoke.py), with the cache of the environment.

Uses BENCH_DATABASE_URL (default: the local federation_bench database, created and migrated); seeds
once a federation of rated tournaments (100 games each over the board, among `--players` players in
20 clubs) with the games needed, and a few thousand older games the filter leaves out. Measured,
median of 5 after a warm-up:
- "computed": ratings.gcrquery.selectors.gcr_over with the cache emptied before each run: the
  games read in one query as tuples, GCR's two passes, the players' names: what a first request costs;
- "cached": the same filter again (until the next GCR recomputation);
- the API's whole answer (/api/gcr/ in process, cached), and
- the yardstick, measured in the same run: ratings.engines.gcr.rate alone over the same games
  already in memory. The machine is shared: the ratio to the yardstick is the number to compare.
Target: computed under 1 s.
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SINCE = datetime.date(2025, 1, 1)
PER_TOURNAMENT = 100
BOARDS = 20  # 40 entrants, 5 rounds
OLD_GAMES = 5_000


def seed(games: int, players: int, old_games: int = OLD_GAMES) -> None:
    from players.models import Club, Player
    from players.services import players_bulk_create
    from tournaments.models import Game, Tournament

    wanted = games + old_games
    if Game.objects.filter(tournament__name__startswith="GCR bench").count() >= wanted:
        return
    began = time.perf_counter()
    rng = random.Random(20261127)
    clubs = [Club.objects.get_or_create(name=f"GCR bench club {n:02}")[0] for n in range(20)]
    people = players_bulk_create(
        [
            Player(
                family_name=f"Benchov{n}",
                given_names="Ivan",
                birth_date=datetime.date(1960 + n % 55, 1 + n % 12, 1 + n % 28),
                birth_precision="day",
                club=clubs[n % 20],
            )
            for n in range(players)
        ],
        batch_size=5000,
    )
    strength = {p.pk: rng.gauss(1500, 300) for p in people}
    pks = list(strength)
    count = 0
    number = 0
    while count < wanted:
        old = count < old_games
        start = (SINCE - datetime.timedelta(days=400)) if old else SINCE + datetime.timedelta(days=number % 300)
        tournament = Tournament.objects.create(
            name=f"GCR bench {number}",
            start_date=start,
            end_date=start + datetime.timedelta(days=2),
            rounds=5,
            status=Tournament.Status.RATED,
        )
        number += 1
        batch = []
        entrants = rng.sample(pks, 2 * BOARDS)
        for rnd in range(1, PER_TOURNAMENT // BOARDS + 1):
            rng.shuffle(entrants)  # a player plays once a round
            for board in range(BOARDS):
                white, black = entrants[2 * board], entrants[2 * board + 1]
                edge = (strength[white] - strength[black]) / 800 + 0.5
                roll = rng.random()
                result = "1-0" if roll < edge - 0.1 else "0-1" if roll > edge + 0.1 else "1/2-1/2"
                batch.append(
                    Game(
                        tournament=tournament,
                        round=rnd,
                        board=board + 1,
                        white_id=white,
                        black_id=black,
                        result=result,
                    )
                )
        Game.objects.bulk_create(batch)
        count += PER_TOURNAMENT
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    print(f"# seeded {count:,} games in {time.perf_counter() - began:.0f} s")


def median_of(action, runs: int = 5, before=None) -> float:
    action()  # warm-up
    times = []
    for _ in range(runs):
        if before:
            before()
        began = time.perf_counter()
        action()
        times.append(time.perf_counter() - began)
    return statistics.median(times)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--smoke", action="store_true", help="500 games on the given DATABASE_URL, in seconds")
    args = parser.parse_args(argv)
    if args.smoke:
        return smoke()
    url = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/federation_bench")
    os.environ.update(
        {"DJANGO_SETTINGS_MODULE": "federation.settings", "DATABASE_URL": url, "LOG_LEVEL": "WARNING", "DEBUG": "false"}
    )
    os.environ.pop("CELERY_BROKER_URL", None)
    if "BENCH_CACHE_URL" in os.environ:
        os.environ["CACHE_URL"] = os.environ["BENCH_CACHE_URL"]
    from benchmarks.pipeline import create_database

    create_database(url)
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, check=True)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.conf import settings
    from django.core.cache import cache
    from django.test import Client

    from ratings.engines import gcr
    from ratings.gcrquery.query import GcrQuery
    from ratings.gcrquery.selectors import filtered_games, gcr_over

    seed(args.games, args.players)
    query = GcrQuery(since=SINCE)
    games = filtered_games(query)
    yardstick = median_of(lambda: gcr.rate(games))
    computed = median_of(lambda: gcr_over(query), before=cache.clear)
    cached = median_of(lambda: gcr_over(query))
    settings.ALLOWED_HOSTS = ["*"]
    client = Client()
    path = f"/api/gcr/?since={SINCE.isoformat()}"
    api = median_of(lambda: client.get(path))
    answer = gcr_over(query)
    load = os.getloadavg()[0]
    print(f"# GCR over a filter: {answer['games']:,} games passed, {len(answer['results']):,} players, PostgreSQL")
    print()
    print(f"Load average (1 min) at the end: {load:.2f}; median of 5 after a warm-up.")
    print()
    print("| what | time | × yardstick | target | met |")
    print("|---|---|---|---|---|")
    print(f"| yardstick: gcr.rate alone, games in memory | {yardstick * 1000:.0f} ms | 1.0 | | |")
    met = "yes" if computed < 1 else "**no**"
    ratio = computed / yardstick
    print(f"| computed (one query, both passes, names) | {computed * 1000:.0f} ms | {ratio:.2f} | < 1 s | {met} |")
    print(f"| cached (same filter) | {cached * 1000:.1f} ms | {cached / yardstick:.3f} | | |")
    print(f"| /api/gcr/ in process, cached | {api * 1000:.1f} ms | {api / yardstick:.3f} | | |")
    return 0 if computed < 1 else 1


def smoke() -> int:
    """The measured code at a tiny size on the migrated database of the environment."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "federation.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.conf import settings
    from django.test import Client

    from ratings.engines import gcr
    from ratings.gcrquery.query import GcrQuery
    from ratings.gcrquery.selectors import filtered_games, gcr_over

    seed(500, 100, old_games=100)
    query = GcrQuery(since=SINCE)
    games = filtered_games(query)
    expected = gcr.rate(games)
    answer = gcr_over(query)
    settings.ALLOWED_HOSTS = ["*"]
    api = Client().get(f"/api/gcr/?since={SINCE.isoformat()}")
    print(f"smoke: {answer['games']} games, {len(answer['results'])} players, API {api.status_code}")
    ok = answer["games"] == 500 and len(answer["results"]) == len(expected.players) and api.status_code == 200
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
