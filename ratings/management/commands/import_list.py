"""python manage.py import_list FILE [--date YYYY-MM-DD] [--map heading=field ...] [--confirm]"""

import datetime
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from ratings.opening import services
from ratings.opening.columns import FIELDS


def _date(text: str) -> datetime.date:
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        raise CommandError(f"--date {text!r}: not a date (YYYY-MM-DD)") from None


class Command(BaseCommand):
    help = (
        "Import the federation's current rating list (CSV or xlsx) as the state on a date: a preview "
        "without --confirm, the import with it."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path)
        parser.add_argument("--date", type=_date, help="the state on this day (default: today)")
        parser.add_argument(
            "--map",
            action="append",
            default=[],
            metavar="HEADING=FIELD",
            help=f"a column whose heading is unknown; fields: {', '.join(FIELDS)}, ignore",
        )
        parser.add_argument("--confirm", action="store_true")

    def handle(self, *args, file, date, map, confirm, **options):
        if not file.is_file():
            raise CommandError(f"{file}: no such file")
        mapping = {}
        for pair in map:
            heading, sep, target = pair.partition("=")
            if not sep or (target not in FIELDS and target != "ignore"):
                raise CommandError(f"--map {pair!r}: write HEADING=FIELD, FIELD one of {', '.join(FIELDS)}, ignore")
            mapping[heading.strip()] = target.strip()
        effective = date or timezone.localdate()
        data = file.read_bytes()
        try:
            preview = services.list_preview(file_name=file.name, data=data, effective=effective, mapping=mapping)
        except services.ListRefused as exc:
            raise CommandError("\n".join(exc.messages)) from None
        self._print(preview)
        if not preview.can_apply:
            raise CommandError("nothing imported")
        if not confirm:
            self.stdout.write("preview only: run again with --confirm to import")
            return
        try:
            services.list_apply(file_name=file.name, data=data, effective=effective, mapping=mapping)
        except services.ListRefused as exc:
            raise CommandError("\n".join(exc.messages)) from None
        self.stdout.write(f"imported {len(preview.sheet.entries)} players as the state on {effective}")

    def _print(self, preview):
        write = self.stdout.write
        write(f"{preview.file_name}: the state on {preview.effective}")
        write(
            f"  new players: {len(preview.new)}; matched: {len(preview.matched)}; "
            f"conflicts: {len(preview.conflicts)}; differences from the list imported: "
            f"{len(preview.differences)}; removed: {len(preview.removed)}; errors: {len(preview.errors)}"
        )
        write("  GCR is computed from games only: the list gives it nothing.")
        for heading in preview.sheet.unknown:
            write(f"  unknown column {heading!r}: map it with --map '{heading}=FIELD'")
        if preview.refusal:
            write(f"  refused: {preview.refusal}")
        for error in preview.errors:
            write(f"  error: {error}")
        for d in preview.conflicts:
            write(f"  conflict, row {d.row}, {d.federation_id} {d.name}: {d.what} {d.before!r} -> {d.after!r}")
        for d in preview.differences:
            write(f"  difference, row {d.row}, {d.federation_id} {d.name}: {d.what} {d.before} -> {d.after}")
        for player in preview.removed:
            write(f"  removed from the list: {player.federation_id} {player.full_name}")
