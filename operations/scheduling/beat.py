"""Celery beat's scheduler with a lock: a second `celery beat` never fires a job twice.

    CELERY_BEAT_SCHEDULER = "operations.scheduling.beat:LockedScheduler"   (federation/settings.py)

Every beat started (one per host, for safety) runs this scheduler. The one that holds the lock, a
Redis key `BEAT_LOCK_KEY` set with a time to live of `BEAT_LOCK_SECONDS` and its own token, fires the
jobs; it renews the lock several times per TTL and checks, just before sending each due job, that the
lock is still its own (a holder that froze past its TTL and lost the lock stops firing at once). The
others stand by, trying to take the lock every third of the TTL: when the holder dies, one of them
takes over within the TTL.

The schedule itself (federation/celery.py's beat_schedule()) is the same everywhere; what is shared
is when each job last fired, kept in Redis beside the lock (`BEAT_LOCK_KEY:last-run`) and written
before the job is sent. A beat that takes over starts from those moments: a due moment the old
holder already fired is not fired again, and one it missed while dying is fired once. (A holder
killed between writing the moment and sending the job loses that one run; every job of the schedule
is a sweep or idempotent, so the next due moment covers it.)

The lock lives in the broker's Redis (CELERY_BROKER_URL): beat cannot work without it anyway.
"""

from __future__ import annotations

import contextlib
import datetime
import logging
import os
import socket
import uuid

import redis
from celery.beat import Scheduler
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

logger = logging.getLogger("operations.scheduling")

# Renew (or, standing by, try to take) the lock this many times per TTL.
RENEWALS_PER_TTL = 3

# Set the key if it is ours (or free): the holder renews, a standby takes a free lock.
_RENEW = """
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if not holder then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 2
end
return 0
"""
# Delete the key only if it is still ours (a clean stop hands over at once, not after the TTL).
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


class LockedScheduler(Scheduler):
    """celery.beat.Scheduler that fires only while it holds the installation's scheduler lock."""

    def __init__(self, app, *args, **kwargs):
        url = app.conf.broker_url or ""
        if not url.startswith(("redis://", "rediss://")):
            raise ImproperlyConfigured(
                f"the scheduler's lock needs the broker to be Redis (CELERY_BROKER_URL={url.split('@')[-1]!r})"
            )
        self.ttl = float(settings.BEAT_LOCK_SECONDS)
        self.key = settings.BEAT_LOCK_KEY
        self.runs_key = f"{self.key}:last-run"
        self.token = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.holding = False
        self.redis = redis.Redis.from_url(url, socket_timeout=self.ttl / RENEWALS_PER_TTL)
        self._renew = self.redis.register_script(_RENEW)
        self._release = self.redis.register_script(_RELEASE)
        super().__init__(app, *args, **kwargs)
        # The loop never sleeps past the next renewal, however far the next due job is.
        self.max_interval = min(self.max_interval, self.ttl / RENEWALS_PER_TTL)

    # --- the lock -------------------------------------------------------------------------------

    def hold(self) -> bool:
        """Renew the lock if it is ours, take it if it is free; whether this beat holds it now."""
        try:
            answer = self._renew(keys=[self.key], args=[self.token, int(self.ttl * 1000)])
        except redis.RedisError as error:
            # Redis unreachable: the lock may expire meanwhile and another beat take it; stop firing.
            if self.holding:
                logger.warning("Scheduler lock %s: Redis unreachable (%s); stopped firing", self.key, error)
            self.holding = False
            return False
        if answer == 2 or (answer == 1 and not self.holding):
            self.holding = True
            self.load_last_runs()
            logger.warning("Scheduler lock %s taken by %s: this beat fires the schedule", self.key, self.token)
        elif answer == 0 and self.holding:
            self.holding = False
            logger.warning("Scheduler lock %s lost by %s: standing by", self.key, self.token)
        elif answer == 0 and not getattr(self, "_said_standby", False):
            self._said_standby = True
            holder = self.redis.get(self.key)
            logger.warning("Scheduler lock %s held by %s: standing by", self.key, (holder or b"?").decode())
        return self.holding

    def release(self) -> None:
        if self.holding:
            with contextlib.suppress(redis.RedisError):  # else it expires by itself within the TTL
                self._release(keys=[self.key], args=[self.token])
            self.holding = False

    # --- the shared moments of the last runs ----------------------------------------------------

    def load_last_runs(self) -> None:
        """Start every job from the moment it last fired on any beat (nothing fired twice)."""
        stored = self.redis.hgetall(self.runs_key)
        for name, entry in self.schedule.items():
            value = stored.get(name.encode())
            if value is not None:
                entry.last_run_at = datetime.datetime.fromisoformat(value.decode())
        self._heap = None  # recomputed from the entries on the next tick

    def reserve(self, entry):
        new_entry = super().reserve(entry)
        try:
            self.redis.hset(self.runs_key, entry.name, new_entry.last_run_at.isoformat())
        except redis.RedisError as error:
            # Not recorded: a beat taking over could fire it again. Not sent; the next due moment is.
            logger.warning("Scheduler: %s not sent, its run could not be recorded in Redis (%s)", entry.name, error)
            self.holding = False
        return new_entry

    def apply_entry(self, entry, producer=None):
        if self.holding:
            super().apply_entry(entry, producer=producer)

    # --- Celery's loop --------------------------------------------------------------------------

    def tick(self, *args, **kwargs):
        if not self.hold():
            return self.ttl / RENEWALS_PER_TTL
        return min(super().tick(*args, **kwargs), self.ttl / RENEWALS_PER_TTL)

    def close(self):
        try:
            super().close()
        finally:
            self.release()

    @property
    def info(self):
        return f"    . lock -> {self.key} (TTL {self.ttl:g} s)"
