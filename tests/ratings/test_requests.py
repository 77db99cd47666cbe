"""Rating requests: the durable "re-rate from here" each change writes, claimed and coalesced by a
run, put back when its worker is gone, sent again when the broker was down."""

import datetime
import socket
from unittest import mock

import pytest
from django.utils import timezone

from federation.celery import app
from ratings import forked, services
from ratings.models import RatingChange, RatingRequest
from ratings.replay import replay_from, tournament_key
from tests.ratings.scenario import children, make_tournament
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

D = datetime.date
Reason = RatingRequest.Reason
State = RatingRequest.State


def unused_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _fresh_pools():
    app._pool = None
    app.amqp._producer_pool = None


@pytest.fixture
def broker_down(monkeypatch):
    """The Celery app pointed at a closed port, as if Redis were down; `back()` restores it."""
    saved = (app.conf.broker_url, app.conf.task_always_eager)
    down = f"redis://127.0.0.1:{unused_port()}/0"

    def back():
        monkeypatch.undo()  # Celery reads CELERY_BROKER_URL from the environment before its settings
        app.conf.broker_url, app.conf.task_always_eager = saved
        _fresh_pools()

    monkeypatch.setenv("CELERY_BROKER_URL", down)
    app.conf.task_always_eager = False
    app.conf.broker_url = down
    _fresh_pools()
    yield back
    back()


def requests_for(tournament):
    return list(RatingRequest.objects.filter(tournament=tournament).values_list("state", flat=True))


def test_it_coalesces_the_pending_requests_into_one_run_from_the_earliest_place():
    kids = children(8, seed=1)
    later = make_tournament("Later", D(2025, 10, 4), kids, seed=2)
    earlier = make_tournament("Earlier", D(2025, 9, 6), kids, seed=1)
    services.rating_request(reason=Reason.CONFIRM, tournament=later)
    services.rating_request(reason=Reason.CONFIRM, tournament=earlier)
    with mock.patch("ratings.services.replay_from", wraps=replay_from) as replay:
        services.run_requests(worker="w1@host")
    replay.assert_called_once_with(tournament_key(earlier))
    for tournament in (earlier, later):
        tournament.refresh_from_db()
        assert tournament.status == Tournament.Status.RATED
    done = RatingRequest.objects.get(tournament=later)
    assert (done.state, done.worker, done.attempts) == (State.DONE, "w1@host", 1)
    assert done.started_at <= done.finished_at and done.heartbeat_at is not None
    # A second delivery of the same message finds nothing to do.
    assert services.run_requests(worker="w2@host") is None
    assert RatingRequest.objects.get(pk=done.pk).worker == "w1@host"


def test_it_rerates_from_a_requested_date_and_brings_back_failed_tournaments():
    kids = children(8, seed=3)
    first = make_tournament("First", D(2025, 9, 6), kids, seed=3)
    second = make_tournament("Second", D(2025, 10, 4), kids, seed=4, status=Tournament.Status.FAILED)
    services.rating_run(tournament_id=first.pk)
    services.rating_request(reason=Reason.BIRTH_DATE, since=D(2025, 9, 1))
    services.run_requests()
    second.refresh_from_db()
    assert second.status == Tournament.Status.RATED
    assert RatingChange.objects.filter(tournament=second).exists()


def test_it_claims_only_pending_requests():
    kids = children(6, seed=5)
    tournament = make_tournament("Cup", D(2025, 9, 6), kids, seed=5)
    now = timezone.now()
    running = RatingRequest.objects.create(
        reason=Reason.CONFIRM, tournament=tournament, state=State.RUNNING, started_at=now, heartbeat_at=now, worker="a"
    )
    RatingRequest.objects.create(reason=Reason.ADMIN, state=State.DONE)
    assert services.run_requests(worker="b") is None
    running.refresh_from_db()
    assert (running.state, running.worker) == (State.RUNNING, "a")


