"""The arbiter's confirmation and its progress page (issue 35, 3): the confirming POST lands on
/arbiter/uploads/<pk>/progress/, which says where the tournament stands (queued and where, being
rated, rated, published, failed and why) in words that match it, asks again while something
waits, and links to the report once visitors see it. Under `runserver` without a broker the rating
run is handed to the in-process runner (toolkit/scheduler.py), never run inside the request;
everywhere else (commands, tests) it runs eagerly as before."""

from __future__ import annotations

import datetime
import logging

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.core.cache import cache
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from accounts.roles import ARBITERS, ensure_roles
from federation.celery import app
from ratings import services as rating_services
from ratings.models import RatingChange, RatingRequest
from tests.base import PASSWORD, ArbiterTestCase, federation_admin
from tests.tournaments.files import small_trf, trf, trf_player
from toolkit import pagecache, queueing
from toolkit.scheduler import TaskRunner
from tournaments import services
from tournaments.arbiters import co_arbiters
from tournaments.models import Tournament, Upload

RUN = "ratings.tasks.run_rating_requests"
State = RatingRequest.State


def confirm_data(name: str = "Spring Cup", day: str = "2026-03-01", **extra) -> dict:
    return {
        "action": "confirm",
        "name": name,
        "city": "Kazan",
        "start_date": day,
        "end_date": day,
        "rounds": 1,
        "time_control": "rapid",
        "mchess_weight": 250,
        "rate_mchess": "on",
        "rate_playchess": "on",
        **extra,
    }


def autumn_trf() -> bytes:
    """Another tournament of two other players (born on known days: the form asks nothing)."""
    return trf(
        [
            trf_player(1, "Sidorov,Oleg", 1700, birth="2012/02/03", rounds=[(2, "w", "=")]),
            trf_player(2, "Orlova,Anna", birth="2013/04/05", rounds=[(1, "b", "=")]),
        ],
        header=["012 Autumn Cup", "022 Kazan", "042 2026/09/01", "052 2026/09/01"],
    )


def progress_url(upload: Upload) -> str:
    return reverse("arbiter:upload_progress", args=[upload.pk])


class HandedToARunner:
    """What `runserver` sets up (toolkit.scheduler.runner_start), for one test: the rating runs are
    handed to a runner of their own, which starts working only when the test says so."""

    def __init__(self):
        self.runner = TaskRunner(app)

    def __enter__(self) -> TaskRunner:
        queueing.hand_to([RUN], self.runner.submit)
        return self.runner

    def __exit__(self, *exc):
        queueing.hand_to([], None)
        if self.runner.is_alive():
            self.runner.stop(60)


@pytest.fixture
def arbiter(db):
    ensure_roles(Group, Permission)  # a transactional test flushed the roles the migrations made
    user = get_user_model().objects.create_user("arbiter", "arbiter@example.org", PASSWORD)
    user.groups.add(Group.objects.get(name=ARBITERS))
    return user


@pytest.fixture
def arbiter_client(arbiter) -> Client:
    client = Client()
    client.force_login(arbiter)
    return client


@pytest.mark.django_db(transaction=True)
def test_it_keeps_the_eager_run_where_no_runner_is_registered_and_lands_on_the_rated_page(arbiter, arbiter_client):
    """Tests and commands: nothing registered, the run happens where it is sent (after the commit)."""
    assert queueing._runner is None
    upload = services.upload_create(user=arbiter, file_name="cup.trf", data=small_trf())
    response = arbiter_client.post(
        reverse("arbiter:preview", args=[upload.pk]), confirm_data(birth_1="2013"), follow=True
    )
    assert response.redirect_chain == [(progress_url(upload), 302)]
    page = response.content.decode()
    assert "Spring Cup is saved with 1 game." in page
    assert "waits" not in page and "waiting" not in page  # it is rated: nothing says it waits
    assert "Rated and published" in page and 'id="report-link"' in page
    assert "hx-trigger" not in page  # nothing waits: the page stops asking
    tournament = Tournament.objects.get()
    assert tournament.status == Tournament.Status.RATED
    assert f'href="{tournament.get_absolute_url()}"' in page


