"""An admin's corrections through the views: withdraw, correct a result, merge, edit a birth date."""

import datetime

from django.contrib.auth.models import Group
from django.urls import reverse

from accounts.models import AuditEntry
from accounts.roles import ARBITERS
from players.models import Player
from ratings import services
from ratings.models import PlayerRating, RatingChange
from tests.base import BaseTestCase, federation_admin
from tests.players.factories import PlayerFactory
from tests.ratings.scenario import make_tournament, results_snapshot
from tournaments.models import Tournament

D = datetime.date


class CorrectionsTestCase(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        cls.arbiter.groups.add(Group.objects.get(name=ARBITERS))
        cls.staff = federation_admin()
        cls.kids = [PlayerFactory(birth_date=D(2013 + n % 4, 1 + n, 5)) for n in range(8)]
        cls.first = make_tournament("Stage 1", D(2025, 9, 6), cls.kids, seed=61)
        cls.second = make_tournament("Stage 2", D(2025, 10, 4), cls.kids, seed=62)
        services.rating_run(tournament_id=cls.first.pk)

    def forbidden_for_everyone_but_admins(self, url, data):
        self.client.logout()
        response = self.client.post(url, data)
        assert response.status_code in (302, 403)
        for user in (self.player_user, self.arbiter):
            self.login(user)
            assert self.client.post(url, data).status_code == 403
        self.client.logout()

    def test_it_unrates_a_withdrawn_tournament_and_rerates_the_later_ones(self):
        url = reverse("staff:withdraw", args=[self.first.pk])
        self.forbidden_for_everyone_but_admins(url, {"reason": "x"})
        assert Tournament.objects.get(pk=self.first.pk).status == "rated"
        self.login(self.staff)
        with self.captureOnCommitCallbacks(execute=True):
            response = self.client.post(url, {"reason": "Played under wrong rules"})
        self.assertRedirects(response, reverse("tournaments:list"))
        assert Tournament.objects.get(pk=self.first.pk).status == "withdrawn"
        assert not RatingChange.objects.filter(tournament=self.first).exists()
        # The second stage is now everyone's first: all newcomers again.
        assert set(
            RatingChange.objects.filter(tournament=self.second, system="orr").values_list("rating_before", flat=True)
        ) == {None}
        history = results_snapshot()
        services.rerate_since(since=None)
        assert results_snapshot() == history
        entry = AuditEntry.objects.get(action="tournament_withdrawn")
        assert (entry.actor, entry.reason, entry.before) == (
            self.staff,
            "Played under wrong rules",
            {"status": "rated"},
        )
        assert self.client.get(self.first.get_absolute_url()).status_code == 404

    def test_it_rerates_from_the_tournament_of_a_corrected_result(self):
        game = self.first.games.filter(kind="played", result="1-0").first()
        url = reverse("staff:game", args=[game.pk])
        self.forbidden_for_everyone_but_admins(url, {"result": "0-1", "kind": "played", "reason": "x"})
        white_before = RatingChange.objects.get(tournament=self.first, player=game.white, system="orr").rating_after
        self.login(self.player_user)
        self.assertNotContains(self.client.get(game.white.get_absolute_url()), url)
        self.login(self.staff)
        # Staff reach the correction from the game's row on the player's page.
        self.assertContains(self.client.get(game.white.get_absolute_url()), url)
        with self.captureOnCommitCallbacks(execute=True):
            response = self.client.post(url, {"result": "0-1", "kind": "played", "reason": "Scoresheet checked"})
        self.assertRedirects(response, self.first.get_absolute_url())
        game.refresh_from_db()
        assert game.result == "0-1"
        white_after = RatingChange.objects.get(tournament=self.first, player=game.white, system="orr").rating_after
        assert white_after != white_before
        entry = AuditEntry.objects.get(action="game_corrected")
        assert (entry.before, entry.after) == ({"result": "1-0", "kind": "played"}, {"result": "0-1", "kind": "played"})

    def test_it_moves_everything_on_a_merge_and_redirects_the_old_record(self):
        duplicate = PlayerFactory(
            family_name=self.kids[0].family_name, given_names="Ivan", birth_date=self.kids[0].birth_date
        )
        third = make_tournament("Stage 3", D(2025, 11, 8), [duplicate, *self.kids[1:]], seed=63)
        services.rating_run(tournament_id=third.pk)
        keep = self.kids[0]
        url = reverse("staff:merge")
        data = {"keep": keep.federation_id, "duplicate": duplicate.federation_id, "reason": "Same boy"}
        self.forbidden_for_everyone_but_admins(url, {**data, "confirm": "1"})
        self.login(self.staff)
        preview = self.client.post(url, data)
        self.assertContains(preview, "Stage 3")
        assert Player.objects.get(pk=duplicate.pk).merged_into is None  # the preview changes nothing
        with self.captureOnCommitCallbacks(execute=True):
            response = self.client.post(url, {**data, "confirm": "1"})
        self.assertRedirects(response, keep.get_absolute_url())
        duplicate.refresh_from_db()
        assert duplicate.merged_into == keep
        assert third.participants.filter(player=keep).exists()
        assert not PlayerRating.objects.filter(player=duplicate).exists()
        assert RatingChange.objects.filter(player=keep, tournament=third, system="orr").exists()
        self.assertRedirects(self.client.get(duplicate.get_absolute_url()), keep.get_absolute_url())
        assert AuditEntry.objects.get(action="players_merged").after["participations"] == 1

    def test_it_refuses_to_merge_two_players_of_one_tournament(self):
        self.login(self.staff)
        data = {
            "keep": self.kids[0].federation_id,
            "duplicate": self.kids[1].federation_id,
            "reason": "x",
            "confirm": "1",
        }
        response = self.client.post(reverse("staff:merge"), data)
        self.assertContains(response, "they are two players", status_code=400)
        assert not Player.objects.filter(merged_into__isnull=False).exists()

    def test_it_shows_what_a_birth_date_change_would_change_then_applies_it(self):
        player = self.kids[0]
        url = reverse("staff:birth_date", args=[player.federation_id])
        self.forbidden_for_everyone_but_admins(url, {"birth_date": "2008", "reason": "x", "confirm": "1"})
        before = results_snapshot()
        self.login(self.staff)
        response = self.client.post(url, {"birth_date": "2008", "preview": "1"})
        differences = response.context["differences"]
        assert differences, "an older opponent changes the corridors of the newcomers who played him"
        assert results_snapshot() == before  # nothing changed yet
        player.refresh_from_db()
        assert player.birth_date.year != 2008
        response = self.client.post(url, {"birth_date": "2008", "confirm": "1", "reason": ""})
        assert response.status_code == 400  # a reason is required
        with self.captureOnCommitCallbacks(execute=True):
            self.client.post(url, {"birth_date": "2008", "confirm": "1", "reason": "Passport"})
        player.refresh_from_db()
        assert (player.birth_date, player.birth_precision) == (D(2008, 7, 1), "year")
        now = {(r.player_id, r.system): r.rating for r in PlayerRating.objects.exclude(system="gcr")}
        for difference in differences:
            assert now[(difference["player"].pk, difference["system"])] == difference["after"]
        assert AuditEntry.objects.get(action="birth_date_edited").reason == "Passport"

    def test_it_shows_the_audit_log_to_admins_only(self):
        assert self.client.get(reverse("staff:audit")).status_code == 403
        self.login(self.arbiter)
        assert self.client.get(reverse("staff:audit")).status_code == 403
        self.login(self.staff)
        self.assertContains(self.client.get(reverse("staff:audit")), "Audit log")
