"""The phone channels' rate limits: per number and direction, and the site's reports per account,
counted by the site's one limiter (toolkit/ratelimit.py).

Inbound (settings.PLAY_INBOUND_PER_MINUTE, a sliding window of 60 s): a flood from one number must
not starve the others; a message over the limit (a move, a command, Telegram's /start or a button
press) is not applied, but logged and counted, and only the first of a clock minute is answered,
with the wait until one more would be read (an answer to each would be a storm of its own). The
window slides, so a sender cannot pass twice the limit across a minute's edge (30 at 10:00:59 and 30
more at 10:01:00). The site's reports (a dispute, an appeal, a leave request, an enquiry) are counted
the same way per account.

Outbound (settings.PLAY_OUTBOUND_PER_MINUTE): a bug that writes a hundred messages to one number
sends only the limit in a clock minute; the others wait in the outbox. This one counts fixed clock
minutes (`sliding=False`) on purpose: it is our own sending, not a client's requests, and the outbox
sweep that sends what waits runs once a clock minute, so a sliding window would let a held-back
burst out at half the rate (30 at 10:00 would still weigh in full on the sweep at 10:01).

All fail open, with a warning on "play.ratelimit": an outage of the cache must never make an inbound
message fail, answer 5xx to a gateway, nor hold every reply in the outbox.
"""

from __future__ import annotations

import datetime
import hashlib
import logging

from django.conf import settings
from django.core.cache import cache

from toolkit.ratelimit import count, hit, wait

# Channels that reach phones. The web channel is behind a login and delivers by writing the
# record (its reports to a desk are counted per account: web_wait); the console is the
# operator's (and the demo's and the tests'), who may type fast.
LIMITED_CHANNELS = ("sms", "telegram")
RATE_LIMITED = "rate limited"  # the error kept on an outbound row that waits for the next minute
WINDOW_SECONDS = 60
# Long enough for the window to close and for a staff member to read the day's drop count.
DROPS_KEPT_SECONDS = 2 * 24 * 3600
logger = logging.getLogger("play.ratelimit")  # the name the channels' operators know


def _key(direction: str, channel: str, address: str) -> str:
    # The address comes from outside (a webhook's number): hashed, so any text makes a valid key.
    digest = hashlib.blake2s(address.encode(), digest_size=12).hexdigest()
    return f"play:{direction}:{channel}:{digest}"


def _take_or_open(key: str, limit: int, now: datetime.datetime, *, sliding: bool = True) -> bool:
    try:
        return hit(key, limit, WINDOW_SECONDS, now=now.timestamp(), sliding=sliding).allowed
    except Exception as error:
        logger.warning("cache unavailable, rate limit not applied to %s: %r", key, error)
        return True


def _wait_or_none(key: str, limit: int, now: datetime.datetime) -> int:
    try:
        return wait(key, limit, WINDOW_SECONDS, now=now.timestamp())
    except Exception:  # the cache went down after refusing: say a whole window rather than fail
        logger.warning("cache unavailable: the wait of %s not read", key)
        return WINDOW_SECONDS


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
        logger.warning("cache unavailable: the drop of a %s message from %s not counted", channel, sender)
    logger.warning(
        "inbound %s message from %s over %d a minute: not applied, not answered",
        channel,
        sender,
        settings.PLAY_INBOUND_PER_MINUTE,
    )
    return False


def inbound_wait(channel: str, sender: str, now: datetime.datetime) -> int:
    """Whole seconds until a message from `sender` would be read again (0 if now): the wait a notice names."""
    return _wait_or_none(_key("in", channel, sender), settings.PLAY_INBOUND_PER_MINUTE, now)


def inbound_dropped(channel: str, day: datetime.date) -> int:
    """How many inbound messages on `channel` the limit dropped on `day` (UTC)."""
    return cache.get(f"play:rl:dropped:{channel}:{day.isoformat()}", 0)


def outbound_allowed(row, now: datetime.datetime) -> bool:
    """Whether the outbound `row` may go to its address at `now` (fixed clock minutes: see the
    module). Order is the caller's: the delivery takes a row with the older pending rows to the
    same address, oldest first, and once one is held back the later ones wait behind it, so a new
    message never overtakes one held back."""
    if row.channel not in LIMITED_CHANNELS:
        return True
    limit = settings.PLAY_OUTBOUND_PER_MINUTE
    return _take_or_open(_key("out", row.channel, row.address), limit, now, sliding=False)


def inbound_notice_due(channel: str, sender: str, now: datetime.datetime) -> bool:
    """True for the first message over the inbound limit in a clock minute, False for the rest: the
    sender is told once a minute, never once a message."""
    key = f"play:rl:notice:{_key('in', channel, sender)}:{int(now.timestamp()) // WINDOW_SECONDS}"
    try:
        return bool(cache.add(key, 1, timeout=WINDOW_SECONDS * 2))
    except Exception:  # the cache went down after counting: no notice rather than a lost message
        logger.warning("cache unavailable: no over-limit notice to %s", sender)
        return False


def web_wait(user, now: datetime.datetime) -> int:
    """0 when the account's report from the site (a dispute, an appeal, a leave request, the TD's
    enquiry) may go; else the seconds to wait. Counted per account like a phone's messages
    (PLAY_INBOUND_PER_MINUTE in any 60 s): each one lands on a TD's desk or a player's phone, which
    a held-down button must not flood."""
    key = _key("in", "web", f"user:{user.pk}")
    if _take_or_open(key, settings.PLAY_INBOUND_PER_MINUTE, now):
        return 0
    logger.warning("web reports of account %s over %d a minute: refused", user.pk, settings.PLAY_INBOUND_PER_MINUTE)
    return _wait_or_none(key, settings.PLAY_INBOUND_PER_MINUTE, now)
