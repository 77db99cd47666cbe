"""Thin Celery tasks: ids in, one service call, their own retries. Schedules live in federation/celery.py."""

from __future__ import annotations

import datetime

from celery import shared_task
from django.conf import settings
from django.db import InterfaceError, OperationalError, transaction
from django.utils import timezone

from ratings import services

TRANSIENT = (services.TransientError, OperationalError, InterfaceError)


@shared_task(bind=True, autoretry_for=TRANSIENT, retry_backoff=True, retry_backoff_max=300, max_retries=10)
def rate_tournament(self, tournament_id: int) -> None:
    summary = services.rating_run(tournament_id=tournament_id)
    request_gcr()
    if summary is not None:
        notify_followers.delay(services.unannounced(summary.tournaments))


@shared_task(autoretry_for=TRANSIENT, retry_backoff=True, max_retries=10)
def recompute_gcr() -> None:
    services.gcr_recompute()


@shared_task(autoretry_for=TRANSIENT, retry_backoff=True, max_retries=10)
def mchess_monthly_penalty() -> None:
    today = timezone.now().astimezone(datetime.UTC).date()
    if services.mchess_penalty(month=today.replace(day=1)):
        request_gcr()


@shared_task(autoretry_for=TRANSIENT, retry_backoff=True, max_retries=10)
def publish_monthly_lists() -> None:
    services.publish_lists(month=timezone.now().astimezone(datetime.UTC).date())


@shared_task(autoretry_for=TRANSIENT, retry_backoff=True, max_retries=10)
def requeue_stalled() -> None:
    """A safety net: a queued tournament whose message was lost is queued again (runs are idempotent)."""
    for tournament_id in services.stalled_tournaments(older_than=datetime.timedelta(minutes=10)):
        rate_tournament.delay(tournament_id)


def request_gcr() -> None:
    """One GCR recomputation after a burst of runs: the countdown lets the burst finish first."""
    services.gcr_request()
    recompute_gcr.apply_async(countdown=settings.GCR_DEBOUNCE_SECONDS)


def queue_rating(tournament_id: int) -> None:
    """Queue a tournament for rating once the transaction that confirmed it has committed."""
    transaction.on_commit(lambda: rate_tournament.delay(tournament_id))


@shared_task(autoretry_for=TRANSIENT, retry_backoff=True, max_retries=10)
def rerate_since(since: str | None = None) -> None:
    """An admin's re-rating from a date (ISO), or of the whole history."""
    summary = services.rerate_since(since=datetime.date.fromisoformat(since) if since else None)
    request_gcr()
    notify_followers.delay(services.unannounced(summary.tournaments))


@shared_task(autoretry_for=TRANSIENT, retry_backoff=True, max_retries=10)
def notify_followers(tournament_ids: list[int]) -> None:
    """Mail the followers of the players of newly rated tournaments (each tournament once)."""
    from players.services import followers_notify_many

    followers_notify_many(tournament_ids=tournament_ids)
