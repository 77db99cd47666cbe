"""Which cached public pages the visitors ask for most: what a rating run warms (toolkit/pagecache.py).

Every anonymous answer that the page cache serves or stores is counted under its language (or "-"
for an answer without translated text, the API's JSON) and its path with its sorted query, so the
warming renders exactly the entries that the visitors' requests look up. A request only adds one
to a dict in its own process; each process adds its counts to the shared cache at most every
`FLUSH_SECONDS` (one round trip), into a record per day, so yesterday's favourites fade within two
days. With Redis the record is a sorted set, trimmed to the `KEEP` most asked; with another cache
(tests, one process) a plain dict under one key.
"""

from __future__ import annotations

import datetime
import logging
import threading
import time

from django.core.cache import cache
from django.utils import timezone

logger = logging.getLogger(__name__)

KEY = "pagecache:popular"
FLUSH_SECONDS = 10.0
# The long tail is dropped: no warming reaches it, and the record stays small (some MB at most).
KEEP = 20_000
DAYS = 2

_lock = threading.Lock()
_counts: dict[str, int] = {}
_flushed = time.monotonic()


def note(language: str, path: str) -> None:
    """One more request for this entry; the counts go to the shared cache now and then."""
    global _flushed
    member = f"{language}|{path}"
    with _lock:
        _counts[member] = _counts.get(member, 0) + 1
        due = time.monotonic() - _flushed >= FLUSH_SECONDS
    if due:
        flush()


def flush() -> None:
    """This process's counts into the shared record. A cache that is down loses them, nothing more."""
    global _counts, _flushed
    with _lock:
        counts, _counts, _flushed = _counts, {}, time.monotonic()
    if not counts:
        return
    key = _day_key(0)
    try:
        client = _redis()
        if client is not None:
            pipe = client.pipeline(transaction=False)
            for member, count in counts.items():
                pipe.zincrby(key, count, member)
            pipe.zremrangebyrank(key, 0, -KEEP - 1)
            pipe.expire(key, DAYS * 86400)
            pipe.execute()
        else:
            record = cache.get(key) or {}
            for member, count in counts.items():
                record[member] = record.get(member, 0) + count
            cache.set(key, record, timeout=DAYS * 86400)
    except Exception:
        logger.warning("page popularity not recorded", exc_info=True)


def most_asked(limit: int) -> list[tuple[str, str]]:
    """The `limit` entries asked most today and yesterday, as (language or "-", path), most first."""
    if limit <= 0:
        return []
    flush()
    scores: dict[str, float] = {}
    client = _redis()
    for days_ago in range(DAYS):
        key = _day_key(days_ago)
        if client is not None:
            rows = client.zrevrange(key, 0, limit - 1, withscores=True)
            rows = [(member.decode(), score) for member, score in rows]
        else:
            rows = list((cache.get(key) or {}).items())
        for member, score in rows:
            scores[member] = scores.get(member, 0) + score
    ranked = sorted(scores, key=lambda member: (-scores[member], member))[:limit]
    return [tuple(member.split("|", 1)) for member in ranked]


def _day_key(days_ago: int) -> str:
    day = timezone.localdate() - datetime.timedelta(days=days_ago)
    return f"{KEY}:{day.isoformat()}"


def _redis():
    """The Redis client behind Django's Redis cache (with the cache's own key prefix), else None."""
    client = getattr(cache, "_cache", None)
    if client is None or not hasattr(client, "get_client"):
        return None
    return _Prefixed(client.get_client(write=True))


class _Prefixed:
    """The few sorted-set commands used here, under cache.make_key() as Django's own keys are."""

    def __init__(self, client):
        self.client = client

    def pipeline(self, transaction: bool = False):
        return _Prefixed(self.client.pipeline(transaction=transaction))

    def zincrby(self, key, amount, member):
        return self.client.zincrby(cache.make_key(key), amount, member)

    def zremrangebyrank(self, key, start, end):
        return self.client.zremrangebyrank(cache.make_key(key), start, end)

    def expire(self, key, seconds):
        return self.client.expire(cache.make_key(key), seconds)

    def zrevrange(self, key, start, end, withscores=False):
        return self.client.zrevrange(cache.make_key(key), start, end, withscores=withscores)

    def execute(self):
        return self.client.execute()
