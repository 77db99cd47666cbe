"""The health report: every part with its state ("ok", "failing" or "not used") and the facts
behind it, and the names of the failing parts. The thresholds are settings (HEALTH_*,
docs/operators/monitoring.md). A part that cannot be read because another is down (the outbox
when the database is) says "unknown" and is not named again: the part that is down is."""

from __future__ import annotations

import datetime
import logging
import uuid

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from operations.backup import selectors as backup_selectors
from operations.health import broker, selectors

logger = logging.getLogger(__name__)

OK, FAILING, NOT_USED, UNKNOWN = "ok", "failing", "not used", "unknown"


def _age(moment: datetime.datetime | None, now: datetime.datetime) -> float | None:
    return None if moment is None else round((now - moment).total_seconds(), 1)


def _failure(part: str, error: Exception) -> dict:
    logger.warning("health: %s failing: %s", part, error)
    return {"status": FAILING, "error": f"{type(error).__name__}: {error}"[:300]}


def database() -> dict:
    try:
        return {"status": OK, "vendor": selectors.database_ping()}
    except Exception as error:
        return _failure("database", error)


def cache_part() -> dict:
    """A write and a read back through the cache every process shares."""
    token = uuid.uuid4().hex
    try:
        cache.set("operations:health-probe", token, timeout=30)
        if cache.get("operations:health-probe") != token:
            return {"status": FAILING, "error": "the value written could not be read back"}
        return {"status": OK, "backend": settings.CACHES["default"]["BACKEND"].rsplit(".", 1)[-1]}
    except Exception as error:
        return _failure("cache", error)


def broker_and_queues(now: datetime.datetime) -> tuple[dict, dict]:
    if not broker.used():
        why = {"status": NOT_USED, "why": "no broker: tasks run in the process that sends them"}
        return why, {name: dict(why) for name in broker.queue_names()}
    names = broker.queue_names()
    try:
        queues = broker.queues_read(names)
    except Exception as error:
        down = {"status": UNKNOWN, "why": "the broker is down"}
        return _failure("broker", error), {name: dict(down) for name in names}
    parts = {}
    for queue in queues:
        age = None if queue.oldest_sent is None else round(now.timestamp() - queue.oldest_sent, 1)
        stuck = age is not None and age > settings.HEALTH_QUEUE_MAX_AGE
        parts[queue.name] = {"status": FAILING if stuck else OK, "length": queue.length, "oldest_seconds": age}
        if stuck:
            parts[queue.name]["why"] = f"a task has waited over {settings.HEALTH_QUEUE_MAX_AGE} s: no worker takes it"
    return {"status": OK}, parts


def beat(now: datetime.datetime, cache_ok: bool) -> dict:
    if not (broker.used() or settings.DEV_SCHEDULER):
        return {"status": NOT_USED, "why": "no scheduler runs: no broker and DEV_SCHEDULER is off"}
    if not cache_ok:
        return {"status": UNKNOWN, "why": "the cache, where the tick is kept, is down"}
    tick = selectors.beat_tick()
    age = _age(tick, now)
    part = {"last_tick": tick.isoformat() if tick else None, "age_seconds": age}
    if tick is None or age > settings.HEALTH_BEAT_MAX_AGE:
        return {"status": FAILING, **part, "why": f"no tick in the last {settings.HEALTH_BEAT_MAX_AGE} s"}
    return {"status": OK, **part}


def outbox(now: datetime.datetime) -> dict:
    """The oldest pending outbound message of each channel that has any."""
    parts = {}
    for channel, (count, oldest) in sorted(selectors.outbox_pending().items()):
        age = _age(oldest, now)
        stuck = age > settings.HEALTH_OUTBOX_MAX_AGE
        parts[channel] = {
            "status": FAILING if stuck else OK,
            "pending": count,
            "oldest": oldest.isoformat(),
            "age_seconds": age,
        }
    return parts


def rating_runs(now: datetime.datetime) -> dict:
    last, waiting = selectors.rating_last(), selectors.rating_oldest_waiting()
    part = {"status": OK, "last": None, "oldest_waiting_seconds": _age(waiting, now)}
    if last is not None:
        took = last["finished_at"] - last["started_at"] if last["started_at"] and last["finished_at"] else None
        part["last"] = {
            "id": last["id"],
            "state": last["state"],
            "finished_at": last["finished_at"].isoformat() if last["finished_at"] else None,
            "seconds": round(took.total_seconds(), 1) if took is not None else None,
        }
        if last["state"] == "failed":
            part.update(status=FAILING, why=f"the last rating run failed: {last['error'][:200]}")
    if waiting is not None and part["oldest_waiting_seconds"] > settings.HEALTH_RATING_MAX_WAIT:
        part.update(status=FAILING, why=f"a rating request has waited over {settings.HEALTH_RATING_MAX_WAIT} s")
    return part


def backups(now: datetime.datetime) -> dict:
    """The nightly backup (operations/backup): failing when the last one failed, or when the last good
    one is older than HEALTH_BACKUP_MAX_AGE (a night missed); "not used" without BACKUP_DIR."""
    if not settings.BACKUP_DIR:
        return {"status": NOT_USED, "why": "BACKUP_DIR is not set: no nightly backup"}
    last, good = backup_selectors.last_backup(), backup_selectors.last_good_backup()
    part = {
        "last": last.started_at.isoformat() if last else None,
        "last_good": good.finished_at.isoformat() if good else None,
        "age_seconds": _age(good.finished_at if good else None, now),
    }
    if last is not None and not last.succeeded:
        return {"status": FAILING, **part, "why": f"the last backup failed: {last.error[:200]}"}
    if good is None or part["age_seconds"] > settings.HEALTH_BACKUP_MAX_AGE:
        return {"status": FAILING, **part, "why": f"no good backup in the last {settings.HEALTH_BACKUP_MAX_AGE} s"}
    return {"status": OK, **part}


def report(*, web_only: bool = False) -> dict:
    """The whole report (`web_only`: the database and the cache alone, what a web server needs to
    answer pages: for a load balancer, which must not take every web server out of rotation
    because a worker or a gateway is down)."""
    now = timezone.now()
    parts: dict = {"database": database(), "cache": cache_part()}
    if not web_only:
        parts["broker"], parts["queues"] = broker_and_queues(now)
        parts["beat"] = beat(now, parts["cache"]["status"] == OK)
        if parts["database"]["status"] == OK:
            try:
                parts["outbox"] = outbox(now)
                parts["rating_runs"] = rating_runs(now)
                parts["backup"] = backups(now)
            except Exception as error:  # the database went away between the checks
                parts["database"] = _failure("database", error)
        if parts["database"]["status"] != OK:
            parts.setdefault("outbox", {"status": UNKNOWN, "why": "the database is down"})
            parts.setdefault("rating_runs", {"status": UNKNOWN, "why": "the database is down"})
            parts.setdefault("backup", {"status": UNKNOWN, "why": "the database is down"})
    failing = [name for name, part in _flat(parts) if part.get("status") == FAILING]
    return {"status": FAILING if failing else OK, "failing": failing, "checked_at": now.isoformat(), "parts": parts}


def _flat(parts: dict):
    """("queues.celery", part), ("outbox.sms", part), ("database", part), ... in order."""
    for name, part in parts.items():
        if "status" in part:
            yield name, part
        else:
            for sub, value in part.items():
                yield f"{name}.{sub}", value
