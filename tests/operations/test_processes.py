"""The site's real processes with the operators' settings: gunicorn with PROMETHEUS_MULTIPROC_DIR
(two workers counted as one site), LOG_FORMAT=json (every line a JSON object, web and worker),
and SENTRY_DSN pointing at a fake Sentry on a local socket that receives a real view's error."""

from __future__ import annotations

import json
import re
import sys
import urllib.error
import urllib.request

import pytest
from prometheus_client.parser import text_string_to_metric_families

from federation.celery import app
from tests.fakes.sentry import FakeSentry
from tests.operations.conftest import celery_worker_args, free_port, process_env, wait_for

TOKEN = "a-metrics-token-of-test"


def get(url: str, token: str | None = None) -> tuple[int, bytes]:
    assert url.startswith("http://127.0.0.1:")
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"} if token else {})  # noqa: S310
    try:
        with urllib.request.urlopen(request, timeout=20) as response:  # noqa: S310 - a local test server
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def gunicorn(processes, tmp_path, **env):
    port = free_port()
    args = [sys.executable, "-m", "gunicorn", "-c", "federation/gunicorn.conf.py", "federation.wsgi"]
    server = processes(args, process_env(GUNICORN_BIND=f"127.0.0.1:{port}", **env), tmp_path / "gunicorn.log")
    origin = f"http://127.0.0.1:{port}"

    def answers():
        if server.process.poll() is not None:
            raise AssertionError(server.output()[-3000:])
        try:
            return get(f"{origin}/health/web/")[0] in (200, 503)
        except OSError:
            return False

    wait_for(answers, timeout=90, every=0.3, message="gunicorn to answer")
    return server, origin


# Celery's signal handler prints this one line itself, outside logging (celery/apps/worker.py).
CELERY_SHUTDOWN_NOTICE = re.compile(r"worker: (Warm|Cold) shutdown \(MainProcess\)")


def json_lines(text: str) -> list[dict]:
    """Every line of the output, each of which must be one JSON object."""
    records = []
    for line in text.splitlines():
        if line.strip() and not CELERY_SHUTDOWN_NOTICE.fullmatch(line.strip()):
            try:
                records.append(json.loads(line))
            except ValueError:
                raise AssertionError(f"not a JSON line: {line!r}") from None
    return records


def test_it_adds_up_the_metrics_of_every_gunicorn_worker_and_logs_json(processes, tmp_path, migrated_sqlite):
    metrics_dir = tmp_path / "metrics"
    metrics_dir.mkdir()
    server, origin = gunicorn(
        processes, tmp_path, DATABASE_URL=migrated_sqlite, WEB_CONCURRENCY=2, GUNICORN_THREADS=1,
        PROMETHEUS_MULTIPROC_DIR=metrics_dir, METRICS_TOKEN=TOKEN, LOG_FORMAT="json", DEV_SCHEDULER="false",
    )  # fmt: skip
    for _ in range(30):
        status, body = get(f"{origin}/health/")
        assert status == 200, body
    assert get(f"{origin}/no-such-page/")[0] == 404
    assert get(f"{origin}/metrics")[0] == 401
    # The workers write their counts to files there (one per process that answered); whichever
    # worker answers a scrape reports the sum of them all.
    assert list(metrics_dir.glob("counter_*.db"))
    for _ in range(4):
        status, body = get(f"{origin}/metrics", TOKEN)
        assert status == 200
        samples = {
            (s.name, s.labels.get("route"), s.labels.get("status")): s.value
            for family in text_string_to_metric_families(body.decode())
            for s in family.samples
        }
        assert samples[("federation_http_requests_total", "operations:health", "200")] == 30
        assert samples[("federation_http_requests_total", "<unmatched>", "404")] == 1
    server.stop()

    records = json_lines(server.output())
    assert any(r["logger"] == "django.request" and r.get("path") == "/no-such-page/" for r in records)
    assert any(r["logger"] == "gunicorn.error" and "Booting worker" in r["message"] for r in records)
    assert any(r["logger"] == "gunicorn.access" and "/health/" in r["message"] for r in records)
    assert all({"time", "level", "logger", "message"} <= set(r) for r in records)


def test_it_logs_json_from_a_celery_worker(processes, tmp_path, migrated_sqlite, redis_server):
    env = process_env(
        DATABASE_URL=migrated_sqlite, CELERY_BROKER_URL=redis_server.url(0), CACHE_URL=redis_server.url(1),
        CELERY_TASK_ALWAYS_EAGER="false", LOG_FORMAT="json",
        # Celery warns of root before any logging is set up; these tests run as root, a real worker does not.
        PYTHONWARNINGS="ignore:You're running the worker with superuser privileges",
    )  # fmt: skip
    worker = processes(celery_worker_args("celery"), env, tmp_path / "worker.log")
    worker.wait_for_output("ready.")
    with app.connection_for_write(redis_server.url(0)) as connection:
        app.send_task("operations.tasks.beat_tick", connection=connection)
    worker.wait_for_output("operations.tasks.beat_tick")
    wait_for(lambda: re.search(r"beat_tick\[[^\]]+\] succeeded", worker.output()), message="the tick to be done")
    worker.stop()
    records = json_lines(worker.output())
    assert any("ready." in r["message"] for r in records)
    done = [r for r in records if "operations.tasks.beat_tick" in r["message"] and "succeeded" in r["message"]]
    assert done and done[0]["level"] == "INFO"


