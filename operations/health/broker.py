"""The Celery broker seen from outside: is it up, how many tasks wait in each worker queue and how
long the oldest has waited. With Redis a queue is a list: Celery pushes on the left and workers
take from the right, so the oldest task is the last item. Celery's messages carry no sending
time: `stamp` adds one to the headers of every task this process publishes (the web, the
workers, beat; connected in OperationsConfig.ready)."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass

import redis
from django.conf import settings

SENT_AT = "x-sent-at"  # seconds since the epoch, in every message's headers
TIMEOUT = 2  # seconds: a broker that does not answer in this time is as good as down


def stamp(headers: dict | None = None, **_kwargs) -> None:
    """before_task_publish: note when the message left (a retried message keeps its first time)."""
    if headers is not None:
        headers.setdefault(SENT_AT, time.time())


def used() -> bool:
    """False in the embedded mode: no broker, tasks run in the calling process."""
    return not settings.CELERY_TASK_ALWAYS_EAGER and settings.CELERY_BROKER_URL.startswith(("redis", "rediss"))


def queue_names() -> list[str]:
    """The queues workers take tasks from: the default one and every queue of CELERY_TASK_ROUTES."""
    names = {settings.CELERY_TASK_DEFAULT_QUEUE}
    names.update(route["queue"] for route in settings.CELERY_TASK_ROUTES.values() if "queue" in route)
    return sorted(names)


@dataclass(frozen=True)
class Queue:
    name: str
    length: int
    oldest_sent: float | None  # seconds since the epoch; None: empty, or a message without the stamp


def queues_read(names: list[str]) -> list[Queue]:
    """Every queue's length and oldest task, in one round trip; raises when the broker is down."""
    pipe = _client(settings.CELERY_BROKER_URL).pipeline(transaction=False)
    pipe.ping()
    for name in names:
        pipe.llen(name)
        pipe.lindex(name, -1)
    answers = pipe.execute()[1:]
    return [Queue(name, answers[2 * i], _sent(answers[2 * i + 1])) for i, name in enumerate(names)]


_clients: dict[str, redis.Redis] = {}


def _client(url: str) -> redis.Redis:
    """One client (a connection pool: threads share it, a forked process makes its own) per broker."""
    if url not in _clients:
        _clients[url] = redis.Redis.from_url(url, socket_timeout=TIMEOUT, socket_connect_timeout=TIMEOUT)
    return _clients[url]


def _sent(raw: bytes | None) -> float | None:
    if raw is None:
        return None
    try:
        value = json.loads(raw)["headers"].get(SENT_AT)
    except (ValueError, KeyError, TypeError, AttributeError):
        return None
    return float(value) if isinstance(value, int | float) else None
