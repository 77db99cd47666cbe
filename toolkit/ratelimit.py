"""The site's one rate limiter: a count per key and window, kept in Django's cache (Redis in
production and CI, so every process shares it), used by the JSON API (per client), the phone
channels (per number and direction, and the site's reports per account) and the login throttle's
counters (accounts' mail-sending forms).

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
  `_take_or_open`, logging to "play.ratelimit"): an outage of the cache must never make an inbound
  message fail or answer 5xx to a gateway (whose senders give up after a few failures), nor hold
  every reply in the outbox (tests/play/test_service_outages.py).

The phone channels still count fixed clock minutes (`sliding=False`): see their section below.
"""

from __future__ import annotations

import contextlib
import datetime
import hashlib
import ipaddress
import logging
import math
import time
from dataclasses import dataclass
from functools import wraps

from django.conf import settings
from django.core.cache import cache
from django.http import JsonResponse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from toolkit.clients import client_address
from toolkit.rates import parse_rate

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
    sliding=False counts the current fixed window only (the phone channels, see below)."""
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


# --- the JSON API: per client ---------------------------------------------------------------------

PERIOD_NAMES = {
    1: pgettext_lazy("requests per", "second"),
    60: pgettext_lazy("requests per", "minute"),
    3600: pgettext_lazy("requests per", "hour"),
    86400: pgettext_lazy("requests per", "day"),
}


def api_rate() -> tuple[int, int] | None:
    """(requests, seconds) of settings.API_RATE_LIMIT, or None when the limit is off."""
    return parse_rate(settings.API_RATE_LIMIT)


def describe_rate() -> dict | None:
    """The limit as the API page states it."""
    rate = api_rate()
    if rate is None:
        return None
    return {"limit": rate[0], "period": PERIOD_NAMES[rate[1]]}


def _client_key(request) -> str:
    """A client by its address; an IPv6 client by its /64, which one household or machine holds whole."""
    address = client_address(request)
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if parsed.version == 6:
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed)


def rate_limited(view):
    """Answer 429 (JSON, with Retry-After) past the API's rate limit; tell the limit on every answer
    (X-RateLimit-Reset: the seconds until the current window closes, or the wait when refused)."""

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        rate = api_rate()
        if rate is None:
            return view(request, *args, **kwargs)
        limit, period = rate
        decision = hit(f"api:{_client_key(request)}", limit, period)
        if not decision.allowed:
            message = _("Too many requests: at most %(limit)s a %(period)s. Try again in %(seconds)s s.") % {
                "limit": limit,
                "period": PERIOD_NAMES[period],
                "seconds": decision.retry_after,
            }
            response = JsonResponse(
                {"error": message, "retry_after": decision.retry_after},
                status=429,
                json_dumps_params={"ensure_ascii": False},
            )
            response["Retry-After"] = str(decision.retry_after)
            response["Access-Control-Allow-Origin"] = "*"
        else:
            response = view(request, *args, **kwargs)
        response["X-RateLimit-Limit"] = str(limit)
        response["X-RateLimit-Remaining"] = str(decision.remaining)
        response["X-RateLimit-Reset"] = str(decision.retry_after or decision.reset)
        return response

    return wrapped


# --- the phone channels: per number and direction, and the site's reports per account ------------
#
# Inbound (settings.PLAY_INBOUND_PER_MINUTE): a flood from one number must not starve the others;
# a message over the limit (a move, a command, Telegram's /start or a button press) is not applied,
# but logged and counted, and only the first of a window is answered, with the wait (an answer to
# each would be a storm of its own). The site's reports (a dispute, an appeal, a leave request, an
# enquiry) are counted the same way per account. Outbound (settings.PLAY_OUTBOUND_PER_MINUTE): a
# bug that writes a hundred messages to one number sends only the limit in a minute; the others
# wait in the outbox. All fail open: see the module's docstring.
#
# They still count fixed clock minutes (sliding=False), as before issue 25: the outbox sweep runs
# once a minute and the notices name the wait until the clock minute closes (window_left). With the
# sliding window a burst of 30 sent at 10:00 would still weigh in full on the sweep at 10:01 (the
# next 30 would go at 10:02: half the delivery rate of a burst), and a notice's wait would have to
# be the decision's retry_after. Changing that is a decision about the channels' behaviour, not a
# move: `sliding=True` in _take_or_open and the numbers of tests/play/test_ratelimit.py and
# test_web_limits.py (docs/developers/rooms-api.md).

# Channels that reach phones. The web channel is behind a login and delivers by writing the
# record (its reports to a desk are counted per account: web_wait); the console is the
# operator's (and the demo's and the tests'), who may type fast.
LIMITED_CHANNELS = ("sms", "telegram")
RATE_LIMITED = "rate limited"  # the error kept on an outbound row that waits for the next minute
WINDOW_SECONDS = 60
# Long enough for the window to close and for a staff member to read the day's drop count.
DROPS_KEPT_SECONDS = 2 * 24 * 3600
play_logger = logging.getLogger("play.ratelimit")  # the name the channels' operators know


def _key(direction: str, channel: str, address: str) -> str:
    # The address comes from outside (a webhook's number): hashed, so any text makes a valid key.
    digest = hashlib.blake2s(address.encode(), digest_size=12).hexdigest()
    return f"play:{direction}:{channel}:{digest}"


def _take_or_open(key: str, limit: int, now: datetime.datetime) -> bool:
    try:
        return hit(key, limit, WINDOW_SECONDS, now=now.timestamp(), sliding=False).allowed
    except Exception as error:
        play_logger.warning("cache unavailable, rate limit not applied to %s: %r", key, error)
        return True


def inbound_allowed(channel: str, sender: str, now: datetime.datetime) -> bool:
    """Whether a message from `sender` arriving at `now` may be applied. One over the limit is
    counted (see `inbound_dropped`) and logged."""
    if channel not in LIMITED_CHANNELS:
        return True
    if _take_or_open(_key("in", channel, sender), settings.PLAY_INBOUND_PER_MINUTE, now):
        return True
    day = now.date().isoformat()
    try:
        count(f"play:rl:dropped:{channel}:{day}", DROPS_KEPT_SECONDS)
    except Exception:  # the cache went down after counting: a lost drop count, not a lost answer
        play_logger.warning("cache unavailable: the drop of a %s message from %s not counted", channel, sender)
    play_logger.warning(
        "inbound %s message from %s over %d a minute: not applied, not answered",
        channel,
        sender,
        settings.PLAY_INBOUND_PER_MINUTE,
    )
    return False


def inbound_dropped(channel: str, day: datetime.date) -> int:
    """How many inbound messages on `channel` the limit dropped on `day` (UTC)."""
    return cache.get(f"play:rl:dropped:{channel}:{day.isoformat()}", 0)


def outbound_allowed(row, now: datetime.datetime) -> bool:
    """Whether the outbound `row` may go to its address at `now`. Order is the caller's: the
    delivery takes a row with the older pending rows to the same address, oldest first, and once one
    is held back the later ones wait behind it, so a new message never overtakes one held back."""
    if row.channel not in LIMITED_CHANNELS:
        return True
    return _take_or_open(_key("out", row.channel, row.address), settings.PLAY_OUTBOUND_PER_MINUTE, now)


def window_left(now: datetime.datetime) -> int:
    """Whole seconds until the clock minute of `now` closes (1 to WINDOW_SECONDS): the wait a notice names."""
    return WINDOW_SECONDS - int(now.timestamp()) % WINDOW_SECONDS


def inbound_notice_due(channel: str, sender: str, now: datetime.datetime) -> bool:
    """True for the first message over the inbound limit in a clock minute, False for the rest: the
    sender is told once a minute, never once a message."""
    key = f"play:rl:notice:{_key('in', channel, sender)}:{int(now.timestamp()) // WINDOW_SECONDS}"
    try:
        return bool(cache.add(key, 1, timeout=WINDOW_SECONDS * 2))
    except Exception:  # the cache went down after counting: no notice rather than a lost message
        play_logger.warning("cache unavailable: no over-limit notice to %s", sender)
        return False


def web_wait(user, now: datetime.datetime) -> int:
    """0 when the account's report from the site (a dispute, an appeal, a leave request, the TD's
    enquiry) may go; else the seconds to wait. Counted per account like a phone's messages
    (PLAY_INBOUND_PER_MINUTE a minute): each one lands on a TD's desk or a player's phone, which a
    held-down button must not flood."""
    if _take_or_open(_key("in", "web", f"user:{user.pk}"), settings.PLAY_INBOUND_PER_MINUTE, now):
        return 0
    play_logger.warning(
        "web reports of account %s over %d a minute: refused", user.pk, settings.PLAY_INBOUND_PER_MINUTE
    )
    return window_left(now)