def test_it_puts_back_a_run_whose_heartbeat_stopped_and_leaves_a_live_one(settings):
    now = timezone.now()
    silent = now - datetime.timedelta(seconds=settings.RATING_RUN_STALE_SECONDS + 1)
    lost = RatingRequest.objects.create(
        reason=Reason.ADMIN, state=State.RUNNING, started_at=silent, heartbeat_at=silent, worker="gone@host"
    )
    alive = RatingRequest.objects.create(
        reason=Reason.ADMIN, state=State.RUNNING, started_at=silent, heartbeat_at=now, worker="busy@host"
    )
    assert services.recover_requests() == 1
    lost.refresh_from_db()
    alive.refresh_from_db()
    assert (lost.state, lost.published_at, lost.run_token) == (State.PENDING, None, "")
    assert "gone@host" in lost.error
    assert alive.state == State.RUNNING
    # A worker that starts under the name of the one that ran it knows that one is dead; a run it
    # has begun itself since it started is its own.
    assert services.recover_requests(worker="busy@host", started=silent) == 0
    assert services.recover_requests(worker="busy@host", started=now) == 1
    alive.refresh_from_db()
    assert alive.state == State.PENDING


def test_it_fails_a_run_whose_worker_was_killed_every_time(settings):
    tournament = make_tournament("Cup", D(2025, 9, 6), children(4, seed=13), seed=13)
    silent = timezone.now() - datetime.timedelta(seconds=settings.RATING_RUN_STALE_SECONDS + 1)
    RatingRequest.objects.create(
        reason=Reason.CONFIRM,
        tournament=tournament,
        state=State.RUNNING,
        started_at=silent,
        heartbeat_at=silent,
        worker="w@host",
        attempts=settings.RATING_RUN_MAX_ATTEMPTS,
    )
    assert services.recover_requests() == 1
    request = RatingRequest.objects.get(tournament=tournament)
    tournament.refresh_from_db()
    assert request.state == State.FAILED
    assert f"stopped during the run, {settings.RATING_RUN_MAX_ATTEMPTS} times" in request.error
    assert tournament.status == Tournament.Status.FAILED


def test_it_fails_a_failing_run_with_its_reason_for_the_request_and_the_tournament():
    kids = children(8, seed=6)
    tournament = make_tournament("Cup", D(2025, 9, 6), kids, seed=6)
    services.rating_request(reason=Reason.CONFIRM, tournament=tournament)
    broken = mock.patch("ratings.engines.orr.rate_tournament", side_effect=ValueError("bad data in round 3"))
    with broken, pytest.raises(ValueError, match="bad data"):
        services.run_requests()
    request = RatingRequest.objects.get(tournament=tournament)
    tournament.refresh_from_db()
    assert request.state == State.FAILED and "bad data in round 3" in request.error
    assert tournament.status == Tournament.Status.FAILED and "bad data in round 3" in tournament.status_detail
    assert not RatingChange.objects.exists()


def test_it_tries_a_failed_forked_process_again_then_fails_it_visibly(settings):
    kids = children(6, seed=7)
    tournament = make_tournament("Cup", D(2025, 9, 6), kids, seed=7)
    services.rating_request(reason=Reason.CONFIRM, tournament=tournament)
    died = mock.patch("ratings.services.replay_from", side_effect=forked.ChildFailed("ended without a result"))
    with died:
        for attempt in range(1, settings.RATING_RUN_MAX_ATTEMPTS):
            with pytest.raises(services.TransientError):
                services.run_requests()
            request = RatingRequest.objects.get(tournament=tournament)
            assert (request.state, request.attempts) == (State.PENDING, attempt)
            assert "ended without a result" in request.error
        with pytest.raises(forked.ChildFailed):
            services.run_requests()
    request.refresh_from_db()
    tournament.refresh_from_db()
    assert request.state == State.FAILED and tournament.status == Tournament.Status.FAILED
    # Staff's retry puts both back; the next run rates it and closes the request.
    staff = None
    assert services.retry_request(tournament=tournament, admin=staff) == 2
    services.run_requests()
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RATED
    assert set(requests_for(tournament)) == {State.DONE}


@pytest.mark.needs("postgresql")  # the split replay streams into a PostgreSQL COPY
def test_it_retries_a_real_failure_in_the_forked_orr_process(settings):
    settings.RATING_PARALLEL_MIN_GAMES = 0
    kids = children(8, seed=8)
    tournament = make_tournament("Cup", D(2025, 9, 6), kids, seed=8)
    services.rating_request(reason=Reason.CONFIRM, tournament=tournament)
    broken = mock.patch("ratings.engines.orr.rate_tournament", side_effect=ValueError("bad data in round 2"))
    with broken, pytest.raises(services.TransientError, match="bad data in round 2"):
        services.run_requests()
    request = RatingRequest.objects.get(tournament=tournament)
    assert request.state == State.PENDING and "bad data in round 2" in request.error
    services.run_requests()  # the child is fine this time
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RATED


