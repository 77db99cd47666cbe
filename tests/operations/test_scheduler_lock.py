"""The locked scheduler (operations/scheduling/beat.py) in this process, against the real Redis: who
fires, what a beat taking over starts from, and a Redis it cannot reach. Two real beat processes
are in test_beat_lock.py. Needs Redis (CELERY_BROKER_URL)."""

from __future__ import annotations

import datetime
import uuid

import pytest
import redis
from celery import Celery
from django.conf import settings as django_settings

from operations.scheduling.beat import LockedScheduler
from tests.optional import require


@pytest.fixture
def broker(settings):
    require("redis")
    url = django_settings.CELERY_BROKER_URL
    settings.BEAT_LOCK_KEY = f"test-lock-{uuid.uuid4().hex[:10]}"
    settings.BEAT_LOCK_SECONDS = 30
    client = redis.Redis.from_url(url)
    yield url, client, settings.BEAT_LOCK_KEY
    client.delete(settings.BEAT_LOCK_KEY, f"{settings.BEAT_LOCK_KEY}:last-run", f"{settings.BEAT_LOCK_KEY}-queue")


def beat(url: str, queue: str) -> LockedScheduler:
    """A beat's scheduler with one job due at once (it last ran two minutes ago, every minute)."""
    app = Celery("lock-test", broker=url)
    app.conf.task_default_queue = queue
    app.conf.beat_schedule = {
        "sweep": {
            "task": "lock_test.sweep",
            "schedule": datetime.timedelta(minutes=1),
            "last_run_at": datetime.datetime.now(datetime.UTC) - datetime.timedelta(minutes=2),
        }
    }
    return LockedScheduler(app=app)


def test_it_fires_only_on_the_holder_and_a_new_holder_starts_from_the_last_run(broker):
    url, client, key = broker
    queue = f"{key}-queue"
    first, second = beat(url, queue), beat(url, queue)
    first.tick()
    assert first.holding and client.llen(queue) == 1  # the due job, sent once
    second.tick()
    assert not second.holding and client.llen(queue) == 1  # the standby sends nothing
    client.delete(key)  # the holder died: its key expired
    second.tick()
    # The new holder knows the job ran a moment ago (its own schedule says two minutes): not again.
    assert second.holding and client.llen(queue) == 1
    first.tick()
    assert not first.holding and client.llen(queue) == 1  # the old holder, back, stands by
    second.close()
    assert client.get(key) is None  # a clean stop hands over at once


def test_it_stands_by_without_firing_when_redis_cannot_be_reached(broker, monkeypatch):
    monkeypatch.delenv("CELERY_BROKER_URL", raising=False)  # Celery prefers it to the app's broker
    scheduler = beat("redis://127.0.0.1:1/0", "unreachable")
    assert scheduler.tick() == pytest.approx(10)
    assert not scheduler.holding
