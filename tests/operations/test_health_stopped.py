"""/health/ answers 503 naming the part when the broker, the cache or the workers are stopped: each
on a redis-server of the test's own, killed to stop it, and a real Celery worker process."""

from __future__ import annotations

import time

import pytest
from django.core.cache import cache

from federation.celery import app
from operations.health import services
from tests.operations.conftest import celery_worker_args, process_env, wait_for

pytestmark = pytest.mark.django_db


def health(client):
    response = client.get("/health/")
    return response.status_code, response.json()


@pytest.fixture(autouse=True)
def _celery_conf_kept():
    """The Celery app reads Django's settings once, at its first use: read them before these tests
    change CELERY_TASK_ALWAYS_EAGER, and put back what the other tests run with."""
    eager = app.conf.task_always_eager
    yield
    app.conf.task_always_eager = eager


@pytest.fixture
def on_broker(settings, redis_server):
    """The site with `redis_server` as its broker (database 0) and its cache (database 1)."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_BROKER_URL = redis_server.url(0)
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": redis_server.url(1)}
    }
    return redis_server


def test_it_names_the_broker_when_it_is_stopped(client, on_broker):
    services.beat_tick_record()
    status, body = health(client)
    assert status == 200, body
    assert body["parts"]["broker"]["status"] == "ok"
    assert body["parts"]["queues"]["celery"] == {"status": "ok", "length": 0, "oldest_seconds": None}

    on_broker.kill()
    status, body = health(client)
    assert status == 503
    # The cache lived on the same server here: both are named, the queues are unknown, not failing.
    assert body["failing"] == ["cache", "broker"]
    assert "ConnectionError" in body["parts"]["broker"]["error"]
    assert body["parts"]["queues"]["celery"]["status"] == "unknown"


def test_it_names_the_broker_alone_when_only_the_broker_is_stopped(client, settings, redis_server):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_BROKER_URL = redis_server.url(0)
    services.beat_tick_record()  # the test's own cache (local memory or CI's Redis) keeps the tick
    assert health(client)[0] == 200
    redis_server.kill()
    status, body = health(client)
    assert status == 503 and body["failing"] == ["broker"]


def test_it_names_the_cache_when_it_is_stopped(client, settings, redis_server):
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": redis_server.url(1)}
    }
    assert health(client)[0] == 200
    assert client.get("/health/web/").status_code == 200
    redis_server.kill()
    status, body = health(client)
    assert status == 503 and body["failing"] == ["cache"]
    response = client.get("/health/web/")
    assert response.status_code == 503 and response.json()["failing"] == ["cache"]


def test_it_names_the_queue_when_its_workers_are_stopped(
    client, settings, on_broker, migrated_sqlite, processes, tmp_path
):
    settings.HEALTH_QUEUE_MAX_AGE = 2
    env = process_env(
        DATABASE_URL=migrated_sqlite,
        CELERY_BROKER_URL=on_broker.url(0),
        CACHE_URL=on_broker.url(1),
        CELERY_TASK_ALWAYS_EAGER="false",
    )
    worker = processes(celery_worker_args("celery"), env, tmp_path / "worker.log")
    worker.wait_for_output("ready.")
    with app.connection_for_write(on_broker.url(0)) as connection:
        # Beat's tick, as beat sends it: the worker records it in the shared cache.
        app.send_task("operations.tasks.beat_tick", connection=connection)
        wait_for(lambda: cache.get("operations:beat-tick") is not None, message="the worker to record the tick")
        status, body = health(client)
        assert status == 200, body
        assert body["parts"]["beat"]["status"] == "ok"

        worker.kill()
        app.send_task("operations.tasks.beat_tick", connection=connection)
        status, body = health(client)
        assert body["parts"]["queues"]["celery"]["length"] == 1
        time.sleep(2.5)
        status, body = health(client)
    assert status == 503
    assert body["failing"] == ["queues.celery"]
    queue = body["parts"]["queues"]["celery"]
    assert queue["length"] == 1 and queue["oldest_seconds"] > 2
    assert body["parts"]["queues"]["engine"]["status"] == "ok"
