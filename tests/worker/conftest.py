"""Real Celery workers on Redis against the test PostgreSQL database.

Each test starts its own worker process (`celery -A federation worker`) with the test
database's URL and a queue of its own, so no message of another test can reach it.
They need DATABASE_URL (PostgreSQL) and CELERY_BROKER_URL (Redis), as CI sets them;
on a bare checkout (SQLite, eager tasks) they are skipped (tests/optional.py), and in
CI's full pass a missing service is a failure.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from federation.celery import app
from tests.optional import require

ROOT = Path(__file__).resolve().parents[2]


class Worker:
    def __init__(self, queue: str, env: dict):
        self.queue = queue
        self.env = env
        self.process: subprocess.Popen | None = None
        self.log = ROOT / f".worker-{queue}.log"

    def start(self) -> None:
        self.process = subprocess.Popen(  # noqa: S603 - our own interpreter and arguments
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "federation",
                "worker",
                "--pool=prefork",
                "--concurrency=1",
                "--loglevel=INFO",
                "--without-heartbeat",
                "--without-mingle",
                "--without-gossip",
                "-Q",
                self.queue,
                "-n",
                f"{self.queue}@%h",
            ],
            cwd=ROOT,
            env=self.env,
            stdout=self.log.open("ab"),
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: SIGKILL reaches the pool child too
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the worker exited at start:\n{self.log.read_text()[-3000:]}")
            if "ready." in self.log.read_text(errors="replace"):
                return
            time.sleep(0.2)
        raise RuntimeError(f"the worker did not start:\n{self.log.read_text()[-3000:]}")

    def kill(self) -> None:
        """SIGKILL the whole worker, main process and pool child alike: no chance to clean up."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)


@pytest.fixture
def worker_factory(transactional_db, tmp_path):
    """Start workers on a fresh queue; tasks sent by this test go to that queue."""
    require("postgresql", "redis")
    queue = f"test-{uuid.uuid4().hex[:10]}"
    db = connection.settings_dict
    url = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    if db.get("PASSWORD"):
        url = f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT'] or 5432}/{db['NAME']}"
    base_env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "federation.settings",
        "DATABASE_URL": url,
        "DATABASE_CONN_MAX_AGE": "0",
        "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "CELERY_TASK_DEFAULT_QUEUE": queue,
        "GCR_DEBOUNCE_SECONDS": "0",
        "PRIVATE_ROOT": str(tmp_path),
    }
    previous = (app.conf.task_always_eager, app.conf.task_default_queue)
    app.conf.task_always_eager = False
    app.conf.task_default_queue = queue
    workers: list[Worker] = []

    def start(**env) -> Worker:
        worker = Worker(queue, {**base_env, **{k: str(v) for k, v in env.items()}})
        worker.start()
        workers.append(worker)
        return worker

    yield start
    for worker in workers:
        worker.stop()
        log = worker.log.read_text(errors="replace") if worker.log.exists() else ""
        worker.log.unlink(missing_ok=True)
        if "Traceback" in log and "bad data" not in log:
            print(log[-4000:])  # shown with the test's output when it fails
    app.conf.task_always_eager, app.conf.task_default_queue = previous
    with app.connection_for_write() as conn:
        conn.default_channel.queue_delete(queue)


def wait_for(predicate, timeout: float = 90, every: float = 0.25, message: str = "condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(every)
    raise AssertionError(f"timed out after {timeout} s waiting for {message}")
