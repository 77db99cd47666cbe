"""Time runs in development too: without a broker, `manage.py runserver` runs the periodic jobs of
federation/celery.py itself (toolkit/scheduler.py), on Celery beat's own scheduler
driven here by a fake clock; never under tests, with a broker, in production, or switched off."""

from __future__ import annotations

import datetime
import logging
import os
import socket
import subprocess
import sys
import threading
import time
from io import StringIO
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import get_commands
from django.utils import timezone

from federation.celery import app
from toolkit import queueing, scheduler
from toolkit.management.commands.runserver import Command as Runserver
from toolkit.scheduler import EagerScheduler, SchedulerThread, TaskRunner

ROOT = Path(__file__).resolve().parents[2]
EVERY_MINUTE = {
    "sweep-rating-requests",
    "sweep-mobile-games",
    "sweep-mobile-outbox",
    "sweep-computer-moves",
    "beat-tick",
}


class Clock:
    """Celery's idea of now (every crontab and schedule entry asks app.now()), moved by hand."""

    def __init__(self, monkeypatch, start: datetime.datetime):
        self.now = start
        monkeypatch.setattr(app, "now", lambda: self.now)

    def advance(self, **delta) -> None:
        self.now += datetime.timedelta(**delta)


class Recorder:
    """Stands for the job runner: notes each job started; the named ones wait for a release."""

    def __init__(self, hold: frozenset[str] = frozenset()):
        self.started: list[str] = []
        self.hold = hold
        self.release = threading.Event()

    def __call__(self, app_, entry) -> None:
        self.started.append(entry.name)
        if entry.name in self.hold:
            assert self.release.wait(30), "the held job was never released"


def run_due(sched: EagerScheduler) -> None:
    """Tick until nothing more is due (tick() answers 0 after each job it started)."""
    for _ in range(100):
        if sched.tick() > 0:
            return
    raise AssertionError("the scheduler never ran out of due jobs")


def started_now(sched: EagerScheduler, recorder: Recorder, clock: Clock, **delta) -> set[str]:
    before = len(recorder.started)
    clock.advance(**delta)
    run_due(sched)
    sched.join(10)
    return set(recorder.started[before:])


def test_it_reads_the_one_schedule_and_runs_each_job_when_it_is_due(monkeypatch):
    clock = Clock(monkeypatch, datetime.datetime(2026, 3, 31, 23, 58, 30, tzinfo=datetime.UTC))
    recorder = Recorder()
    sched = EagerScheduler(app, run=recorder)
    assert set(sched.schedule) == set(app.conf.beat_schedule)  # nothing added, nothing left out
    assert {entry.task for entry in sched.schedule.values()} == {job["task"] for job in app.conf.beat_schedule.values()}

    assert started_now(sched, recorder, clock) == set()  # just started: nothing is due yet
    assert started_now(sched, recorder, clock, seconds=35) == EVERY_MINUTE  # 23:59:05
    assert started_now(sched, recorder, clock, seconds=10) == set()  # the same minute
    # 00:05:30 on the 1st: the minute sweeps (once, not once per missed minute), the five-minute
    # one, the inactivity penalty (00:01) and the month's lists (00:05).
    assert started_now(sched, recorder, clock, minutes=6, seconds=15) == EVERY_MINUTE | {
        "sweep-stalled-uploads",
        "mchess-inactivity-penalty",
        "publish-monthly-lists",
    }
    # The digest at PLAY_DIGEST_HOUR (UTC), once a day.
    clock.now = clock.now.replace(hour=settings.PLAY_DIGEST_HOUR, minute=0, second=40) + datetime.timedelta(days=1)
    assert "mobile-daily-digest" in started_now(sched, recorder, clock)
    assert "mobile-daily-digest" not in started_now(sched, recorder, clock, hours=1)
    assert set(recorder.started) == set(app.conf.beat_schedule)


