"""Thin Celery tasks of operations; their schedule is in federation/celery.py."""

from celery import shared_task

from operations.health import services


@shared_task(ignore_result=True)
def beat_tick() -> None:
    """Beat sends this every minute and a worker of the default queue records it: /health/ shows
    how long ago (a stale tick means beat, or every worker of that queue, has stopped)."""
    services.beat_tick_record()
