"""python manage.py rerate [--since YYYY-MM-DD]: re-rate the history (from a date) in the rating order."""

import datetime
import time

from django.core.management.base import BaseCommand

from ratings import services
from toolkit import pagecache


class Command(BaseCommand):
    help = "Re-rate every tournament from a date (or the whole history) in all systems, then GCR."

    def add_arguments(self, parser):
        parser.add_argument("--since", type=datetime.date.fromisoformat, help="first end date to re-rate")

    def handle(self, *args, since, **options):
        began = time.perf_counter()
        # The pages the runs warm would go to this process's own memory where the cache is local
        # (no CACHE_URL), which no visitor reads: there they only bump (pagecache.in_a_command).
        with pagecache.in_a_command():
            summary = services.rerate_since(since=since)
            services.gcr_request()
            services.gcr_recompute()
        self.stdout.write(
            f"re-rated {len(summary.tournaments)} tournaments and {len(summary.penalty_months)} penalty months: "
            f"{summary.changes} rating changes, {summary.penalties} penalties in {time.perf_counter() - began:.1f} s"
        )