def test_it_never_starts_a_job_again_while_its_last_turn_still_runs(monkeypatch, caplog):
    clock = Clock(monkeypatch, datetime.datetime(2026, 5, 4, 12, 0, 30, tzinfo=datetime.UTC))
    recorder = Recorder(hold=frozenset({"sweep-mobile-games"}))
    sched = EagerScheduler(app, run=recorder)
    clock.advance(minutes=1)
    run_due(sched)
    assert sched.running() == ["sweep-mobile-games"]
    with caplog.at_level(logging.WARNING, logger="federation.scheduler"):
        clock.advance(minutes=1)
        run_due(sched)
    assert recorder.started.count("sweep-mobile-games") == 1
    assert recorder.started.count("sweep-mobile-outbox") == 2  # the others keep their turns
    assert "sweep-mobile-games is still running from its last turn" in caplog.text
    recorder.release.set()
    sched.join(10)
    assert started_now(sched, recorder, clock, minutes=1) == EVERY_MINUTE
    assert recorder.started.count("sweep-mobile-games") == 2


def test_it_logs_a_failing_job_and_runs_it_again_at_its_next_turn(monkeypatch, caplog):
    def broken():
        raise RuntimeError("the outbox is broken")

    monkeypatch.setattr("play.tasks.outbox.outbox_sweep", broken)
    entry = EagerScheduler(app, run=Recorder()).schedule["sweep-mobile-outbox"]
    with caplog.at_level(logging.INFO, logger="federation.scheduler"):
        scheduler.job_run(app, entry)  # returns: the error is the log's, not the caller's
        scheduler.job_run(app, entry)
    failures = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(failures) == 2 and "Periodic job sweep-mobile-outbox (play.tasks.sweep_outbox) failed" in caplog.text
    assert "the outbox is broken" in failures[0].exc_text


def test_it_keeps_ticking_after_a_tick_fails(caplog):
    class Flaky:
        max_interval = 0.01

        def __init__(self):
            self.ticks = 0
            self.again = threading.Event()

        def tick(self):
            self.ticks += 1
            if self.ticks == 1:
                raise RuntimeError("the schedule could not be read")
            self.again.set()
            return 0.01

        def join(self, timeout=None):
            pass

    flaky = Flaky()
    loop = SchedulerThread(flaky)
    with caplog.at_level(logging.ERROR, logger="federation.scheduler"):
        loop.start()
        try:
            assert flaky.again.wait(30), "the loop stopped after the failed tick"
        finally:
            loop.stop(10)
    assert not loop.is_alive()
    assert "The periodic scheduler's tick failed" in caplog.text


def test_it_is_off_under_tests_and_starts_nothing_on_runserver():
    assert settings.DEV_SCHEDULER is False
    assert get_commands()["runserver"] == "toolkit"  # ours, not staticfiles' (which it extends)
    assert scheduler.scheduler_start() is None
    assert scheduler.runner_start() is None
    bound(Runserver(stdout=StringIO()))
    assert not [t for t in threading.enumerate() if t.name in ("periodic scheduler", "task runner")]
    assert queueing._runner is None  # tests run every task eagerly where it is sent


def bound(command: Runserver) -> None:
    command.addr, command._raw_ipv6, command.protocol = "127.0.0.1", False, "http"
    command.on_bind(8011)


def test_it_starts_the_scheduler_and_the_runner_once_in_the_serving_process(monkeypatch, settings):
    settings.DEV_SCHEDULER = True
    starts, runners = [], []
    monkeypatch.setattr(scheduler, "_started", None)
    monkeypatch.setattr(scheduler, "_runner", None)
    monkeypatch.setattr(queueing, "_runner", None)
    monkeypatch.setattr(SchedulerThread, "start", lambda self: starts.append(self))
    monkeypatch.setattr(TaskRunner, "start", lambda self: runners.append(self))
    bound(Runserver(stdout=StringIO()))
    bound(Runserver(stdout=StringIO()))
    assert len(starts) == 1
    assert set(starts[0].scheduler.schedule) == set(app.conf.beat_schedule)
    # The rating runs are handed to the runner from now on, in this process; it looks once at start.
    assert len(runners) == 1 and runners[0].waiting() == ["ratings.tasks.run_rating_requests"]
    assert queueing._runner == (frozenset(settings.DEV_RUNNER_TASKS), runners[0].submit)
    assert queueing.send("ratings.tasks.run_rating_requests") is None
    assert runners[0].waiting() == ["ratings.tasks.run_rating_requests"]  # the same wake-up, once