@pytest.fixture
def sentry():
    fake = FakeSentry().start()
    yield fake
    fake.stop()


def test_it_sends_a_views_error_to_sentry(processes, tmp_path, sentry):
    # A database without its tables: the home page's first query raises in the view.
    server, origin = gunicorn(
        processes, tmp_path, DATABASE_URL=f"sqlite:///{tmp_path / 'empty.sqlite3'}", WEB_CONCURRENCY=1,
        SENTRY_DSN=sentry.dsn(), SENTRY_ENVIRONMENT="drill", SENTRY_RELEASE="federation@test",
    )  # fmt: skip
    assert get(f"{origin}/")[0] == 500
    events = wait_for(sentry.events, timeout=30, message="the error's envelope at the fake Sentry")
    event = events[0]
    assert event["exception"]["values"][-1]["type"] == "OperationalError"
    assert "no such table" in event["exception"]["values"][-1]["value"]
    assert event["environment"] == "drill" and event["release"] == "federation@test"
    assert event["request"]["url"].endswith("/")
    assert "cookies" not in event["request"] or not event["request"]["cookies"]
    assert sentry.requests[0][0] == "/api/1/envelope/"
    server.stop()


def test_it_sends_a_tasks_error_to_sentry_from_a_worker(processes, tmp_path, migrated_sqlite, redis_server, sentry):
    env = process_env(
        DATABASE_URL=migrated_sqlite, CELERY_BROKER_URL=redis_server.url(0), CACHE_URL=redis_server.url(1),
        CELERY_TASK_ALWAYS_EAGER="false", SENTRY_DSN=sentry.dsn(), SENTRY_ENVIRONMENT="drill",
    )  # fmt: skip
    worker = processes(celery_worker_args("celery"), env, tmp_path / "worker.log")
    worker.wait_for_output("ready.")
    with app.connection_for_write(redis_server.url(0)) as connection:
        # A message the task cannot take (an argument it has not): it raises in the worker.
        app.send_task("operations.tasks.beat_tick", args=["unexpected"], connection=connection)
    events = wait_for(sentry.events, timeout=30, message="the task's error at the fake Sentry")
    error = events[0]["exception"]["values"][-1]
    assert error["type"] == "TypeError" and "beat_tick" in error["value"]
    assert events[0]["environment"] == "drill"
    assert events[0]["extra"]["celery-job"]["task_name"] == "operations.tasks.beat_tick"


def test_it_shows_a_workers_rating_run_on_the_web_metrics_of_the_same_host(
    processes, tmp_path, migrated_sqlite, redis_server
):
    """gunicorn and a Celery worker (prefork) share PROMETHEUS_MULTIPROC_DIR, as on one host."""
    metrics_dir = tmp_path / "metrics"
    metrics_dir.mkdir()
    shared = {
        "DATABASE_URL": migrated_sqlite, "CELERY_BROKER_URL": redis_server.url(0), "CACHE_URL": redis_server.url(1),
        "CELERY_TASK_ALWAYS_EAGER": "false", "PROMETHEUS_MULTIPROC_DIR": metrics_dir, "METRICS_TOKEN": TOKEN,
    }  # fmt: skip
    worker_args = [a if a != "--pool=solo" else "--pool=prefork" for a in celery_worker_args("celery")]
    worker = processes([*worker_args, "--concurrency=1"], process_env(**shared), tmp_path / "worker.log")
    worker.wait_for_output("ready.")
    _, origin = gunicorn(processes, tmp_path, WEB_CONCURRENCY=1, **shared)
    with app.connection_for_write(redis_server.url(0)) as connection:
        app.send_task("ratings.tasks.rerate_since", connection=connection)  # the whole history, empty here
    # The worker's start-up sweeps succeed too: wait for the re-rating's own line.
    done = re.compile(r"Task ratings\.tasks\.rerate_since\[[^\]]+\] succeeded")
    wait_for(lambda: done.search(worker.output()), timeout=60, message="the re-rating to finish")

    status, body = get(f"{origin}/metrics", TOKEN)
    assert status == 200
    samples = {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(body.decode())
        for s in family.samples
    }
    assert samples[("federation_rating_runs_total", (("kind", "since"), ("outcome", "done")))] == 1
    assert samples[("federation_rating_run_duration_seconds_count", (("kind", "since"),))] == 1
    assert samples[("federation_broker_up", ())] == 1
