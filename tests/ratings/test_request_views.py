"""What people see of rating runs: a change saved while the broker is down answers a normal page
that says the run waits; the arbiter's page says waiting, running or failed, with a retry for staff."""

import datetime
import os

from django.contrib.auth.models import Group
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from accounts.roles import ARBITERS
from federation.celery import app
from ratings import services
from ratings.models import RatingChange, RatingRequest
from tests.base import BaseTestCase, federation_admin
from tests.ratings.scenario import children, make_tournament
from tests.ratings.test_requests import _fresh_pools, unused_port
from tests.tournaments.arbiters.test_upload_views import small_trf
from tournaments.models import Tournament, Upload

D = datetime.date
State = RatingRequest.State
WAITS = "its rating run waits for a worker"


class BrokerDown:
    """The Celery app pointed at a closed port, as if Redis were down."""

    def __enter__(self):
        self.saved = (app.conf.broker_url, app.conf.task_always_eager, os.environ.get("CELERY_BROKER_URL"))
        down = f"redis://127.0.0.1:{unused_port()}/0"
        os.environ["CELERY_BROKER_URL"] = down  # Celery reads it before its settings
        app.conf.broker_url, app.conf.task_always_eager = down, False
        _fresh_pools()
        return self

    def __exit__(self, *exc):
        app.conf.broker_url, app.conf.task_always_eager, env = self.saved
        if env is None:
            os.environ.pop("CELERY_BROKER_URL", None)
        else:
            os.environ["CELERY_BROKER_URL"] = env
        _fresh_pools()


