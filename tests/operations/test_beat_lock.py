"""Exactly one scheduler: two real `celery beat` processes on Redis with the locked scheduler
(operations/scheduling/beat.py) and a schedule of seconds (tests/operations/beat_app.py). Each job
fires once per due moment, whichever beat fires it; the standby fires nothing while the holder
lives; killed, the holder is replaced within the lock's TTL. Needs Redis (CELERY_BROKER_URL)."""

from __future__ import annotations

import datetime
import itertools
import os
import re
import sys
import time
import uuid
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
import redis
from django.conf import settings

from tests.operations.conftest import Process
from tests.optional import require

ROOT = Path(__file__).resolve().parents[2]
TTL = 3
INTERVALS = {"every-second": 1.0, "every-three-seconds": 3.0}
LOCAL = ZoneInfo(settings.TIME_ZONE)
SENT = re.compile(r"^\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}): INFO/MainProcess\] Scheduler: Sending due task (\S+)")


@pytest.fixture
def broker():
    require("redis")
    return settings.CELERY_BROKER_URL


class Beat(Process):
    """A `celery beat` in its own process group, as on a host of its own."""

    def __init__(self, env: dict, log: Path):
        command = [sys.executable, "-m", "celery", "-A", "tests.operations.beat_app", "beat", "--loglevel=INFO"]
        super().__init__(command, env, log)

    def sends(self) -> list[tuple[float, str]]:
        found = []
        for line in self.output().splitlines():
            match = SENT.match(line)
            if match:
                # Logged on the local clock of Django's TIME_ZONE (Django sets the process's TZ).
                at = datetime.datetime.strptime(match[1], "%Y-%m-%d %H:%M:%S,%f").replace(tzinfo=LOCAL)
                found.append((at.timestamp(), match[2]))
        return found


def test_it_fires_each_job_once_per_due_moment_and_hands_over_when_the_holder_dies(broker, tmp_path):
    key = f"test-beat-{uuid.uuid4().hex[:10]}"
    queue = f"{key}-queue"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "federation.settings",
        "CELERY_BROKER_URL": broker,
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "CELERY_TASK_DEFAULT_QUEUE": queue,
        "BEAT_LOCK_KEY": key,
        "BEAT_LOCK_SECONDS": str(TTL),
    }
    client = redis.Redis.from_url(broker)
    first = Beat(env, tmp_path / "beat-1.log")
    second = None
    try:
        first.wait_for_output("taken by")
        second = Beat(env, tmp_path / "beat-2.log")
        second.wait_for_output("standing by")
        time.sleep(7)
        assert second.sends() == [], "the standby fired while the holder lived"
        assert client.get(key).decode().split(":")[1] == str(first.process.pid)
        first.kill()
        killed = time.time()
        second.wait_for_output("taken by", timeout=TTL + 5)
        took_over = time.time() - killed
        time.sleep(7)
    finally:
        first.stop()
        if second is not None:
            second.stop()
    sends = sorted(first.sends() + second.sends())
    try:
        queued = client.llen(queue)
    finally:
        client.delete(queue, key, f"{key}:last-run")
    # Every send beat logged reached the broker, and nothing else did.
    assert queued == len(sends)
    assert took_over <= TTL + 1.5
    after_kill = [at for at, _ in second.sends()]
    assert after_kill and min(after_kill) - killed <= TTL + 2
    for name, interval in INTERVALS.items():
        moments = [at for at, sent in sends if sent == name]
        assert len(moments) >= 14 / interval - 2, (name, moments)
        gaps = [b - a for a, b in itertools.pairwise(moments)]
        # Never twice for one due moment: consecutive sends are a whole interval apart (the log's
        # clock has milliseconds; beat fires a few milliseconds early at most).
        assert min(gaps) >= interval - 0.05, (name, gaps)
