"""Thin Celery tasks of the operations app; their schedules are in federation/celery.py."""

from celery import shared_task

from operations.backup import services as backups
from operations.health import services as health


@shared_task
def backup_nightly() -> None:
    """BACKUP_DIR's nightly backup; a failure is logged and recorded by the service (no retry: the
    earlier backups stay, and the next night tries again)."""
    backups.backup_scheduled()


@shared_task(ignore_result=True)
def beat_tick() -> None:
    """Beat sends this every minute and a worker of the default queue records it: /health/ shows
    how long ago (a stale tick means beat, or every worker of that queue, has stopped)."""
    health.beat_tick_record()
