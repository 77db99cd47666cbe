"""Reads of the backups' record, for /health/ and the admin."""

from __future__ import annotations

from operations.backup.models import BackupRun


def last_backup() -> BackupRun | None:
    """The latest run, successful or not (its `succeeded`, `finished_at`, `error`)."""
    return BackupRun.objects.order_by("-started_at", "-id").first()


def last_good_backup() -> BackupRun | None:
    return BackupRun.objects.filter(succeeded=True).order_by("-started_at", "-id").first()
