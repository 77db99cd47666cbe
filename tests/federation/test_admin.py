"""Every model is in the Django admin, and every admin page opens for a superuser."""

import datetime

from django.contrib import admin
from django.urls import reverse

from players.models import FideImportApplication
from ratings.models import ProvisionalGame, RatingList, RatingListEntry, System
from tests.base import BaseTestCase
from tests.players.factories import ClubFactory, PlayerFactory
from tests.ratings.factories import PlayerRatingFactory, RatingChangeFactory
from tests.tournaments.factories import GameFactory, ParticipantFactory
from tournaments.models import Upload


class AdminPagesTestCase(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        player = PlayerFactory(club=ClubFactory(), fide_id=24100018)
        participant = ParticipantFactory(player=player)
        GameFactory(tournament=participant.tournament, white=player)
        PlayerRatingFactory(player=player)
        RatingChangeFactory(player=player, tournament=participant.tournament)
        ProvisionalGame.objects.create(
            player=player, tournament=participant.tournament, round=1, opponent_rating=1000, score=1
        )
        rating_list = RatingList.objects.create(system=System.ORR, month=datetime.date(2026, 11, 1))
        RatingListEntry.objects.create(rating_list=rating_list, player=player, rank=1, rating=1200)
        FideImportApplication.objects.create(
            applicant=cls.player_user,
            player=player,
            fide_id=24100018,
            fide_rating=1650,
            rating_list_month=datetime.date(2026, 11, 1),
        )
        Upload.objects.create(
            original_name="cup.trf",
            sha256="c" * 64,
            size=100,
            format="trf",
            uploaded_by=cls.arbiter,
            file="uploads/cup.trf",
        )

    def setUp(self):
        self.login(self.admin)

    def test_it_registers_every_model_of_the_platform(self):
        registered = {model._meta.label for model in admin.site._registry}
        for label in [
            "players.Player",
            "players.Club",
            "players.Region",
            "players.FideImportApplication",
            "tournaments.Tournament",
            "tournaments.Participant",
            "tournaments.Game",
            "tournaments.Upload",
            "ratings.PlayerRating",
            "ratings.RatingChange",
            "ratings.ProvisionalGame",
            "ratings.RatingList",
            "ratings.RatingListEntry",
        ]:
            assert label in registered, label

    def test_it_opens_every_changelist_search_add_and_change_page(self):
        for model, model_admin in admin.site._registry.items():
            opts = model._meta
            changelist = reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist")
            assert self.client.get(changelist).status_code == 200, changelist
            if model_admin.search_fields:
                response = self.client.get(changelist, {"q": "Playerov"})
                assert response.status_code == 200, changelist
            if model_admin.has_add_permission(self._request()):
                add = reverse(f"admin:{opts.app_label}_{opts.model_name}_add")
                assert self.client.get(add).status_code == 200, add
            obj = model.objects.first()
            if obj is not None:
                change = reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[obj.pk])
                assert self.client.get(change).status_code == 200, change

    def test_it_finds_a_latin_name_from_a_cyrillic_query(self):
        player = PlayerFactory(family_name="Smirnov", given_names="Oleg")
        response = self.client.get(reverse("admin:players_player_changelist"), {"q": "Смирнов"})
        self.assertContains(response, f">{player.federation_id}<")

    def test_it_finds_a_name_typed_given_name_first(self):
        player = PlayerFactory(family_name="Орлов", given_names="Иван")
        for query in ("Иван Орлов", "Ivan Orlov"):
            response = self.client.get(reverse("admin:players_player_changelist"), {"q": query})
            self.assertContains(response, f">{player.federation_id}<")

    def test_it_keeps_rating_data_read_only(self):
        response = self.client.get(reverse("admin:ratings_playerrating_add"))
        assert response.status_code == 403

    def test_it_keeps_the_admin_from_other_users(self):
        self.client.logout()
        self.login(self.arbiter)
        response = self.client.get(reverse("admin:index"))
        assert response.status_code == 302

    def _request(self):
        from django.test import RequestFactory

        request = RequestFactory().get("/")
        request.user = self.admin
        return request