def settings_values(**env) -> list[str]:
    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='federation.settings'; django.setup();"
        "from django.conf import settings as s; print(s.DEV_SCHEDULER)"
    )
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO", "DATABASE", "CELERY", "DEV_"))}
    clean.update(env)
    result = subprocess.run(  # noqa: S603
        [sys.executable, "-c", code], cwd=ROOT, env=clean, capture_output=True, text=True, check=False
    )
    return [result.stdout.strip(), result.stderr]


def test_it_runs_the_periodic_jobs_in_development_only_without_a_broker():
    assert settings_values()[0] == "True"
    assert settings_values(DEV_SCHEDULER="false")[0] == "False"
    assert settings_values(CELERY_BROKER_URL="redis://127.0.0.1:6379/9")[0] == "False"  # `make beat` does
    refused = settings_values(CELERY_BROKER_URL="redis://127.0.0.1:6379/9", DEV_SCHEDULER="true")
    assert "DEV_SCHEDULER=true is for development without a broker" in refused[1]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_it_runs_the_periodic_jobs_under_the_real_runserver(tmp_path):
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO", "DATABASE", "CELERY", "DEV_"))}
    clean["DATABASE_URL"] = f"sqlite:///{tmp_path / 'dev.sqlite3'}"
    log = tmp_path / "runserver.log"
    with log.open("w") as out:
        server = subprocess.Popen(  # noqa: S603
            [sys.executable, "manage.py", "runserver", "--noreload", "--skip-checks", f"127.0.0.1:{free_port()}"],
            cwd=ROOT,
            env=clean,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        try:
            deadline = time.monotonic() + 60
            while "Tasks run in this process" not in log.read_text() and server.poll() is None:
                assert time.monotonic() < deadline, f"runserver never started its jobs and runner:\n{log.read_text()}"
                time.sleep(0.2)
        finally:
            server.terminate()
            server.wait(30)
    text = log.read_text()
    assert "Periodic jobs run in this process" in text, text
    assert "sweep-mobile-games" in text and "mobile-daily-digest" in text
    assert "Tasks run in this process, one at a time (DEV_SCHEDULER): ratings.tasks.run_rating_requests" in text


@pytest.mark.django_db(transaction=True)
def test_it_files_a_fallen_flags_claim_without_a_shell(monkeypatch):
    """The scheduler's thread against the test database: the game sweep, run on its own turn,
    files the time claim of a game whose flag fell, and its notices are written."""
    from play import services
    from play.models import MobileGame, Transmission
    from tests.players.factories import PlayerFactory

    white, black = PlayerFactory(), PlayerFactory()
    game = services.game_create(white=white, black=black, start=timezone.now() - datetime.timedelta(hours=5))
    MobileGame.objects.filter(pk=game.pk).update(white_channel="console", black_channel="console")
    clock = Clock(monkeypatch, timezone.now())
    loop = SchedulerThread(EagerScheduler(app, max_interval=0.05))
    loop.start()

    def claimed() -> bool:
        game.refresh_from_db()
        return game.termination == "pending claim" and Transmission.objects.filter(game=game, kind="claim").exists()

    try:
        deadline = time.monotonic() + 60
        while not claimed():
            assert time.monotonic() < deadline, "no periodic sweep filed the claim"
            clock.advance(minutes=1)  # time passes for the scheduler: each minute, the sweeps' turn
            time.sleep(0.2)
    finally:
        loop.stop(30)
    assert Transmission.objects.filter(game=game, kind="claim", party="white", direction="out").exists()
    assert Transmission.objects.filter(game=game, kind="claim", party="td").exists()
