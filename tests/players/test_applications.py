"""FIDE-rating import applications through the views, for every persona, and their effect."""

import datetime
import re
from unittest import mock

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core import mail
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from accounts.models import AuditEntry
from accounts.roles import ARBITERS
from players.models import FideImportApplication
from ratings.models import PlayerRating, RatingChange, RatingOverride
from tests.base import PASSWORD, BaseTestCase, federation_admin
from tests.players.factories import PlayerFactory
from tests.ratings.scenario import make_tournament

D = datetime.date


class ApplicationTestCase(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        cls.arbiter.groups.add(Group.objects.get(name=ARBITERS))
        cls.staff = federation_admin()
        cls.player = PlayerFactory(family_name="Orlova", given_names="Olga", birth_date=D(2012, 4, 4))

    def apply(self, **extra):
        data = {
            "federation_id": self.player.federation_id,
            "fide_id": 34100018,
            "fide_rating": 1650,
            "rating_list_month": "2026-11",
            "evidence_url": "https://ratings.fide.com/profile/34100018",
            **extra,
        }
        return self.client.post(reverse("players:apply"), data)

    def test_it_lets_a_player_apply_and_follow_the_application(self):
        self.login(self.player_user)
        response = self.apply(evidence_file=SimpleUploadedFile("card.pdf", b"%PDF-1.4 evidence"))
        self.assertRedirects(response, reverse("players:applications"))
        application = FideImportApplication.objects.get()
        assert (application.player, application.fide_rating, application.rating_list_month) == (
            self.player,
            1650,
            D(2026, 11, 1),
        )
        assert application.evidence_file.name.startswith("evidence/")
        self.assertContains(self.client.get(reverse("players:applications")), "pending review")
        # The evidence is private: the applicant cannot fetch it back, a reviewer can.
        assert self.client.get(reverse("staff:evidence", args=[application.pk])).status_code == 403
        self.login(self.staff)
        response = self.client.get(reverse("staff:evidence", args=[application.pk]))
        assert b"".join(response.streaming_content) == b"%PDF-1.4 evidence"

    def test_it_takes_a_new_player_with_name_and_birth_date(self):
        self.login(self.player_user)
        response = self.apply(
            federation_id="", new_family_name="Новикова", new_given_names="Ева", new_birth_date="2013-02-02"
        )
        assert response.status_code == 302
        assert FideImportApplication.objects.get().new_family_name == "Новикова"
        response = self.apply(federation_id="", new_family_name="", fide_id=1)
        assert response.status_code == 400
        self.assertContains(response, "federation id, or the new player", status_code=400)

    def test_it_refuses_a_second_pending_application_for_one_fide_id(self):
        self.login(self.player_user)
        self.apply()
        response = self.apply()
        self.assertContains(response, "already waiting for review", status_code=400)

    def test_it_keeps_the_anonymous_out_of_every_write_view(self):
        for url in (reverse("players:apply"), reverse("players:applications"), reverse("arbiter:upload")):
            response = self.client.get(url)
            assert response.status_code == 302 and response["Location"].startswith(reverse("login")), url
        for url in (reverse("players:review_queue"), reverse("players:review", args=[1])):
            assert self.client.get(url).status_code == 403, url

    def test_it_lets_only_accounts_with_the_player_role_apply(self):
        stranger = get_user_model().objects.create_user("stranger", "s@example.org", PASSWORD)
        self.login(stranger)
        assert self.client.get(reverse("players:apply")).status_code == 403
        assert self.apply().status_code == 403
        assert not FideImportApplication.objects.exists()

    def test_it_lets_only_federation_admins_review(self):
        self.login(self.player_user)
        self.apply()
        application = FideImportApplication.objects.get()
        for user in (self.player_user, self.arbiter):
            self.login(user)
            assert self.client.get(reverse("players:review_queue")).status_code == 403
            response = self.client.post(reverse("players:review", args=[application.pk]), {"decision": "approve"})
            assert response.status_code == 403
        application.refresh_from_db()
        assert application.status == "pending"
        self.login(self.staff)
        self.assertContains(self.client.get(reverse("players:review_queue")), "Orlova, Olga")

    def test_it_sets_the_ratings_from_today_on_approval_and_informs_the_applicant(self):
        self.login(self.player_user)
        self.apply()
        application = FideImportApplication.objects.get()
        self.login(self.staff)
        page = self.client.get(reverse("players:review", args=[application.pk]))
        self.assertContains(page, "The rule: from today, 1650 becomes the ORR rating")
        with self.captureOnCommitCallbacks(execute=True):
            response = self.client.post(
                reverse("players:review", args=[application.pk]), {"decision": "approve", "reason": "Profile checked"}
            )
        self.assertRedirects(response, reverse("players:review_queue"))
        application.refresh_from_db()
        assert (application.status, application.decided_by) == ("approved", self.staff)
        self.player.refresh_from_db()
        assert self.player.fide_id == 34100018
        ratings = dict(PlayerRating.objects.filter(player=self.player).values_list("system", "rating"))
        assert ratings == {"orr": 1650, "mchess": 16_500, "playchess": 1650}
        assert not PlayerRating.objects.get(player=self.player, system="orr").provisional
        entry = AuditEntry.objects.get(action="fide_application_approved")
        assert (entry.actor, entry.before, entry.after["ratings"]) == (
            self.staff,
            {"ratings": {}},
            {"orr": 1650, "mchess": 16_500, "playchess": 1650},
        )
        assert mail.outbox[-1].to == [self.player_user.email]
        assert "approved" in mail.outbox[-1].body
        self.login(self.player_user)
        self.assertContains(self.client.get(reverse("players:applications")), "approved")

    def test_it_keeps_existing_ratings_on_approval_unless_the_admin_replaces_them(self):
        kids = [self.player, *[PlayerFactory(birth_date=D(2012, 1, n + 1)) for n in range(5)]]
        tournament = make_tournament("Cup", D(2026, 1, 10), kids, seed=51)
        from ratings import services as rating_services

        rating_services.rating_run(tournament_id=tournament.pk)
        before = dict(PlayerRating.objects.filter(player=self.player).values_list("system", "rating"))
        self.login(self.player_user)
        self.apply()
        application = FideImportApplication.objects.get()
        self.login(self.staff)
        with self.captureOnCommitCallbacks(execute=True):
            self.client.post(reverse("players:review", args=[application.pk]), {"decision": "approve"})
        kept = dict(PlayerRating.objects.filter(player=self.player).values_list("system", "rating"))
        assert {k: kept[k] for k in ("orr", "mchess", "playchess")} == {
            k: before[k] for k in ("orr", "mchess", "playchess")
        }
        assert not RatingOverride.objects.exists()
        # A second application, approved with "replace", does replace them.
        self.login(self.player_user)
        self.apply(fide_rating=1700)
        second = FideImportApplication.objects.get(status="pending")
        self.login(self.staff)
        with self.captureOnCommitCallbacks(execute=True):
            self.client.post(
                reverse("players:review", args=[second.pk]), {"decision": "approve", "replace_existing": "on"}
            )
        replaced = dict(PlayerRating.objects.filter(player=self.player).values_list("system", "rating"))
        assert {k: replaced[k] for k in ("orr", "mchess", "playchess")} == {
            "orr": 1700,
            "mchess": 17_000,
            "playchess": 1700,
        }
        assert RatingChange.objects.filter(player=self.player).count() == 3  # the history itself is kept

    def test_it_needs_a_reason_to_reject_and_records_the_rejection(self):
        self.login(self.player_user)
        self.apply()
        application = FideImportApplication.objects.get()
        self.login(self.staff)
        response = self.client.post(reverse("players:review", args=[application.pk]), {"decision": "reject"})
        self.assertContains(response, "Say why", status_code=400)
        self.client.post(
            reverse("players:review", args=[application.pk]), {"decision": "reject", "reason": "Another player's id"}
        )
        application.refresh_from_db()
        assert (application.status, application.decision_reason) == ("rejected", "Another player's id")
        assert AuditEntry.objects.filter(action="fide_application_rejected", reason="Another player's id").exists()
        assert "Another player's id" in mail.outbox[-1].body
        assert not PlayerRating.objects.exists()

    def test_it_shows_duplicates_by_fide_id_and_refuses_to_approve_them(self):
        other = PlayerFactory(family_name="Orlova", given_names="O.", fide_id=34100018)
        self.login(self.player_user)
        self.apply()
        application = FideImportApplication.objects.get()
        self.login(self.staff)
        page = self.client.get(reverse("players:review", args=[application.pk]))
        self.assertContains(page, "Possible duplicates")
        self.assertContains(page, f"#{other.federation_id}")
        response = self.client.post(reverse("players:review", args=[application.pk]), {"decision": "approve"})
        self.assertContains(response, "merge the two records first", status_code=400)
        application.refresh_from_db()
        assert application.status == "pending"


class SignupAndLoginTestCase(BaseTestCase):
    def setUp(self):
        cache.clear()

    def test_it_signs_up_with_an_email_confirmation(self):
        response = self.client.post(
            reverse("signup"),
            {"username": "mother", "email": "Mother@Example.org", "password1": PASSWORD, "password2": PASSWORD},
        )
        self.assertContains(response, "mother@example.org")
        user = get_user_model().objects.get(username="mother")
        assert not user.is_active
        link = re.search(r"https?://[^/\s]+(/accounts/confirm/\S+/)", mail.outbox[-1].body).group(1)
        response = self.client.get(link, follow=True)
        self.assertContains(response, "Your account is confirmed.")
        user.refresh_from_db()
        assert user.is_active
        assert list(user.groups.values_list("name", flat=True)) == ["Players and parents"]
        assert self.client.get(reverse("players:apply")).status_code == 200

    def test_it_refuses_a_forged_confirmation_link(self):
        response = self.client.get(reverse("confirm", args=["not-a-token"]))
        assert response.status_code == 400

    @mock.patch("accounts.throttle._now", return_value=1_800_000_000.0)
    def test_it_locks_the_login_after_five_failures(self, _now):
        for _ in range(5):
            self.client.post(reverse("login"), {"username": "arbiter", "password": "wrong"})
        response = self.client.post(reverse("login"), {"username": "arbiter", "password": PASSWORD})
        self.assertContains(response, "Too many failed attempts")
        assert "_auth_user_id" not in self.client.session
        cache.clear()
        response = self.client.post(reverse("login"), {"username": "arbiter", "password": PASSWORD})
        assert response.status_code == 302


class CsrfTestCase(BaseTestCase):
    def test_it_demands_the_csrf_token_on_every_form(self):
        from django.test import Client

        client = Client(enforce_csrf_checks=True)
        client.force_login(self.player_user)
        response = client.post(reverse("players:apply"), {"fide_id": 1})
        assert response.status_code == 403
        assert not FideImportApplication.objects.exists()


class PrivateFilesTestCase(BaseTestCase):
    def test_it_gives_uploaded_evidence_and_result_files_no_public_address(self):
        from django.core.files.storage import storages

        from tests.tournaments.files import trf, trf_player
        from tournaments import services as tournament_services

        self.arbiter.groups.add(Group.objects.get(name=ARBITERS))
        upload = tournament_services.upload_create(
            user=self.arbiter,
            file_name="a.trf",
            data=trf([trf_player(1, "A,A", rounds=[(2, "w", "1")]), trf_player(2, "B,B", rounds=[(1, "b", "0")])]),
        )
        private = storages["private"]
        assert private.exists(upload.file.name)
        for prefix in ("/media/", "/private/", "/static/", "/"):
            assert self.client.get(f"{prefix}{upload.file.name}").status_code == 404
        try:
            url = upload.file.url
        except ValueError:
            url = None
        assert url is None
