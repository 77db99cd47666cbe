"""python manage.py backup DIR [--keep N]: the database and the uploaded files into DIR/backup-<UTC time>."""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from operations.backup import services
from operations.backup.folders import BackupError


class Command(BaseCommand):
    help = (
        "Back up the database (PostgreSQL: pg_dump custom format; SQLite: the online backup API) and the "
        "uploaded files, with a manifest of checksums and row counts, into a new folder of DIR; keep the newest N."
    )

    def add_arguments(self, parser):
        parser.add_argument("directory", type=Path, help="the folder that holds the backups")
        parser.add_argument("--keep", type=int, default=None, help="backups to keep (default BACKUP_KEEP)")

    def handle(self, *args, directory, keep, **options):
        keep = settings.BACKUP_KEEP if keep is None else keep
        if keep < 1:
            raise CommandError(f"--keep must be at least 1, not {keep}")
        try:
            made = services.backup_create(directory=directory.absolute(), keep=keep)
        except BackupError as error:
            raise CommandError(f"backup failed, the earlier backups are untouched: {error}") from None
        rows = sum(made.counts.values())
        self.stdout.write(
            self.style.SUCCESS(
                f"{made.path}: {made.size} bytes, {len(made.counts)} tables, {rows} rows, {made.files} uploaded files"
            )
        )
        if made.removed:
            self.stdout.write(f"removed the oldest beyond {keep}: {', '.join(made.removed)}")
