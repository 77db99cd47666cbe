"""Thin Celery tasks: ids in, one service call, their own retries. Schedules live in federation/celery.py."""

from __future__ import annotations

import datetime
import logging

from celery import shared_task
from celery.signals import worker_ready
from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.utils import timezone

from ratings import services
from ratings.accuracy import services as accuracy_services
from toolkit import pagecache

logger = logging.getLogger(__name__)

TRANSIENT = (services.TransientError, OperationalError, InterfaceError)


@shared_task(bind=True, autoretry_for=TRANSIENT, retry_backoff=True, retry_backoff_max=300, max_retries=10)
def rate_tournament(self, tournament_id: int) -> None:
    with pagecache.one_switch():
        summary = services.rating_run(tournament_id=tournament_id)
        request_gcr()
    if summary is not None:
        notify_followers.delay(services.unannounced(summary.tournaments))


@shared_task(autoretry_for=TRANSIENT, retry_backoff=True, max_retries=10)
def recompute_gcr() -> None:
    if services.gcr_recompute():
        # GCR's run has committed: its figures are the data's last word. Kept under the pages' data
        # version, so computed once visitors are switched to GCR's data (with the run's, when eager).
        pagecache.after_switch(refresh_accuracy.delay)


@shared_task(autoretry_for=TRANSIENT, retry_backoff=True, max_retries=10)
def refresh_accuracy() -> None:
    """Which system predicts best, computed for the new data (seconds at 100,000 games) before a
    visitor asks for it."""
    accuracy_services.refresh()


@shared_task(autoretry_for=TRANSIENT, retry_backoff=True, max_retries=10)
def mchess_monthly_penalty() -> None:
    today = timezone.now().astimezone(datetime.UTC).date()
    with pagecache.one_switch():
        if services.mchess_penalty(month=today.replace(day=1)):
            request_gcr()


@shared_task(autoretry_for=TRANSIENT, retry_backoff=True, max_retries=10)
def publish_monthly_lists() -> None:
    services.publish_lists(month=timezone.now().astimezone(datetime.UTC).date())


@shared_task(bind=True, autoretry_for=TRANSIENT, retry_backoff=True, retry_backoff_max=300, max_retries=10)
def run_rating_requests(self) -> None:
    """Rate what the pending rating requests ask for (one run for all of them)."""
    with pagecache.one_switch():
        summary = services.run_requests(worker=self.request.hostname or "")
        if summary is not None:
            request_gcr()
    if summary is not None:
        notify_followers.delay(services.unannounced(summary.tournaments))


@shared_task(autoretry_for=TRANSIENT, retry_backoff=True, max_retries=10)
def sweep_rating_requests(worker: str = "", started: str | None = None) -> None:
    """The safety net: runs whose worker is gone and requests the broker never got are sent again."""
    services.sweep_requests(worker=worker, started=datetime.datetime.fromisoformat(started) if started else None)


def request_gcr() -> None:
    """One GCR recomputation after a burst of runs: the countdown lets the burst finish first. Where
    tasks run eagerly it runs at once, inside the run's one_switch(): the run and GCR are warmed
    and switched to together (each switch would waste the pages warmed for the one before)."""
    services.gcr_request()
    recompute_gcr.apply_async(countdown=settings.GCR_DEBOUNCE_SECONDS)


# rate_tournament and rerate_since serve the messages queued before rating requests existed (and the
# benchmarks); new code asks with services.rating_request.
@shared_task(autoretry_for=TRANSIENT, retry_backoff=True, max_retries=10)
def rerate_since(since: str | None = None) -> None:
    """An admin's re-rating from a date (ISO), or of the whole history."""
    with pagecache.one_switch():
        summary = services.rerate_since(since=datetime.date.fromisoformat(since) if since else None)
        request_gcr()
    notify_followers.delay(services.unannounced(summary.tournaments))


@shared_task(autoretry_for=TRANSIENT, retry_backoff=True, max_retries=10)
def notify_followers(tournament_ids: list[int]) -> None:
    """Mail the followers of the players of newly rated tournaments (each tournament once): the
    tournaments app does it, on the signal (ratings does not import it)."""
    from ratings.signals import tournaments_rated

    tournaments_rated.send(sender=notify_followers, tournament_ids=tournament_ids)


@worker_ready.connect
def _sweep_when_a_worker_starts(sender, **_kwargs) -> None:
    """A worker that starts puts back at once the runs of a worker of its own name (killed, since it
    restarts), and, once their heartbeat has had time to go stale, those of any other lost worker.
    Sent as tasks: the main worker process never opens the database its pool children inherit."""
    hostname = getattr(sender, "hostname", "") or ""
    # Only runs claimed before this start: one this worker begins meanwhile carries the same name.
    started = timezone.now().isoformat()
    try:
        sweep_rating_requests.apply_async(kwargs={"worker": hostname, "started": started})
        sweep_rating_requests.apply_async(countdown=settings.RATING_RUN_STALE_SECONDS + 5)
    except Exception:  # the broker went away again: beat's sweeper will do it
        logger.warning("could not send the start-up sweep of rating requests", exc_info=True)
