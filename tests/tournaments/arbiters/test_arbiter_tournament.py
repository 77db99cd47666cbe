"""A confirmed tournament in the arbiter area: its chief arbiter names co-arbiters, they see it and its file."""

import datetime

from django.contrib.auth.models import Group
from django.urls import reverse

from accounts.models import AuditEntry
from accounts.roles import ARBITERS
from tests.base import BaseTestCase, federation_admin
from tests.tournaments.arbiters.test_upload_views import small_trf
from tournaments import services


class ArbiterTournamentTestCase(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        arbiters = Group.objects.get(name=ARBITERS)
        cls.arbiter.groups.add(arbiters)
        cls.other_arbiter.groups.add(arbiters)
        cls.staff = federation_admin()

    def setUp(self):
        upload = services.upload_create(user=self.arbiter, file_name="spring.trf", data=small_trf())
        self.tournament = services.tournament_confirm(
            upload=upload,
            user=self.arbiter,
            details=services.details_from_file(upload.preview["file"], name="Spring Cup"),
            choices={},
            birth_dates={1: (datetime.date(2013, 7, 1), "year")},
        )
        self.url = reverse("arbiter:tournament", args=[self.tournament.pk])
        self.file_url = reverse("arbiter:tournament_file", args=[self.tournament.pk])

    def test_it_shows_the_chief_arbiter_his_tournament_and_file(self):
        self.login(self.arbiter)
        self.assertContains(self.client.get(reverse("arbiter:home")), self.url)
        page = self.client.get(self.url)
        self.assertContains(page, "Spring Cup")
        self.assertContains(page, "spring.trf")
        self.assertContains(page, 'id="co-arbiter-form"')
        response = self.client.get(self.file_url)
        assert b"".join(response.streaming_content) == small_trf()
        assert 'filename="spring.trf"' in response["Content-Disposition"]

    def test_it_hides_the_tournament_from_everyone_else(self):
        for user in (self.other_arbiter, self.player_user):
            self.login(user)
            assert self.client.get(self.url).status_code == 404
            assert self.client.get(self.file_url).status_code == 404
            assert self.client.post(self.url, {"username": user.username}).status_code == 404
        self.client.logout()
        for url in (self.url, self.file_url):
            response = self.client.get(url)
            assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
        assert not self.tournament.co_arbiters.exists()

    def test_it_shows_a_named_co_arbiter_the_tournament_but_lets_him_name_nobody(self):
        self.login(self.arbiter)
        response = self.client.post(self.url, {"username": "Other_Arbiter"})
        self.assertRedirects(response, self.url)
        assert list(self.tournament.co_arbiters.all()) == [self.other_arbiter]
        entry = AuditEntry.objects.get(action="co_arbiter_added")
        assert (entry.actor, entry.after) == (self.arbiter, {"co_arbiter": "other_arbiter"})
        self.login(self.other_arbiter)
        self.assertContains(self.client.get(reverse("arbiter:home")), "Spring Cup")
        page = self.client.get(self.url)
        self.assertContains(page, "spring.trf")
        self.assertNotContains(page, 'id="co-arbiter-form"')
        assert self.client.get(self.file_url).status_code == 200
        assert self.client.post(self.url, {"remove": self.other_arbiter.pk}).status_code == 403
        assert self.tournament.co_arbiters.exists()

    def test_it_names_only_arbiters_and_each_once(self):
        self.login(self.arbiter)
        for username, message in (
            ("parent", "No arbiter has the user name parent"),
            ("nobody", "No arbiter has the user name nobody"),
            ("arbiter", "arbiter is the chief arbiter"),
        ):
            self.assertContains(self.client.post(self.url, {"username": username}), message, status_code=400)
        self.client.post(self.url, {"username": "other_arbiter"})
        response = self.client.post(self.url, {"username": "other_arbiter"})
        self.assertContains(response, "co-arbiter already", status_code=400)

    def test_it_lets_the_chief_or_the_federation_remove_a_co_arbiter(self):
        self.tournament.co_arbiters.add(self.other_arbiter)
        self.login(self.staff)
        assert self.client.get(self.url).status_code == 200
        self.client.post(self.url, {"remove": self.other_arbiter.pk})
        assert not self.tournament.co_arbiters.exists()
        assert AuditEntry.objects.get(action="co_arbiter_removed").actor == self.staff
        self.login(self.other_arbiter)
        assert self.client.get(self.url).status_code == 404

    def test_it_answers_a_bad_remove_value_with_a_clear_error_and_changes_nothing(self):
        self.tournament.co_arbiters.add(self.other_arbiter)
        self.login(self.arbiter)
        for value in ("abc", "", "-1", "0", "1.5", "9" * 30, str(self.player_user.pk)):
            response = self.client.post(self.url, {"remove": value})
            assert response.status_code == 400, value
            self.assertContains(response, 'id="remove-error"', status_code=400)
            self.assertNotContains(response, "This field is required", status_code=400)
            assert list(self.tournament.co_arbiters.all()) == [self.other_arbiter]
        assert not AuditEntry.objects.filter(action="co_arbiter_removed").exists()
        response = self.client.post(self.url, {"remove": "abc"}, HTTP_ACCEPT_LANGUAGE="ru")
        self.assertContains(response, "Выберите в списке судью-помощника", status_code=400)
