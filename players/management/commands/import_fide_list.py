"""manage.py import_fide_list FILE [--kind standard|rapid|blitz] [--month YYYY-MM]"""

from __future__ import annotations

import datetime
import time

from django.core.management.base import BaseCommand, CommandError

from players.fide import lists, services


def _month(text: str) -> datetime.date:
    try:
        year, month = text.split("-")
        return datetime.date(int(year), int(month), 1)
    except ValueError:
        raise CommandError(f"--month {text!r}: give the list's month as YYYY-MM, e.g. 2026-10") from None


class Command(BaseCommand):
    help = (
        "Import FIDE's rating list (players_list_foa.txt, players_list_xml_foa.xml, or one kind's list such as "
        "standard_oct26frl.txt): each kind the file holds replaces the stored list of that kind."
    )

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--kind", choices=lists.KINDS, help="the list's kind (default: from the file name)")
        parser.add_argument("--month", type=_month, help="YYYY-MM (default: from the header or the file name)")

    def handle(self, *args, file, kind=None, month=None, **options):
        started = time.perf_counter()
        try:
            result = services.import_list(file, kind=kind, month=month)
        except FileNotFoundError:
            raise CommandError(f"{file}: no such file") from None
        except lists.ListError as error:
            raise CommandError(f"{error} (nothing was changed)") from None
        counts = ", ".join(f"{kind} {count:,}" for kind, count in result.counts.items())
        self.stdout.write(
            f"FIDE list of {result.month:%Y-%m} imported from {file}: {counts} in {time.perf_counter() - started:.1f} s"
        )
