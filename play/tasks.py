"""Thin Celery tasks of mobile chess: ids in, one service call. Schedules live in federation/celery.py."""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError

from play import services

TRANSIENT = (OperationalError, InterfaceError)


@shared_task(autoretry_for=TRANSIENT, retry_backoff=True, max_retries=10)
def deliver(transmission_ids: list[int]) -> None:
    services.outbound_deliver_many(transmission_ids)


@shared_task(autoretry_for=TRANSIENT, retry_backoff=True, max_retries=3)
def sweep_games() -> int:
    return services.games_sweep()


@shared_task(autoretry_for=TRANSIENT, retry_backoff=True, max_retries=3)
def sweep_outbox() -> int:
    return services.outbox_sweep()