@pytest.mark.django_db(transaction=True)
def test_it_hands_the_run_to_the_runner_and_the_page_follows_it_to_the_report(arbiter, arbiter_client):
    upload = services.upload_create(user=arbiter, file_name="cup.trf", data=small_trf())
    with HandedToARunner() as runner:
        response = arbiter_client.post(reverse("arbiter:preview", args=[upload.pk]), confirm_data(birth_1="2013"))
        assert response.status_code == 302 and response["Location"] == progress_url(upload)
        # Nothing was rated in the request: the run waits for the runner.
        tournament = Tournament.objects.get()
        assert tournament.status == Tournament.Status.QUEUED
        assert not RatingChange.objects.exists()
        assert RatingRequest.objects.get(tournament=tournament).state == State.PENDING
        assert runner.waiting() == [RUN]

        page = arbiter_client.get(progress_url(upload)).content.decode()
        assert "Saved; waiting for its rating run" in page and "It is next in the queue." in page
        assert f'hx-get="{progress_url(upload)}" hx-trigger="every 1s"' in page
        assert 'src="/static/js/htmx.min.js"' in page and "<script>" not in page
        assert 'id="report-link"' not in page

        runner.start()
        assert runner.idle(120), "the runner never finished the run"
        part = arbiter_client.get(progress_url(upload), HTTP_HX_REQUEST="true")
        assert part["Vary"].count("HX-Request") == 1
        text = part.content.decode()
        assert text.startswith("<section") and "<html" not in text  # the part htmx swaps in
        assert 'data-state="published"' in text and "Rated and published" in text
        assert f'href="{tournament.get_absolute_url()}"' in text and "hx-trigger" not in text
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RATED and RatingChange.objects.filter(tournament=tournament).exists()


@pytest.mark.django_db(transaction=True)
def test_it_shows_a_failed_run_with_its_error_and_the_runner_rates_the_next_one(
    arbiter, arbiter_client, monkeypatch, caplog
):
    spring = services.upload_create(user=arbiter, file_name="spring.trf", data=small_trf())
    autumn = services.upload_create(user=arbiter, file_name="autumn.trf", data=autumn_trf())
    replay = rating_services.replay_from
    calls = []

    def failing_once(key):
        calls.append(key)
        if len(calls) == 1:
            raise ValueError("the crosstable disagrees with itself")
        return replay(key)

    monkeypatch.setattr(rating_services, "replay_from", failing_once)
    with HandedToARunner() as runner, caplog.at_level(logging.ERROR, logger="federation.scheduler"):
        runner.start()
        arbiter_client.post(reverse("arbiter:preview", args=[spring.pk]), confirm_data(birth_1="2013"))
        assert runner.idle(120)
        page = arbiter_client.get(progress_url(spring)).content.decode()
        assert 'data-state="failed"' in page and "The rating run failed" in page
        assert "What went wrong: ValueError: the crosstable disagrees with itself" in page
        assert "hx-trigger" not in page and "Rated" not in page
        assert "Task ratings.tasks.run_rating_requests failed" in caplog.text  # logged, not raised

        # The runner goes on: the next confirmation is rated.
        arbiter_client.post(reverse("arbiter:preview", args=[autumn.pk]), confirm_data("Autumn Cup", "2026-09-01"))
        assert runner.idle(120)
        assert runner.is_alive()
        assert 'data-state="published"' in arbiter_client.get(progress_url(autumn)).content.decode()
    assert Tournament.objects.get(name="Spring Cup").status == Tournament.Status.FAILED
    assert Tournament.objects.get(name="Autumn Cup").status == Tournament.Status.RATED


@pytest.mark.django_db(transaction=True)
def test_it_loses_no_run_handed_to_a_runner_that_stopped_before_starting_it(arbiter, arbiter_client, settings):
    upload = services.upload_create(user=arbiter, file_name="cup.trf", data=small_trf())
    with HandedToARunner() as lost:
        arbiter_client.post(reverse("arbiter:preview", args=[upload.pk]), confirm_data(birth_1="2013"))
        assert lost.waiting() == [RUN]  # the process stops here: its runner never starts
    request = RatingRequest.objects.get()
    assert request.state == State.PENDING and request.published_at is not None

    # The minute sweeper sends it again once its message may be lost (REPUBLISH_AFTER), to the runner
    # of the process that runs then.
    RatingRequest.objects.update(published_at=timezone.now() - rating_services.REPUBLISH_AFTER)
    with HandedToARunner() as runner:
        rating_services.sweep_requests()
        assert runner.waiting() == [RUN]
        assert not RatingChange.objects.exists()
    # And a new server's runner sends it at once when it starts, without waiting for the sweeper.
    from toolkit import scheduler

    settings.DEV_SCHEDULER = True
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(scheduler, "_runner", None)
        patch.setattr(queueing, "_runner", None)
        started = scheduler.runner_start()
        try:
            assert started.idle(120)
        finally:
            started.stop(60)
    assert Tournament.objects.get().status == Tournament.Status.RATED
    assert RatingRequest.objects.get().state == State.DONE


