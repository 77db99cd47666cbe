"""Thin Celery tasks of the tournaments app: ids in, one service call, their own retries."""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError


@shared_task(autoretry_for=(OperationalError, InterfaceError), retry_backoff=True, max_retries=5)
def parse_upload(upload_id: int) -> None:
    """Read a large uploaded result file (tournaments.worker_uploads)."""
    from tournaments.worker_uploads import upload_parse

    upload_parse(upload_id=upload_id)


@shared_task(autoretry_for=(OperationalError, InterfaceError), retry_backoff=True, max_retries=5)
def sweep_stalled_uploads() -> None:
    """Readings whose worker went silent are sent again (tournaments.worker_uploads.sweep_stalled)."""
    from tournaments.worker_uploads import sweep_stalled

    sweep_stalled()
