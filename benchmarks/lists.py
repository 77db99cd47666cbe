"""Rating list pages with 100,000 players on PostgreSQL: server time of filtered, paginated pages
and of name search (trigram index).

    python -m benchmarks.lists [--players 100000]

Uses BENCH_DATABASE_URL (default: the local federation_bench database, created and migrated);
seeds the players once. Server time = the Django view from request to rendered response, in
process (no network), median of 7 runs after a warm-up. Target: under 100 ms.
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

ROOT = Path(__file__).resolve().parents[1]

FAMILY = [
    "Ivanov",
    "Smirnov",
    "Kuznetsov",
    "Popov",
    "Vasiliev",
    "Petrov",
    "Sokolov",
    "Mikhailov",
    "Novikov",
    "Fedorov",
    "Morozov",
    "Volkov",
    "Alekseev",
    "Lebedev",
    "Semenov",
    "Egorov",
    "Pavlov",
    "Kozlov",
    "Stepanov",
    "Nikolaev",
    "Orlov",
    "Andreev",
    "Makarov",
    "Nikitin",
    "Zakharov",
    "Zaitsev",
    "Soloviev",
    "Borisov",
    "Yakovlev",
    "Grigoriev",
    "Romanov",
    "Vorobiev",
    "Sergeev",
    "Kuzmin",
    "Frolov",
    "Aleksandrov",
    "Dmitriev",
    "Korolev",
    "Gusev",
    "Kiselev",
    "Ilyin",
    "Maksimov",
    "Polyakov",
    "Sorokin",
    "Vinogradov",
]
GIVEN = [
    "Aleksandr",
    "Maksim",
    "Ivan",
    "Artem",
    "Dmitrii",
    "Nikita",
    "Mikhail",
    "Daniil",
    "Egor",
    "Andrei",
    "Anastasiia",
    "Mariia",
    "Anna",
    "Viktoriia",
    "Ekaterina",
    "Natalia",
    "Sofia",
    "Alisa",
    "Polina",
    "Kseniia",
]


def seed(count: int) -> None:
    from players.models import Club, Player, Region
    from players.services import players_bulk_create
    from ratings.models import PlayerRating

    existing = Player.objects.count()
    if existing >= count:
        return
    rng = random.Random(20261121)
    regions = [Region.objects.get_or_create(name=f"Region {n:02}")[0] for n in range(20)]
    clubs = [
        Club.objects.get_or_create(name=f"Club {n:03}", defaults={"region": rng.choice(regions)})[0] for n in range(200)
    ]
    today = datetime.date.today()  # noqa: DTZ011
    began = time.perf_counter()
    for start in range(existing, count, 10_000):
        batch = []
        for _ in range(min(10_000, count - start)):
            girl = rng.random() < 0.3
            family = rng.choice(FAMILY) + ("a" if girl else "")
            given = rng.choice(GIVEN[10:] if girl else GIVEN[:10])
            age = rng.uniform(5, 70)
            club = rng.choice(clubs)
            batch.append(
                Player(
                    family_name=family,
                    given_names=given,
                    sex="F" if girl else "M",
                    birth_date=today - datetime.timedelta(days=int(age * 365.25)),
                    birth_precision="day",
                    club=club,
                    region_id=club.region_id,
                )
            )
        created = players_bulk_create(batch, batch_size=5000)
        PlayerRating.objects.bulk_create(
            (
                PlayerRating(
                    player=player,
                    system="orr",
                    rating=max(100, int(rng.gauss(1400, 350))),
                    provisional=rng.random() < 0.2,
                    games=rng.randint(1, 400),
                    tournaments=rng.randint(1, 60),
                    last_played=today - datetime.timedelta(days=rng.randint(0, 1500)),
                )
                for player in created
            ),
            batch_size=5000,
        )
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    print(f"# seeded {count - existing:,} players in {time.perf_counter() - began:.0f} s")


PAGES = [
    ("list, page 1", "/ratings/orr/"),
    ("list, under 12 girls", "/ratings/orr/?age_group=u12&sex=F"),
    ("list, active, established, page 150", "/ratings/orr/?active=on&provisional=no&page=150"),
    ("list, club filter", "/ratings/orr/?club=1"),
    ("name search (Latin)", "/ratings/orr/?name=ivanova+anna"),
    ("name search (Cyrillic)", "/ratings/orr/?name=%D0%BA%D0%BE%D0%B7%D0%BB%D0%BE%D0%B2"),
    ("API list, name search", "/api/lists/orr/?name=sorokin"),
]


def measure_pages(pages=PAGES) -> list[tuple[str, float]]:
    """Server time of each page: the view from request to rendered response, median of 7 after a warm-up."""
    from django.conf import settings
    from django.test import Client

    settings.ALLOWED_HOSTS = ["*"]
    client = Client()
    rows = []
    for label, path in pages:
        client.get(path)  # warm-up
        times = []
        for _ in range(7):
            began = time.perf_counter()
            response = client.get(path)
            times.append(time.perf_counter() - began)
            if response.status_code != 200:
                raise SystemExit(f"{path} answered {response.status_code}")
        rows.append((label, statistics.median(times)))
    return rows


def query_plans() -> dict[str, bool | None]:
    """Whether PostgreSQL plans the list and the name search with their indexes (None elsewhere)."""
    from django.db import connection

    from ratings.selectors import rating_list

    if connection.vendor != "postgresql":  # the smoke run's SQLite: no such plans to read
        return {"list page": None, "name search": None}
    checks = {}
    with connection.cursor() as cursor:
        sql, params = rating_list(system="orr")[:50].query.sql_with_params()
        cursor.execute("EXPLAIN " + sql, params)
        plan = "\n".join(row[0] for row in cursor.fetchall())
        checks["list page"] = "rating_list_idx" in plan
        cursor.execute(
            "EXPLAIN SELECT id FROM players_player WHERE name_key LIKE %s OR latin_key LIKE %s",
            ["%ivanova anna%", "%ivanova anna%"],
        )
        plan = "\n".join(row[0] for row in cursor.fetchall())
        checks["name search"] = "trgm" in plan
    return checks


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--smoke", action="store_true", help="8,000 players on the DATABASE_URL given (migrated)")
    args = parser.parse_args(argv)
    url = (
        os.environ["DATABASE_URL"]
        if args.smoke
        else os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/federation_bench")
    )
    os.environ.update(
        {"DJANGO_SETTINGS_MODULE": "federation.settings", "DATABASE_URL": url, "LOG_LEVEL": "WARNING", "DEBUG": "false"}
    )
    os.environ.pop("CELERY_BROKER_URL", None)
    if args.smoke:
        args.players = 300
    else:
        from benchmarks.pipeline import create_database

        create_database(url)
        migrate = [sys.executable, "manage.py", "migrate", "--noinput", "-v0"]
        subprocess.run(migrate, cwd=ROOT, check=True)  # noqa: S603  (this interpreter, fixed arguments)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.db import connection

    seed(args.players)
    # The smoke run's few players have no page 150: their last page instead.
    rows = measure_pages(
        [(label, path.replace("page=150", "page=2")) for label, path in PAGES] if args.smoke else PAGES
    )
    uses_index = query_plans()["name search"]
    count = connection.cursor()
    count.execute("SELECT count(*) FROM ratings_playerrating WHERE system = 'orr'")
    players = count.fetchone()[0]
    print(f"# Rating list pages: {players:,} ORR-rated players, {connection.vendor}, server time (median of 7)")
    print()
    print("| page | server time | target | met |")
    print("|---|---|---|---|")
    for label, elapsed in rows:
        print(f"| {label} | {elapsed * 1000:.0f} ms | < 100 ms | {'yes' if elapsed < 0.1 else '**no**'} |")
    print()
    shown = {True: "yes", False: "NO", None: "not checked (not PostgreSQL)"}[uses_index]
    print(f"Name search uses the trigram indexes: {shown}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