class Recorder:
    """Stands for the task: notes when each call starts and ends; the first call of `hold` waits."""

    def __init__(self, hold: str = ""):
        import threading

        self.events: list[str] = []
        self.hold = hold
        self.release = threading.Event()

    def __call__(self, app_, name, args) -> None:
        self.events.append(f"start {name}{list(args) or ''}")
        if name == self.hold and not self.release.is_set():
            assert self.release.wait(30)
        if name == "broken":
            self.events.append("raise broken")
            raise RuntimeError("broken task")
        self.events.append(f"end {name}")


def test_it_runs_one_task_at_a_time_in_order_each_waiting_once(caplog):
    recorder = Recorder(hold=RUN)
    runner = TaskRunner(app, run=recorder)
    runner.start()
    try:
        runner.submit(RUN)
        for _ in range(200):  # the first call has started and holds
            if recorder.events:
                break
            threading_sleep()
        # Sent again while it runs: it runs once more after it; sent twice while waiting: once.
        runner.submit(RUN)
        runner.submit(RUN)
        runner.submit("broken")
        runner.submit("other", (7,))
        assert runner.waiting() == [RUN, "broken", "other"]
        recorder.release.set()
        with caplog.at_level(logging.ERROR, logger="federation.scheduler"):
            assert runner.idle(30)
    finally:
        runner.stop(30)
    assert recorder.events == [
        f"start {RUN}",
        f"end {RUN}",
        f"start {RUN}",
        f"end {RUN}",
        "start broken",
        "raise broken",
        "start other[7]",  # the runner went on after the error
        "end other",
    ]
    assert "The task runner could not run broken" in caplog.text
    assert not runner.is_alive()


def threading_sleep() -> None:
    import time

    time.sleep(0.05)