class RatingQueueTestCase(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        cls.arbiter.groups.add(Group.objects.get(name=ARBITERS))
        cls.staff = federation_admin()

    def test_it_confirms_an_upload_with_the_broker_down_and_says_the_run_waits(self):
        self.login(self.arbiter)
        self.client.post(reverse("arbiter:upload"), {"file": SimpleUploadedFile("cup.trf", small_trf())})
        upload_url = reverse("arbiter:preview", args=[Upload.objects.get().pk])
        data = {
            "action": "confirm",
            "name": "Spring Cup",
            "start_date": "2026-03-01",
            "end_date": "2026-03-01",
            "rounds": 1,
            "time_control": "rapid",
            "mchess_weight": 250,
            "rate_mchess": "on",
            "birth_1": "2013",
        }
        with BrokerDown(), self.captureOnCommitCallbacks(execute=True):
            response = self.client.post(upload_url, data, follow=True)
        assert response.status_code == 200
        self.assertContains(response, "Spring Cup is saved with 1 game")
        self.assertContains(response, WAITS)
        tournament = Tournament.objects.get()
        assert tournament.status == Tournament.Status.QUEUED
        request = RatingRequest.objects.get(tournament=tournament)
        assert (request.state, request.published_at, request.reason) == (State.PENDING, None, "confirm")
        page = self.client.get(reverse("arbiter:tournament", args=[tournament.pk]))
        self.assertContains(page, "waiting for a worker since")
        russian = self.client.get(reverse("arbiter:tournament", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE="ru")
        self.assertContains(russian, "ждёт обработчика с")
        # The broker is back: the sweeper sends it (eager here, so it is rated at once).
        services.sweep_requests()
        tournament.refresh_from_db()
        assert tournament.status == Tournament.Status.RATED

    def test_it_withdraws_with_the_broker_down_and_the_later_tournaments_are_rerated_when_it_is_back(self):
        kids = children(8, seed=21)
        first = make_tournament("Stage 1", D(2025, 9, 6), kids, seed=21)
        second = make_tournament("Stage 2", D(2025, 10, 4), kids, seed=22)
        services.rating_run(tournament_id=first.pk)
        services.rating_run(tournament_id=second.pk)
        self.login(self.staff)
        with BrokerDown(), self.captureOnCommitCallbacks(execute=True):
            response = self.client.post(
                reverse("staff:withdraw", args=[first.pk]), {"reason": "Played under wrong rules"}, follow=True
            )
        assert response.status_code == 200
        self.assertContains(response, WAITS)
        assert Tournament.objects.get(pk=first.pk).status == Tournament.Status.WITHDRAWN
        request = RatingRequest.objects.get(reason="withdraw")
        assert (request.state, request.since) == (State.PENDING, first.end_date)
        # Still counted: nothing re-rated yet.
        assert RatingChange.objects.filter(tournament=first).exists()
        services.sweep_requests()
        assert not RatingChange.objects.filter(tournament=first).exists()
        assert set(
            RatingChange.objects.filter(tournament=second, system="orr").values_list("rating_before", flat=True)
        ) == {None}
        request.refresh_from_db()
        assert request.state == State.DONE

    def test_it_shows_the_arbiter_running_or_failed_and_lets_staff_retry(self):
        tournament = make_tournament("Cup", D(2025, 9, 6), children(6, seed=23), seed=23, chief_arbiter=self.arbiter)
        url = reverse("arbiter:tournament", args=[tournament.pk])
        retry = reverse("staff:rating_retry", args=[tournament.pk])
        started = timezone.now() - datetime.timedelta(minutes=3)
        request = RatingRequest.objects.create(
            reason="confirm", tournament=tournament, state=State.RUNNING, started_at=started, heartbeat_at=started
        )
        self.login(self.arbiter)
        page = self.client.get(url)
        self.assertContains(page, "running since")
        self.assertContains(page, "last heartbeat")
        RatingRequest.objects.filter(pk=request.pk).update(state=State.FAILED, error="ValueError: bad data in round 3")
        Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FAILED)
        page = self.client.get(url)
        self.assertContains(page, "failed: ValueError: bad data in round 3")
        self.assertNotContains(page, 'id="rating-retry"')  # the arbiter cannot retry
        assert self.client.post(retry).status_code == 403
        self.login(self.staff)
        page = self.client.get(url)
        self.assertContains(page, 'id="rating-retry"')
        with self.captureOnCommitCallbacks(execute=True):
            response = self.client.post(retry, follow=True)
        self.assertContains(response, "The rating run is queued again.")
        tournament.refresh_from_db()
        assert tournament.status == Tournament.Status.RATED  # eager: the retry ran at once
        assert not RatingRequest.objects.exclude(state=State.DONE).exists()

    def test_it_writes_a_request_for_every_other_change_and_none_raises_with_the_broker_down(self):
        from players.models import FideImportApplication
        from ratings.applications import application_decide
        from tests.players.factories import PlayerFactory
        from tournaments.corrections import services as corrections

        kids = children(8, seed=24)
        first = make_tournament("Stage 1", D(2025, 9, 6), kids, seed=24)
        second = make_tournament("Stage 2", D(2025, 10, 4), kids[:4] + [PlayerFactory() for _ in range(4)], seed=25)
        services.rating_run(tournament_id=first.pk)
        services.rating_run(tournament_id=second.pk)
        duplicate = second.participants.order_by("-start_number").first().player
        game = second.games.filter(kind="played").first()
        application = FideImportApplication.objects.create(
            applicant=self.player_user,
            player=PlayerFactory(),  # no rating yet: the FIDE rating becomes his
            fide_id=4100200,
            fide_rating=1650,
            rating_list_month=D(2025, 9, 1),
        )
        with BrokerDown():
            with self.captureOnCommitCallbacks(execute=True):
                corrections.game_correct(game=game, admin=self.staff, result="0-1", kind="played", reason="Misread")
            with self.captureOnCommitCallbacks(execute=True):
                corrections.players_merge(keep=kids[7], duplicate=duplicate, admin=self.staff, reason="Same boy")
            with self.captureOnCommitCallbacks(execute=True):
                corrections.birth_date_edit(
                    player=kids[1], birth_date=D(2014, 2, 2), precision="day", admin=self.staff, reason="Passport"
                )
            with self.captureOnCommitCallbacks(execute=True):
                application_decide(application=application, admin=self.staff, approve=True, reason="Checked")
        waiting = dict(
            RatingRequest.objects.filter(state=State.PENDING, published_at=None).values_list("reason", "since")
        )
        assert waiting == {
            "correction": second.end_date,
            "merge": second.end_date,
            "birth_date": first.end_date,
            "fide_import": timezone.localdate(),
        }
        services.sweep_requests()  # the broker is back
        assert not RatingRequest.objects.exclude(state=State.DONE).exists()
        assert RatingChange.objects.get(tournament=second, system="orr", player=game.black).score > 0
