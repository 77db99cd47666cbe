"""The flag that makes one outbox drain serve many messages (play.tasks.drain_outbox).

A message's commit asks for a drain instead of queueing a delivery task of its own; while one is
queued and not yet started (the flag, in the cache), later messages queue nothing: the drain takes
their rows from the table (play.channels.outbox.outbox_drain). A Celery task costs the worker more
than sending an SMS does (benchmarks/channels.py). Every failure here errs towards one task too
many, never one too few: the flag is only a saving, and a row no task takes waits for the sweep."""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.cache import cache

from play import queue
from toolkit import queueing

logger = logging.getLogger("play.outbox")

DRAIN_FLAG = "play:outbox:drain-queued"
# A drain lost with its worker (or never started): the first message after this queues another.
DRAIN_FLAG_SECONDS = 10


def request(ids: list[int]) -> None:
    """After a commit that wrote outbound rows `ids` (or sent some that held others back): a drain
    queued, unless one is queued already and not yet started (it takes these rows too)."""
    if not drain_wanted():
        return
    try:
        queueing.task(queue.DRAIN).delay()
    except Exception:  # the broker is down: the rows stay pending and the outbox sweep sends them
        drain_not_queued()
        logger.warning("outbound %s could not be queued; the outbox sweep will send them", ids, exc_info=True)


def drain_wanted() -> bool:
    """True when the caller should queue a drain (none is waiting to start), and the flag is set;
    a cache that cannot be reached answers True, and so does one of this process only (a local
    memory cache in development) when tasks run in a worker: the worker could not clear its flag."""
    if not _shared():
        return True
    try:
        return bool(cache.add(DRAIN_FLAG, 1, timeout=DRAIN_FLAG_SECONDS))
    except Exception:  # the cache is down
        logger.warning("outbox drain flag not readable: a drain is queued anyway", exc_info=True)
        return True


def drain_not_queued() -> None:
    """The drain asked for could not be queued (the broker is down): the next message asks again."""
    _clear()


def drain_started() -> None:
    """The drain starts: a message committed from now on queues the next one (this one may have
    read past its rows already)."""
    _clear()


def _shared() -> bool:
    backend = settings.CACHES["default"]["BACKEND"]
    return settings.CELERY_TASK_ALWAYS_EAGER or not backend.endswith("LocMemCache")


def _clear() -> None:
    try:
        cache.delete(DRAIN_FLAG)
    except Exception:  # the cache is down: the flag expires by itself
        logger.warning("outbox drain flag not cleared: it expires in %s s", DRAIN_FLAG_SECONDS, exc_info=True)
