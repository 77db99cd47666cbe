"""Real parts for the operations tests: redis-server processes of their own on free ports (killed
to stop a broker or a cache), a SQLite database file migrated once for the processes the tests
start (a Celery worker, gunicorn), and a Celery worker process on such a broker."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest
import redis

from tests.optional import redis_server_path, require
from tests.worker.conftest import wait_for

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class RedisServer:
    def __init__(self, tmp: Path):
        self.port = free_port()
        self.process = subprocess.Popen(  # noqa: S603 - Debian's redis-server, our arguments
            [
                *(redis_server_path(), "--port", str(self.port), "--bind", "127.0.0.1"),
                *("--save", "", "--appendonly", "no", "--dir", str(tmp)),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        wait_for(self._answers, timeout=20, message=f"redis-server on port {self.port}")

    def url(self, db: int) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def _answers(self) -> bool:
        try:
            return redis.Redis(port=self.port, socket_connect_timeout=0.5).ping()
        except redis.ConnectionError:
            return False

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)


@pytest.fixture
def redis_server(tmp_path):
    require("redis-server")
    server = RedisServer(tmp_path)
    yield server
    server.kill()


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory, migrated_sqlite_template) -> str:
    """A DATABASE_URL of a SQLite file with every migration applied, for the processes a test starts
    (a copy of the run's migrated template, tests/conftest.py)."""
    path = tmp_path_factory.mktemp("operations-db") / "site.sqlite3"
    shutil.copyfile(migrated_sqlite_template, path)
    return f"sqlite:///{path}"


def process_env(**extra) -> dict:
    """The environment of a process of the site started by a test: this one's, without the test
    settings and the services the test run was given, plus `extra`."""
    dropped = ("DJANGO_SETTINGS_MODULE", "DATABASE_URL", "CELERY_BROKER_URL", "CACHE_URL", "CELERY_TASK_ALWAYS_EAGER")
    env = {k: v for k, v in os.environ.items() if k not in dropped}
    env.update({"DJANGO_SETTINGS_MODULE": "federation.settings", "PYTHONUNBUFFERED": "1"})
    env.update({k: str(v) for k, v in extra.items()})
    return env


class Process:
    """A process of the site in its own process group, its output in a file."""

    def __init__(self, args: list[str], env: dict, log: Path):
        self.log = log
        self.process = subprocess.Popen(  # noqa: S603 - our own interpreter and arguments
            args, cwd=ROOT, env=env, stdout=log.open("ab"), stderr=subprocess.STDOUT, start_new_session=True
        )

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def wait_for_output(self, text: str, timeout: float = 60) -> None:
        def seen():
            if self.process.poll() is not None:
                raise AssertionError(f"the process exited:\n{self.output()[-3000:]}")
            return text in self.output()

        wait_for(seen, timeout=timeout, every=0.2, message=f"{text!r} in the output")

    def kill(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
def processes():
    started: list[Process] = []

    def start(args: list[str], env: dict, log: Path) -> Process:
        process = Process(args, env, log)
        started.append(process)
        return process

    yield start
    for process in started:
        process.stop()


def celery_worker_args(queue: str = "celery") -> list[str]:
    return [
        *(sys.executable, "-m", "celery", "-A", "federation", "-q", "worker", "--pool=solo", "--loglevel=INFO"),
        *("--without-heartbeat", "--without-mingle", "--without-gossip", "-Q", queue, "-n", f"{queue}-test@%h"),
    ]
