"""The site's one rate limiter: a count per key and window, kept in Django's cache (Redis in
production and CI, so every process shares it), used by the JSON API (per client: api/limits.py),
the phone channels (per number and direction, and the site's reports per account: play/channels/limits.py) and
the login throttle's counters (accounts/throttle.py). Each use keeps its policy (which key, which
limit, what to say) beside its own code; the counting is only here.

**Algorithm: a sliding-window counter** (two fixed windows, the previous one weighted). A key has
one counter per fixed window of `period` seconds; a request at the fraction `f` of the current
window is allowed when

    previous_count × (1 − f) + current_count + 1 ≤ limit

so the previous window's requests fade out as the current one goes on instead of being forgotten
at its edge. A fixed window lets `limit` requests through at the end of a window and `limit` more at
the start of the next (2 × limit in a moment); here the burst at the end still counts, in full, at
the next window's start (tests/toolkit/test_ratelimit.py shows both). Within any `period` seconds at
most 2 × limit − 1 requests can ever pass (the weighted estimate assumes the previous window's
requests were spread evenly), and a steady client gets exactly `limit` a period. Each request costs
one `get_many` and one atomic `incr` (and a `decr` when refused): a refused request is given back,
so a client hammering past the limit does not push its own wait further out, and an outbox row held
back and tried again does not count twice. Concurrent requests of one key can only be refused too
eagerly, never let through past the limit (each sees the others' increments).

**When the cache is unreachable** (Redis down, a timeout): each use decides, and says so here.

- `hit` lets the cache's error through. The API (a 500, as before issue 25: its page cache fails
  open but its limit never did) and the login throttle (no login checked without its counters)
  use it: what they did before the limiter was shared.
- `hit_or_open` allows (fails open) and logs a warning. The phone channels do the same (their
  `_take_or_open` in play/channels/limits.py, logging to "play.ratelimit"): an outage of the
  cache must never make an inbound message fail or answer 5xx to a gateway (whose senders give up
  after a few failures), nor hold every reply in the outbox (tests/play/channels/test_service_outages.py).

`sliding=False` counts the current fixed window only: the outbox's send budget per number uses it
(play/channels/limits.py says why: it is our own sending, drained by a sweep once a clock minute,
not a client's requests).
"""

from __future__ import annotations

import contextlib
import logging
import math
import time
from dataclasses import dataclass

from django.core.cache import cache

logger = logging.getLogger("toolkit.ratelimit")


# --- the counter ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Decision:
    allowed: bool
    limit: int
    remaining: int  # what is left of the limit after this request
    retry_after: int  # whole seconds until one more would be allowed (0 when this one was)
    reset: int  # whole seconds until the current window closes (1 to period)


def hit(key: str, limit: int, period: int, *, now: float | None = None, sliding: bool = True) -> Decision:
    """Count one request of `key` against `limit` per `period` seconds (a sliding window); a
    refused one is not counted. The cache's errors pass through (see the module: `hit_or_open`).
    sliding=False counts the current fixed window only (the outbox's budget, see the module)."""
    now = time.time() if now is None else now
    window = int(now // period)
    elapsed = (now - window * period) / period
    current_key, previous_key = f"rl:{key}:{period}:{window}", f"rl:{key}:{period}:{window - 1}"
    previous = (cache.get(previous_key) or 0) if sliding else 0
    current = count(current_key, 2 * period + 1)
    estimate = previous * (1 - elapsed) + current
    reset = max(1, math.ceil((window + 1) * period - now))
    if estimate <= limit:
        return Decision(True, limit, max(0, math.floor(limit - estimate)), 0, reset)
    with contextlib.suppress(ValueError):  # expired in between: nothing left to give back
        cache.decr(current_key)
    wait = _wait(previous, current - 1, limit, elapsed) * period
    return Decision(False, limit, 0, max(1, math.ceil(wait - 1e-9)), reset)


def _wait(previous: int, current: int, limit: int, elapsed: float) -> float:
    """How long (in windows) until previous × (1 − f) + current + 1 ≤ limit, nothing else counted."""
    if previous and current + 1 <= limit:  # later in this window, as the previous one fades
        return max(0.0, 1 - (limit - current - 1) / previous - elapsed)
    # In the next window, when this one (then the previous) has faded enough.
    return 1 - elapsed + max(0.0, 1 - (limit - 1) / current) if current else 1 - elapsed


def wait(key: str, limit: int, period: int, *, now: float | None = None) -> int:
    """Whole seconds until `key` may make one more request (0 if it may now), counting nothing:
    what a notice names after `hit` refused (the same arithmetic, read from the same counters)."""
    now = time.time() if now is None else now
    window = int(now // period)
    elapsed = (now - window * period) / period
    current_key, previous_key = f"rl:{key}:{period}:{window}", f"rl:{key}:{period}:{window - 1}"
    counts = cache.get_many([current_key, previous_key])
    previous, current = counts.get(previous_key) or 0, counts.get(current_key) or 0
    if previous * (1 - elapsed) + current + 1 <= limit:
        return 0
    return max(1, math.ceil(_wait(previous, current, limit, elapsed) * period - 1e-9))


def hit_or_open(key: str, limit: int, period: int, *, now: float | None = None, sliding: bool = True) -> Decision:
    """`hit`, but allowed (and a warning logged) when the cache cannot be reached. Any error of the
    cache's client counts (Redis's ConnectionError and TimeoutError, a refused connection): which
    ones a backend raises is its own business."""
    try:
        return hit(key, limit, period, now=now, sliding=sliding)
    except Exception as error:
        logger.warning("cache unavailable, rate limit not applied to %s: %r", key, error)
        return Decision(True, limit, limit, 0, period)


def count(key: str, timeout: int) -> int:
    """One more in the counter `key` (made with `timeout` if new): the count, this one included.
    add() is a no-op when the key exists; incr() is atomic in Redis and under locmem's lock."""
    cache.add(key, 0, timeout=timeout)
    try:
        return cache.incr(key)
    except ValueError:  # the key expired between add() and incr(): this is its first
        cache.set(key, 1, timeout=timeout)
        return 1
