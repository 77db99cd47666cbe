"""Thin Celery tasks of the tournaments app: ids in, one service call, their own retries.

An entry point: it imports the services; the services queue these tasks by name
(`toolkit.queueing`) and never import this module."""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError

from tournaments.uploads import worker


@shared_task(autoretry_for=(OperationalError, InterfaceError), retry_backoff=True, max_retries=5)
def parse_upload(upload_id: int) -> None:
    """Read a large uploaded result file (tournaments.uploads.worker)."""
    worker.upload_parse(upload_id=upload_id)


@shared_task(autoretry_for=(OperationalError, InterfaceError), retry_backoff=True, max_retries=5)
def sweep_stalled_uploads() -> None:
    """Readings whose worker went silent are sent again (tournaments.uploads.worker.sweep_stalled)."""
    worker.sweep_stalled()
