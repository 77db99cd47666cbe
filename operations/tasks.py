"""Thin Celery tasks of the operations app. Schedules live in federation/celery.py."""

from celery import shared_task

from operations.backup import services


@shared_task
def backup_nightly() -> None:
    """BACKUP_DIR's nightly backup; a failure is logged and recorded by the service (no retry: the
    earlier backups stay, and the next night tries again)."""
    services.backup_scheduled()
