"""python manage.py export_list --system orr|mchess|playchess|gcr|all --format csv|json|xlsx [--output FILE]

--system all writes the opening list format (import_list reads it back): one row per player with
his whole state in ORR, Mchess and PlayChess."""

import sys
from pathlib import Path

from django.core.management.base import BaseCommand

from ratings import exports, selectors
from ratings.models import System
from ratings.opening.columns import FIELDS
from ratings.opening.selectors import current_rows


class Command(BaseCommand):
    help = "Write the current rating list of one system to standard output or a file."

    def add_arguments(self, parser):
        parser.add_argument("--system", choices=[*System.values, "all"], default=System.ORR)
        parser.add_argument("--format", choices=sorted(exports.WRITERS), default="csv")
        parser.add_argument("--output", type=Path, help="a file; standard output when left out")

    def handle(self, *args, system, format, output, **options):
        if system == "all":
            data = exports.WRITERS[format](current_rows(), columns=list(FIELDS))
        else:
            data = exports.WRITERS[format](selectors.list_export_rows(system=system))
        if output is None:
            if format == "xlsx":
                sys.stdout.buffer.write(data)  # binary: straight to the real standard output
                sys.stdout.flush()
            else:
                self.stdout.write(data.decode("utf-8-sig"), ending="")
        else:
            output.write_bytes(data)
            self.stderr.write(f"{len(data)} bytes written to {output}")
