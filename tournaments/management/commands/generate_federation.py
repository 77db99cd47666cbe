"""A synthetic federation for scale tests: python manage.py generate_federation --players N --tournaments T --seed S"""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand, CommandError

from toolkit import pagecache
from tournaments.demo import generated


class Command(BaseCommand):
    help = "Write a synthetic federation (players, clubs, regions, years of tournaments) into an empty database."

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, default=100_000)
        parser.add_argument("--tournaments", type=int, default=10_000, help="about 100 games each")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--rate", action="store_true", help="then rate the whole history")

    def handle(self, *args, players, tournaments, seed, rate, **options):
        if players < 10 or tournaments < 1:
            raise CommandError("--players must be at least 10 and --tournaments at least 1")
        began = time.perf_counter()
        try:
            counts = generated.federation_generate(players=players, tournaments=tournaments, seed=seed)
        except generated.GenerateRefused as refused:
            raise CommandError(str(refused)) from refused
        self.stdout.write(
            "generated {players:,} players in {clubs:,} clubs and {regions} regions, {tournaments:,} tournaments, "
            "{participants:,} participations, {games:,} games".format(**counts)
            + f" in {time.perf_counter() - began:.1f} s"
        )
        if rate:
            from ratings.services import rerate_since

            began = time.perf_counter()
            with pagecache.in_a_command():  # as in `rerate`: no warming into a cache nobody reads
                summary = rerate_since(since=None)
            self.stdout.write(
                f"rated {len(summary.tournaments):,} tournaments, {summary.changes:,} rating changes "
                f"in {time.perf_counter() - began:.1f} s"
            )
