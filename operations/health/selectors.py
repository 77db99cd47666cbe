"""The reads of /health/ and of the metrics collected at scrape time: the outbox per channel, the
rating runs, beat's last tick. Each is one indexed query (or one cache read)."""

from __future__ import annotations

import datetime

from django.core.cache import cache
from django.db import connection
from django.db.models import Count, Min

from play.models import Transmission
from ratings.models import RatingRequest

BEAT_TICK_KEY = "operations:beat-tick"


def database_ping() -> str:
    """The database's vendor once it has answered a query."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return connection.vendor


def outbox_pending() -> dict[str, tuple[int, datetime.datetime]]:
    """{channel: (pending outbound messages, the oldest one's dispatch time)}; the partial index of
    pending rows serves it."""
    rows = (
        Transmission.objects.filter(delivery=Transmission.Delivery.PENDING)
        .order_by()
        .values("channel")
        .annotate(count=Count("id"), oldest=Min("at"))
    )
    return {row["channel"]: (row["count"], row["oldest"]) for row in rows}


def rating_last() -> dict | None:
    """The latest rating request that has finished (done or failed), found backwards by id."""
    finished = (RatingRequest.State.DONE, RatingRequest.State.FAILED)
    return (
        RatingRequest.objects.filter(state__in=finished)
        .order_by("-id")
        .values("id", "state", "started_at", "finished_at", "error")
        .first()
    )


def rating_oldest_waiting() -> datetime.datetime | None:
    """When the oldest rating request still waiting for a worker was made (the state index)."""
    return (
        RatingRequest.objects.filter(state=RatingRequest.State.PENDING)
        .order_by("created_at")
        .values_list("created_at", flat=True)
        .first()
    )


def beat_tick() -> datetime.datetime | None:
    return cache.get(BEAT_TICK_KEY)