def test_it_keeps_the_request_while_the_broker_is_down_and_the_sweeper_sends_it_later(
    broker_down, django_capture_on_commit_callbacks
):
    kids = children(6, seed=9)
    tournament = make_tournament("Cup", D(2025, 9, 6), kids, seed=9)
    with django_capture_on_commit_callbacks(execute=True):
        services.rating_request(reason=Reason.CONFIRM, tournament=tournament)
    # on_commit ran the publish: it failed quietly, the request waits unsent.
    request = RatingRequest.objects.get(tournament=tournament)
    assert (request.state, request.published_at) == (State.PENDING, None)
    assert services.sweep_requests() is False  # still down: the sweeper fails quietly too
    broker_down()  # the broker is back (eager here: the run happens inside the publish)
    assert services.sweep_requests() is True
    request.refresh_from_db()
    tournament.refresh_from_db()
    assert request.state == State.DONE and request.published_at is not None
    assert tournament.status == Tournament.Status.RATED


def test_it_gives_a_request_to_a_queued_tournament_that_has_none():
    kids = children(6, seed=10)
    tournament = make_tournament("Cup", D(2025, 9, 6), kids, seed=10)
    fresh = make_tournament("Fresh", D(2025, 9, 13), kids, seed=11)
    Tournament.objects.filter(pk=tournament.pk).update(updated_at=timezone.now() - datetime.timedelta(minutes=11))
    with mock.patch("ratings.tasks.run_rating_requests.apply_async"):  # sent, not run
        services.sweep_requests()
    assert requests_for(tournament) == [State.PENDING]
    assert requests_for(fresh) == []  # queued a moment ago: its own request is surely on its way


def test_it_closes_the_failed_requests_a_successful_run_covered():
    kids = children(6, seed=12)
    tournament = make_tournament("Cup", D(2025, 10, 4), kids, seed=12)
    failed = RatingRequest.objects.create(reason=Reason.MERGE, since=D(2025, 10, 1), state=State.FAILED, error="x")
    before = RatingRequest.objects.create(reason=Reason.MERGE, since=D(2025, 8, 1), state=State.FAILED, error="y")
    services.rating_request(reason=Reason.ADMIN, since=D(2025, 9, 1))
    services.run_requests()
    failed.refresh_from_db()
    before.refresh_from_db()
    assert failed.state == State.DONE  # re-rated from 1 September: 1 October is covered
    assert before.state == State.FAILED  # 1 August is not
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RATED


def test_it_sweeps_every_minute_and_when_a_worker_starts(settings):
    from celery.signals import worker_ready

    app.loader.import_default_modules()
    sweep = app.conf.beat_schedule["sweep-rating-requests"]
    assert sweep["task"] == "ratings.tasks.sweep_rating_requests" and sweep["task"] in app.tasks
    assert sweep["schedule"].minute == set(range(60))
    assert "requeue-stalled-tournaments" not in app.conf.beat_schedule  # replaced: it waited 15 minutes

    class Consumer:
        hostname = "celery@box"

    with mock.patch("ratings.tasks.sweep_rating_requests.apply_async") as send:
        worker_ready.send(sender=Consumer())
    # At once for the runs of a worker of its own name; later for any other lost worker's.
    first, later = send.call_args_list
    assert first.kwargs["kwargs"]["worker"] == "celery@box"
    started = datetime.datetime.fromisoformat(first.kwargs["kwargs"]["started"])
    assert abs(timezone.now() - started) < datetime.timedelta(seconds=5)
    assert later == mock.call(countdown=settings.RATING_RUN_STALE_SECONDS + 5)


def test_it_forgets_requests_done_a_month_ago():
    old = RatingRequest.objects.create(
        reason=Reason.ADMIN, state=State.DONE, finished_at=timezone.now() - datetime.timedelta(days=31)
    )
    recent = RatingRequest.objects.create(reason=Reason.ADMIN, state=State.DONE, finished_at=timezone.now())
    services.sweep_requests()
    assert list(RatingRequest.objects.values_list("pk", flat=True)) == [recent.pk]
    assert old.pk != recent.pk
