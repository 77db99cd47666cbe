"""/health/ in the embedded mode (no broker, eager tasks) and the parts read from the database:
the outbox per channel, the rating runs, beat's tick; each threshold from the settings."""

from __future__ import annotations

import datetime

import pytest
from django.core.cache import cache
from django.utils import timezone

from play.models import Transmission
from ratings.models import RatingRequest

pytestmark = pytest.mark.django_db


def health(client, path="/health/"):
    response = client.get(path)
    assert response["Content-Type"] == "application/json"
    return response.status_code, response.json()


def outbound(channel: str, age: datetime.timedelta, delivery="pending"):
    return Transmission.objects.create(
        direction="out", channel=channel, party="white", kind="move", text="1. e4", delivery=delivery,
        at=timezone.now() - age,
    )  # fmt: skip


def test_it_answers_200_in_the_embedded_mode_and_says_what_is_not_used(client, django_assert_max_num_queries):
    with django_assert_max_num_queries(4):
        status, body = health(client)
    assert status == 200, body
    assert body["status"] == "ok" and body["failing"] == []
    parts = body["parts"]
    assert parts["database"]["status"] == "ok" and parts["cache"]["status"] == "ok"
    assert parts["broker"]["status"] == "not used"
    assert {name: part["status"] for name, part in parts["queues"].items()} == {
        "celery": "not used",
        "engine": "not used",
    }
    assert parts["beat"]["status"] == "not used"
    assert parts["outbox"] == {} and parts["rating_runs"] == {
        "status": "ok",
        "last": None,
        "oldest_waiting_seconds": None,
    }


def test_it_sets_no_cookie_and_is_never_cached(client):
    response = client.get("/health/")
    assert not response.cookies
    assert "no-store" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]
    assert client.post("/health/").status_code == 405


def test_it_names_a_channel_whose_oldest_pending_message_is_too_old(client, settings):
    settings.HEALTH_OUTBOX_MAX_AGE = 600
    outbound("telegram", datetime.timedelta(seconds=30))
    outbound("sms", datetime.timedelta(minutes=20))
    outbound("sms", datetime.timedelta(minutes=2))
    outbound("sms", datetime.timedelta(hours=5), delivery="sent")  # delivered: not waiting
    status, body = health(client)
    assert status == 503
    assert body["failing"] == ["outbox.sms"]
    sms, telegram = body["parts"]["outbox"]["sms"], body["parts"]["outbox"]["telegram"]
    assert sms["status"] == "failing" and sms["pending"] == 2 and 1190 < sms["age_seconds"] < 1300
    assert telegram["status"] == "ok" and telegram["pending"] == 1
    # The load balancers' check looks at what a web server needs only.
    status, body = health(client, "/health/web/")
    assert status == 200 and set(body["parts"]) == {"database", "cache"}


def test_it_names_the_rating_runs_when_the_last_failed_or_a_request_waits_too_long(client, settings):
    now = timezone.now()
    RatingRequest.objects.create(
        reason="admin", state="done", started_at=now - datetime.timedelta(seconds=50), finished_at=now
    )
    status, body = health(client)
    assert status == 200
    assert body["parts"]["rating_runs"]["last"]["state"] == "done"
    assert body["parts"]["rating_runs"]["last"]["seconds"] == 50.0

    RatingRequest.objects.create(reason="admin", state="failed", started_at=now, finished_at=now, error="boom")
    status, body = health(client)
    assert status == 503 and body["failing"] == ["rating_runs"]
    assert "boom" in body["parts"]["rating_runs"]["why"]

    RatingRequest.objects.create(reason="admin", state="done", started_at=now, finished_at=now)
    waiting = RatingRequest.objects.create(reason="admin")
    RatingRequest.objects.filter(pk=waiting.pk).update(created_at=now - datetime.timedelta(seconds=100))
    settings.HEALTH_RATING_MAX_WAIT = 200
    assert health(client)[0] == 200
    settings.HEALTH_RATING_MAX_WAIT = 60
    status, body = health(client)
    assert status == 503 and body["failing"] == ["rating_runs"]
    assert 99 < body["parts"]["rating_runs"]["oldest_waiting_seconds"] < 120


def test_it_reads_the_beat_tick_where_a_scheduler_runs(client, settings):
    settings.DEV_SCHEDULER = True  # runserver's scheduler in the embedded mode
    status, body = health(client)
    assert status == 503 and body["failing"] == ["beat"]
    assert body["parts"]["beat"]["last_tick"] is None
    # The scheduled task itself, as the scheduler runs it.
    from federation.celery import beat_schedule
    from toolkit import queueing

    queueing.task(beat_schedule()["beat-tick"]["task"]).apply()
    status, body = health(client)
    assert status == 200 and body["parts"]["beat"]["status"] == "ok"
    assert body["parts"]["beat"]["age_seconds"] < 5
    settings.HEALTH_BEAT_MAX_AGE = 61
    cache.set("operations:beat-tick", timezone.now() - datetime.timedelta(seconds=90), timeout=None)
    status, body = health(client)
    assert status == 503 and body["failing"] == ["beat"]


def backup_run(*, hours_ago: float, succeeded: bool, error: str = "") -> None:
    from operations.backup.models import BackupRun

    finished = timezone.now() - datetime.timedelta(hours=hours_ago)
    BackupRun.objects.create(
        started_at=finished - datetime.timedelta(seconds=30), finished_at=finished, succeeded=succeeded,
        directory="/var/backups/federation", name="" if error else "20261126-030000", error=error,
    )  # fmt: skip


def test_it_names_the_backup_when_a_night_is_missed_or_the_last_one_failed(client, settings, tmp_path):
    settings.BACKUP_DIR = str(tmp_path)
    settings.HEALTH_BACKUP_MAX_AGE = 26 * 3600
    status, body = health(client)
    assert status == 503 and body["failing"] == ["backup"]
    assert body["parts"]["backup"]["why"] == "no good backup in the last 93600 s"

    backup_run(hours_ago=3, succeeded=True)
    status, body = health(client)
    assert status == 200 and body["parts"]["backup"]["status"] == "ok"
    assert body["parts"]["backup"]["age_seconds"] == pytest.approx(3 * 3600, abs=5)

    backup_run(hours_ago=0.5, succeeded=False, error="pg_dump: error: connection refused")
    status, body = health(client)
    assert status == 503 and body["failing"] == ["backup"]
    assert body["parts"]["backup"]["why"] == "the last backup failed: pg_dump: error: connection refused"


def test_it_says_the_backup_is_not_used_without_a_backup_folder(client, settings):
    settings.BACKUP_DIR = None
    backup_run(hours_ago=200, succeeded=True)
    status, body = health(client)
    assert status == 200 and body["parts"]["backup"]["status"] == "not used"


def test_it_names_the_backup_when_the_last_good_one_is_too_old(client, settings, tmp_path):
    settings.BACKUP_DIR = str(tmp_path)
    backup_run(hours_ago=27, succeeded=True)
    status, body = health(client)
    assert status == 503 and body["failing"] == ["backup"]
