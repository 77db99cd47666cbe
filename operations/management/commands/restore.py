"""python manage.py restore DIR [--backup NAME]: a backup into the EMPTY database of the settings."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from operations.backup import services
from operations.backup.folders import BackupError


class Command(BaseCommand):
    help = (
        "Restore a backup (the newest of DIR, or --backup NAME, or DIR itself when it is one) into the empty "
        "database of DATABASE_URL and the files into MEDIA_ROOT and PRIVATE_ROOT, after checking its checksums; "
        "then compare the row counts with the manifest."
    )

    def add_arguments(self, parser):
        parser.add_argument("directory", type=Path, help="the folder of backups, or one backup's folder")
        parser.add_argument("--backup", default=None, help="the backup's name, backup-YYYYMMDDTHHMMSSZ")

    def handle(self, *args, directory, backup, **options):
        try:
            restored = services.restore(directory=directory.absolute(), name=backup)
        except BackupError as error:
            raise CommandError(f"restore refused: {error}") from None
        self.stdout.write(f"restored {restored.name}: {len(restored.counts)} tables")
        for table, count in sorted(restored.counts.items()):
            self.stdout.write(f"  {table:<45} {count:>10}")
        self.stdout.write(
            f"uploaded files: {restored.files_written} written, {restored.files_present} already there and identical"
        )
        if restored.unapplied:
            self.stdout.write(
                f"this code has {len(restored.unapplied)} migrations the backup had not: run manage.py migrate"
            )
        if restored.differences:
            lines = [f"  {table}: manifest {want}, database {have}" for table, want, have in restored.differences]
            raise CommandError("the row counts differ from the manifest:\n" + "\n".join(lines))
        self.stdout.write(self.style.SUCCESS("every table's row count equals the manifest's"))
