"""Per-address rate limits of the phone channels, in the shared cache (Redis in production and CI,
this process's memory in development): a fixed window of one clock minute per (direction,
channel, address), counted with the cache's atomic add and incr, so every worker shares the count.

Inbound (settings.PLAY_INBOUND_PER_MINUTE): a flood from one number must not starve the others;
a message over the limit (a move, a command, Telegram's /start or a button press) is not applied,
but logged and counted, and only the first of a window is answered, with the wait (an answer to
each would be a storm of its own). The site's reports (a dispute, an appeal, a leave request, an
enquiry) are counted the same way per account. Outbound (settings.PLAY_OUTBOUND_PER_MINUTE): a bug that writes
a hundred messages to one number sends only the limit in a minute; the others wait in the outbox.

A fixed window lets at most twice the limit through across a minute's boundary; that bound is
enough for both purposes, and a window costs one cache key and one round trip.

A cache that is down fails open (`_take_or_open`): the message is applied or sent, unlimited, and a
warning is logged. The limits protect the service from floods; a lost cache must not turn every
player's move into a 500 with nothing stored (the webhooks' senders give up on a message after a
few failures), nor hold every reply in the outbox.
"""

from __future__ import annotations

import contextlib
import datetime
import hashlib
import logging

from django.conf import settings
from django.core.cache import cache

logger = logging.getLogger("play.ratelimit")

# Channels that reach phones. The web channel is behind a login and delivers by writing the
# record (its reports to a desk are counted per account: web_wait); the console is the
# operator's (and the demo's and the tests'), who may type fast.
LIMITED_CHANNELS = ("sms", "telegram")
RATE_LIMITED = "rate limited"  # the error kept on an outbound row that waits for the next minute
WINDOW_SECONDS = 60
# Long enough for the window to close and for a staff member to read the day's drop count.
DROPS_KEPT_SECONDS = 2 * 24 * 3600


def _key(direction: str, channel: str, address: str, now: datetime.datetime) -> str:
    # The address comes from outside (a webhook's number): hashed, so any text makes a valid key.
    digest = hashlib.blake2s(address.encode(), digest_size=12).hexdigest()
    return f"play:rl:{direction}:{channel}:{digest}:{_minute(now)}"


def _minute(now: datetime.datetime) -> int:
    return int(now.timestamp()) // WINDOW_SECONDS


def _take(key: str, limit: int) -> bool:
    """Count one more in the window; False when that one is over the limit."""
    # add() is a no-op when the key exists; incr() is atomic in Redis and under locmem's lock.
    cache.add(key, 0, timeout=WINDOW_SECONDS * 2)
    try:
        count = cache.incr(key)
    except ValueError:  # the key expired between add and incr: this is the window's first
        cache.add(key, 1, timeout=WINDOW_SECONDS * 2)
        count = 1
    return count <= limit


def inbound_allowed(channel: str, sender: str, now: datetime.datetime) -> bool:
    """Whether a message from `sender` arriving at `now` may be applied. One over the limit is
    counted (see `inbound_dropped`) and logged."""
    if channel not in LIMITED_CHANNELS:
        return True
    if _take_or_open(_key("in", channel, sender, now), settings.PLAY_INBOUND_PER_MINUTE):
        return True
    day = now.date().isoformat()
    try:
        cache.add(f"play:rl:dropped:{channel}:{day}", 0, timeout=DROPS_KEPT_SECONDS)
        with contextlib.suppress(ValueError):  # expired in between: a lost count, not an error
            cache.incr(f"play:rl:dropped:{channel}:{day}")
    except Exception:  # the cache went down after counting: a lost drop count, not a lost answer
        logger.warning("cache unavailable: the drop of a %s message from %s not counted", channel, sender)
    logger.warning(
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
    """Whether the outbound `row` may go to its address in the minute of `now`. Order is the
    caller's: the delivery (play.outbox._deliver) takes a row with the older pending rows to the
    same address, oldest first, and once one is held back the later ones wait behind it, so a new
    message never overtakes one held back."""
    if row.channel not in LIMITED_CHANNELS:
        return True
    return _take_or_open(_key("out", row.channel, row.address, now), settings.PLAY_OUTBOUND_PER_MINUTE)


# --- what is counted beyond the phone channels' messages, and the notice of a window ------------


def window_left(now: datetime.datetime) -> int:
    """Whole seconds until the window of `now` closes (1 to WINDOW_SECONDS): the wait a notice names."""
    return WINDOW_SECONDS - int(now.timestamp()) % WINDOW_SECONDS


def inbound_notice_due(channel: str, sender: str, now: datetime.datetime) -> bool:
    """True for the first message over the inbound limit in a window, False for the rest: the
    sender is told once a window (play.services.rate_notice), never once a message."""
    key = _key("notice", channel, sender, now)
    try:
        return bool(cache.add(key, 1, timeout=WINDOW_SECONDS * 2))
    except Exception:  # the cache went down after counting: no notice rather than a lost message
        logger.warning("cache unavailable: no over-limit notice to %s", sender)
        return False


def web_wait(user, now: datetime.datetime) -> int:
    """0 when the account's report from the site (a dispute, an appeal, a leave request, the TD's
    enquiry) may go; else the seconds to wait. Counted per account like a phone's messages
    (PLAY_INBOUND_PER_MINUTE a minute): each one lands on a TD's desk or a player's phone, which a
    held-down button must not flood."""
    if _take_or_open(_key("in", "web", f"user:{user.pk}", now), settings.PLAY_INBOUND_PER_MINUTE):
        return 0
    logger.warning("web reports of account %s over %d a minute: refused", user.pk, settings.PLAY_INBOUND_PER_MINUTE)
    return window_left(now)


# --- when the cache is down -------------------------------------------------------------------------


def _take_or_open(key: str, limit: int) -> bool:
    """`_take`, but True (not limited) when the cache cannot be reached: fail open, logged. Any
    error of the cache's client counts (Redis's ConnectionError and TimeoutError, a refused
    connection): which ones a backend raises is its own business."""
    try:
        return _take(key, limit)
    except Exception as error:
        logger.warning("cache unavailable, rate limit not applied to %s: %r", key, error)
        return True
