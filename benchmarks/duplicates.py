"""How long the preview's duplicate check takes on a generated federation.

    python -m benchmarks.duplicates [--players 30000] [--tournaments 3000] [--samples 30]

Uses PostgreSQL: BENCH_DATABASE_URL, or a database of its own at 127.0.0.1
(federation_duplicates, created, migrated and generated once). Each sample re-uploads an
existing tournament (its games among its players, exactly as a matched preview holds them)
and a shuffled non-duplicate (the same players on the same days, other pairings), and times
`tournaments.uploads.duplicates.find_duplicates`; the median and the worst are printed, with the
query plan of the candidate query.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/federation_duplicates"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=30000)
    parser.add_argument("--tournaments", type=int, default=3000)
    parser.add_argument("--samples", type=int, default=30)
    parser.add_argument("--smoke", action="store_true", help="60 players, 4 tournaments, on the DATABASE_URL given")
    args = parser.parse_args()
    if args.smoke:
        args.players, args.tournaments, args.samples = 60, 4, 3
        url = os.environ["DATABASE_URL"]
    else:
        url = os.environ.get("BENCH_DATABASE_URL", DEFAULT_DB)
    os.environ.update({"DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "federation.settings", "LOG_LEVEL": "WARNING"})
    sys.path.insert(0, str(ROOT))
    if not args.smoke:
        from benchmarks.pipeline import create_database

        create_database(url)
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection, reset_queries

    from tournaments.models import Game, Tournament
    from tournaments.uploads.duplicates import FileGame, find_duplicates

    call_command("migrate", verbosity=0)
    if not Tournament.objects.exists():
        call_command("generate_federation", players=args.players, tournaments=args.tournaments, seed=1)
    total_games = Game.objects.count()
    print(f"federation: {Tournament.objects.count()} tournaments, {total_games} games")
    rng = random.Random(1)
    ids = sorted(Tournament.objects.values_list("pk", flat=True))
    same, other, found = [], [], 0
    for tournament in Tournament.objects.filter(pk__in=rng.sample(ids, args.samples)):
        rows = list(
            Game.objects.filter(tournament=tournament, black__isnull=False).values_list(
                "round", "white_id", "black_id", "result"
            )
        )
        if not rows:
            continue
        games = [FileGame(r, frozenset({w}), frozenset({b}), res) for r, w, b, res in rows]
        per_player = max(sum(1 for g in games if p in g.white | g.black) for p in {w for _, w, _, _ in rows})
        started = time.perf_counter()
        duplicates = find_duplicates(
            name=tournament.name,
            start_date=tournament.start_date,
            end_date=tournament.end_date,
            games=games,
            rounds_per_player=per_player,
        )
        same.append(time.perf_counter() - started)
        found += bool(duplicates and duplicates[0].tournament.pk == tournament.pk)
        players = sorted({w for _, w, _, _ in rows} | {b for _, _, b, _ in rows})
        shuffled = players[:]
        rng.shuffle(shuffled)
        moved = dict(zip(players, shuffled, strict=True))
        games = [FileGame(g.round, frozenset({moved[next(iter(g.white))]}), frozenset({moved[next(iter(g.black))]}),
                          g.result) for g in games]  # fmt: skip
        started = time.perf_counter()
        find_duplicates(
            name="Another",
            start_date=tournament.start_date,
            end_date=tournament.end_date,
            games=games,
            rounds_per_player=per_player,
        )
        other.append(time.perf_counter() - started)
    print(f"re-uploads recognised: {found} of {len(same)}")
    for label, times in (("duplicate", same), ("not a duplicate", other)):
        print(
            f"{label}: median {statistics.median(times) * 1000:.1f} ms, worst {max(times) * 1000:.1f} ms "
            f"({len(times)} samples)"
        )
    if args.smoke and found != len(same):
        raise SystemExit(f"only {found} of {len(same)} re-uploads recognised")
    if connection.vendor != "postgresql":
        return  # the smoke run's SQLite: no plan of PostgreSQL's to show
    from django.conf import settings

    settings.DEBUG = True
    reset_queries()
    find_duplicates(name="x", start_date=None, end_date=None, games=games, rounds_per_player=per_player)
    with connection.cursor() as cursor:
        for query in connection.queries[:1]:
            cursor.execute("EXPLAIN ANALYZE " + query["sql"])
            print("\n".join(row[0] for row in cursor.fetchall()))


if __name__ == "__main__":
    main()