class ProgressPageTestCase(ArbiterTestCase):
    """Who sees the page, and its words in each state, in English and Russian."""

    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        cls.staff = federation_admin()
        cls.co_arbiter = get_user_model().objects.create_user("co", "co@example.org", PASSWORD)
        cls.co_arbiter.groups.add(Group.objects.get(name=ARBITERS))
        cls.upload = services.upload_create(user=cls.arbiter, file_name="cup.trf", data=small_trf())
        with cls.captureOnCommitCallbacks(execute=True):
            details = services.TournamentDetails(
                name="Spring Cup",
                city="Kazan",
                chief_arbiter_name="",
                start_date=datetime.date(2026, 3, 1),
                end_date=datetime.date(2026, 3, 1),
                rounds=1,
                time_control="rapid",
                time_control_detail="",
                fide_rated=False,
                mchess_weight=250,
                rate_mchess=True,
                rate_playchess=True,
            )
            cls.tournament = services.tournament_confirm(
                upload=cls.upload,
                user=cls.arbiter,
                details=details,
                birth_dates={1: (datetime.date(2013, 1, 1), "year")},
            )
        co_arbiters.co_arbiter_add(tournament=cls.tournament, username="co", by=cls.arbiter)
        cls.url = progress_url(cls.upload)

    def page(self, language: str = "en") -> str:
        response = self.client.get(self.url, HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code == 200
        return response.content.decode()

    def test_it_shows_the_page_to_the_arbiter_his_co_arbiters_and_staff_only(self):
        answers = {}
        for who in ("arbiter", "co_arbiter", "staff", "admin", "other_arbiter", "player_user"):
            self.login(getattr(self, who))
            answers[who] = self.client.get(self.url).status_code
        assert answers == {
            "arbiter": 200,
            "co_arbiter": 200,
            "staff": 200,
            "admin": 200,
            "other_arbiter": 404,  # as another arbiter's preview: no such upload for him
            "player_user": 403,  # the arbiters' area is closed to him
        }
        self.client.logout()
        response = self.client.get(self.url)
        assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
        self.login(self.arbiter)
        assert self.client.post(self.url).status_code == 405  # a page to look at, nothing to send

    def test_it_sends_the_confirmed_uploads_preview_to_its_progress(self):
        self.login(self.arbiter)
        self.assertRedirects(self.client.get(reverse("arbiter:preview", args=[self.upload.pk])), self.url)

    def test_it_sends_an_upload_not_confirmed_to_its_preview(self):
        upload = services.upload_create(user=self.arbiter, file_name="other.trf", data=small_trf() + b"\n")
        self.login(self.arbiter)
        self.assertRedirects(self.client.get(progress_url(upload)), reverse("arbiter:preview", args=[upload.pk]))

    def _waiting(self, state: str = State.PENDING, **fields) -> RatingRequest:
        Tournament.objects.filter(pk=self.tournament.pk).update(status=Tournament.Status.QUEUED)
        return RatingRequest.objects.create(
            reason=RatingRequest.Reason.CONFIRM, tournament=self.tournament, state=state, **fields
        )

    def test_it_says_queued_with_its_place(self):
        self.login(self.arbiter)
        self._waiting()
        english, russian = self.page(), self.page("ru")
        assert "Saved; waiting for its rating run" in english and "It is next in the queue." in english
        assert "Сохранён; ждёт обсчёта рейтингов" in russian and "Он следующий в очереди." in russian
        for page in (english, russian):
            assert 'data-state="queued"' in page and "hx-trigger" in page and 'id="report-link"' not in page
        # A run of other changes, later than this tournament, is running: it goes first.
        RatingRequest.objects.create(
            reason="admin", since=datetime.date(2026, 6, 1), state=State.RUNNING, run_token="a" * 32
        )
        assert "1 rating run goes before it." in self.page()
        assert "Перед ним 1 обсчёт." in self.page("ru")

    def test_it_says_a_failed_attempt_tried_again(self):
        self.login(self.arbiter)
        self._waiting(error="OperationalError: the database went away", attempts=1)
        assert "The last attempt failed and the run is tried again: OperationalError" in self.page()
        assert "Прошлая попытка не удалась, обсчёт будет повторён: OperationalError" in self.page("ru")

    def test_it_says_being_rated(self):
        self.login(self.arbiter)
        started = timezone.now()
        self._waiting(State.RUNNING, run_token="b" * 32, started_at=started, heartbeat_at=started)
        english, russian = self.page(), self.page("ru")
        assert 'data-state="rating"' in english and "Being rated" in english
        assert "The rating run started at" in english and "hx-trigger" in english
        assert "Обсчитывается" in russian and "Обсчёт начался в" in russian

    @override_settings(PAGE_CACHE_SECONDS=3600)
    def test_it_says_rated_until_visitors_see_it_then_published_with_the_link(self):
        self.login(self.arbiter)
        cache.set(pagecache.DATABASE_KEY, "the stamp of the data before the run")  # the warming is not done
        english, russian = self.page(), self.page("ru")
        assert (
            'data-state="rated"' in english and "The ratings are saved; the public pages are being updated" in english
        )
        assert "hx-trigger" in english and 'id="report-link"' not in english
        assert "Рейтинги сохранены; публичные страницы обновляются" in russian
        for page in (english, russian):
            assert "wait" not in page and "ждёт" not in page
        cache.delete(pagecache.DATABASE_KEY)  # bumped: the next visitor reads the data as it is
        english, russian = self.page(), self.page("ru")
        assert "Rated and published" in english and "visitors see the report now" in english
        assert "Обсчитан и опубликован" in russian and "Публичный отчёт" in russian
        for page in (english, russian):
            assert 'id="report-link"' in page and "hx-trigger" not in page
            assert "wait" not in page and "ждёт" not in page
        pagecache.version()  # a visitor came: the stamp stored is the data's as it is now
        assert cache.get(pagecache.DATABASE_KEY) is not None
        assert 'data-state="published"' in self.page()

    def test_it_says_failed_with_the_error_to_the_arbiter_and_staff(self):
        Tournament.objects.filter(pk=self.tournament.pk).update(
            status=Tournament.Status.FAILED, status_detail="ValueError: a game against nobody"
        )
        for user in (self.arbiter, self.staff):
            self.login(user)
            english, russian = self.page(), self.page("ru")
            assert (
                "The rating run failed" in english and "What went wrong: ValueError: a game against nobody" in english
            )
            assert "Обсчёт не удался" in russian and "Что случилось: ValueError: a game against nobody" in russian
            assert "hx-trigger" not in english and 'id="report-link"' not in english

    def test_it_says_withdrawn(self):
        Tournament.objects.filter(pk=self.tournament.pk).update(status=Tournament.Status.WITHDRAWN)
        self.login(self.arbiter)
        assert "This tournament was withdrawn: it is not rated." in self.page()
        assert "Этот турнир отозван: он не обсчитывается." in self.page("ru")

    def test_it_links_the_confirmed_upload_from_the_arbiter_area(self):
        self.login(self.arbiter)
        self.assertContains(self.client.get(reverse("arbiter:home")), f'href="{self.url}"')
