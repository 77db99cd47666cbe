"""The public pages: home in both languages, lists, player and tournament pages."""

import re
from unittest import mock

from django.conf import settings
from django.urls import reverse

from ratings.models import System
from tests.base import BaseTestCase
from tests.players.factories import PlayerFactory
from tests.ratings.factories import PlayerRatingFactory, RatingChangeFactory
from tests.tournaments.factories import GameFactory, ParticipantFactory, TournamentFactory
from tournaments.models import Tournament


class HomePageTestCase(BaseTestCase):
    def test_it_says_what_the_site_is_in_english(self):
        response = self.client.get("/", HTTP_ACCEPT_LANGUAGE="en")
        self.assertContains(response, "The federation's chess ratings")
        self.assertContains(response, '<html lang="en">')
        for url in [reverse("ratings:list", args=["orr"]), reverse("tournaments:list"), reverse("arbiter:home")]:
            self.assertContains(response, f'href="{url}"')

    def test_it_says_what_the_site_is_in_russian(self):
        response = self.client.get("/", HTTP_ACCEPT_LANGUAGE="ru")
        self.assertContains(response, "Шахматные рейтинги федерации")
        self.assertContains(response, '<html lang="ru">')
        self.assertContains(response, "Рейтинг-листы")

    def test_it_switches_language_with_the_switch(self):
        response = self.client.post(reverse("set_language"), {"language": "ru", "next": "/"}, follow=True)
        self.assertContains(response, "Шахматные рейтинги федерации")
        response = self.client.post(reverse("set_language"), {"language": "en", "next": "/"}, follow=True)
        self.assertContains(response, "The federation's chess ratings")

    def test_it_shows_the_top_players_and_latest_tournaments(self):
        rated = PlayerRatingFactory(rating=1850, provisional=True)
        tournament = TournamentFactory(name="Autumn Open")
        TournamentFactory(name="Not yet rated", status=Tournament.Status.DRAFT)
        response = self.client.get("/")
        self.assertContains(response, rated.player.full_name)
        self.assertContains(response, "1850*")
        self.assertContains(response, tournament.name)
        self.assertNotContains(response, "Not yet rated")

    def test_it_keeps_the_top_lists_until_the_ratings_change(self):
        from django.core.cache import cache
        from django.utils import timezone

        from toolkit import pagecache

        first = PlayerRatingFactory(rating=1850)
        self.assertContains(self.client.get("/"), first.player.full_name)
        later = PlayerRatingFactory(rating=1900)
        # Written without a rating run: the cached lists do not know it yet.
        self.assertNotContains(self.client.get("/"), later.player.full_name)
        TournamentFactory(status=Tournament.Status.RATED, rated_at=timezone.now())
        # PAGE_CACHE_DB_SECONDS later the database's stamp is read again (rating runs also bump at once).
        cache.delete(pagecache.DATABASE_KEY)
        self.assertContains(self.client.get("/"), later.player.full_name)

    def test_it_says_so_when_there_is_nothing_yet(self):
        response = self.client.get("/")
        self.assertContains(response, "No player has an ORR rating yet")
        self.assertContains(response, "No tournament has been rated yet")

    def test_it_is_readable_on_a_phone(self):
        response = self.client.get("/")
        self.assertContains(response, 'name="viewport" content="width=device-width, initial-scale=1"')


class RatingListTestCase(BaseTestCase):
    def test_it_lists_players_by_rating_with_the_provisional_star(self):
        low = PlayerRatingFactory(rating=1100)
        high = PlayerRatingFactory(rating=1500, provisional=True)
        response = self.client.get(reverse("ratings:list", args=["orr"]))
        content = response.content.decode()
        assert content.index(high.player.full_name) < content.index(low.player.full_name)
        self.assertContains(response, 'class="provisional"')

    def test_it_gives_tied_players_the_same_rank(self):
        PlayerRatingFactory(rating=1500)
        PlayerRatingFactory(rating=1500)
        PlayerRatingFactory(rating=1400)
        ranks = [row.place for row in self.client.get("/ratings/orr/").context["table"].page.object_list.data]
        assert ranks == [1, 1, 3]

    def test_it_leaves_out_merged_duplicates_and_other_systems(self):
        survivor = PlayerFactory()
        merged = PlayerRatingFactory(player=PlayerFactory(merged_into=survivor))
        other = PlayerRatingFactory(system=System.MCHESS)
        response = self.client.get("/ratings/orr/")
        self.assertNotContains(response, merged.player.full_name)
        self.assertNotContains(response, other.player.full_name)

    def test_it_has_a_list_for_every_system_and_no_other(self):
        for system in System.values:
            assert self.client.get(reverse("ratings:list", args=[system])).status_code == 200
        assert self.client.get("/ratings/elo/").status_code == 404

    def test_it_does_not_query_per_row(self):
        # The published months, the clubs and regions of the filters, the ids and ratings of a
        # short list (its length too), the page.
        PlayerRatingFactory.create_batch(3)
        with self.assertNumQueries(5):
            self.client.get("/ratings/orr/")
        PlayerRatingFactory.create_batch(20)
        with self.assertNumQueries(5):
            self.client.get("/ratings/orr/")
        # A long list: the ids tried, the count, the page's ids and places off the index, the page.
        with mock.patch("ratings.selectors.FEW", 10), self.assertNumQueries(7):
            self.client.get("/ratings/orr/")

    def test_it_ranks_and_pages_a_short_list_as_a_long_one(self):
        from ratings.selectors import RankedFew, RankedPage, live_list, ranked

        for rating in (1500, 1400, 1400, 1400, 1300, 1200, 1200, 1100):
            PlayerRatingFactory(rating=rating)
        by_database = [(r.pk, r.place) for r in ranked(live_list(system="orr"))]
        few = RankedFew(live_list(system="orr"))
        assert len(few) == 8
        assert [(r.pk, r.place) for r in few[0:8]] == by_database
        assert [r.place for r in few[0:8]] == [1, 2, 2, 2, 5, 6, 6, 8]
        assert [(r.pk, r.place) for r in few[3:5]] == by_database[3:5]
        assert few[-1].pk == by_database[-1][0]
        assert RankedFew.at_most(live_list(system="orr"), limit=7) is None
        assert len(RankedFew.at_most(live_list(system="orr"), limit=8)) == 8

        page = RankedPage(live_list(system="orr"), total=8)
        assert [(r.pk, r.place) for r in page[0:8]] == by_database
        assert [(r.pk, r.place) for r in page[3:5]] == by_database[3:5]
        assert page[-1].pk == by_database[-1][0]
        assert page[2].player.full_name  # the players come with the page

        def rows(response):
            body = response.content.decode().split('id="rating-list"', 1)[1].split("</table>", 1)[0]
            return re.findall(
                r'<td class="num col-place"[^>]*>(\d+)</td>\s*<td class="col-name"[^>]*><a href="/players/(\d+)/"', body
            )

        with mock.patch("ratings.selectors.FEW", 0):
            long_list = rows(self.client.get("/ratings/orr/"))
            # Sorted by name, the ranks stay those of the rating order.
            by_name = rows(self.client.get("/ratings/orr/?sort=name"))
        assert rows(self.client.get("/ratings/orr/")) == long_list
        assert [place for place, _ in long_list] == ["1", "2", "2", "2", "5", "6", "6", "8"]
        assert sorted(by_name) == sorted(long_list)

    def test_it_shows_the_last_page_for_a_page_past_the_end(self):
        PlayerRatingFactory.create_batch(3)
        with mock.patch("ratings.selectors.FEW", 0):
            response = self.client.get("/ratings/orr/?page=9")
        assert response.status_code == 200
        assert response.content.decode().count('<a href="/players/') >= 3


class PlayerPageTestCase(BaseTestCase):
    def test_it_shows_ratings_and_history(self):
        change = RatingChangeFactory(rating_before=1200, rating_after=1231, provisional_after=True)
        PlayerRatingFactory(player=change.player, rating=1231, provisional=True)
        response = self.client.get(change.player.get_absolute_url())
        self.assertContains(response, change.player.full_name)
        self.assertContains(response, "1231*")
        self.assertContains(response, change.tournament.name)

    def test_it_links_the_fide_profile(self):
        player = PlayerFactory(fide_id=4100018)
        self.assertContains(self.client.get(player.get_absolute_url()), "https://ratings.fide.com/profile/4100018")

    def test_it_redirects_a_merged_duplicate(self):
        survivor = PlayerFactory()
        duplicate = PlayerFactory(merged_into=survivor)
        self.assertRedirects(self.client.get(duplicate.get_absolute_url()), survivor.get_absolute_url())

    def test_it_answers_404_for_an_unknown_player(self):
        assert self.client.get("/players/999999999/").status_code == 404


class TournamentPagesTestCase(BaseTestCase):
    def test_it_lists_public_tournaments_only(self):
        shown = TournamentFactory(name="Rated cup")
        hidden = TournamentFactory(name="Draft cup", status=Tournament.Status.DRAFT)
        response = self.client.get(reverse("tournaments:list"))
        self.assertContains(response, shown.name)
        self.assertNotContains(response, hidden.name)
        assert self.client.get(hidden.get_absolute_url()).status_code == 404

    def test_it_shows_the_tournament_list_without_a_query_per_tournament(self):
        TournamentFactory.create_batch(3, chief_arbiter=self.arbiter)
        with self.assertNumQueries(2):  # the count for the paginator, the page with the arbiters
            self.client.get(reverse("tournaments:list"))
        TournamentFactory.create_batch(20, chief_arbiter=self.other_arbiter)
        with self.assertNumQueries(2):
            self.client.get(reverse("tournaments:list"))

    def test_it_shows_standings_with_points_from_the_games(self):
        tournament = TournamentFactory()
        a = ParticipantFactory(tournament=tournament, start_number=1)
        b = ParticipantFactory(tournament=tournament, start_number=2)
        GameFactory(tournament=tournament, round=1, white=a.player, black=b.player, result="0-1")
        GameFactory(tournament=tournament, round=2, white=b.player, black=a.player, result="1/2-1/2")
        response = self.client.get(tournament.get_absolute_url())
        rows = response.context["rows"]
        assert [(row["player"], row["points"]) for row in rows] == [(b.player, 1.5), (a.player, 0.5)]

    def test_it_does_not_query_per_participant(self):
        tournament = TournamentFactory()
        for number in range(1, 4):
            ParticipantFactory(tournament=tournament, start_number=number)
        # The tournament, its participants, its games, its rating changes.
        with self.assertNumQueries(4):
            self.client.get(tournament.get_absolute_url())
        for number in range(4, 30):
            ParticipantFactory(tournament=tournament, start_number=number)
        with self.assertNumQueries(4):
            self.client.get(tournament.get_absolute_url())


class ArbiterAreaTestCase(BaseTestCase):
    def test_it_sends_the_anonymous_to_the_login_page(self):
        response = self.client.get(reverse("arbiter:home"))
        self.assertRedirects(response, f"{reverse('login')}?next={reverse('arbiter:home')}")

    def test_it_shows_an_arbiter_his_own_tournaments_only(self):
        own = TournamentFactory(name="Own cup", chief_arbiter=self.arbiter)
        helped = TournamentFactory(name="Helped cup", chief_arbiter=self.other_arbiter)
        helped.co_arbiters.add(self.arbiter)
        foreign = TournamentFactory(name="Foreign cup", chief_arbiter=self.other_arbiter)
        self.login(self.arbiter)
        response = self.client.get(reverse("arbiter:home"))
        self.assertContains(response, own.name)
        self.assertContains(response, helped.name)
        self.assertNotContains(response, foreign.name)

    def test_it_logs_in_and_out_through_the_site_pages(self):
        from tests.base import PASSWORD

        response = self.client.post(reverse("login"), {"username": "arbiter", "password": PASSWORD}, follow=True)
        self.assertContains(response, "Log out (arbiter)")
        response = self.client.post(reverse("logout"), follow=True)
        self.assertContains(response, "Log in")


def test_it_ships_its_stylesheet_without_a_cdn():
    from django.contrib.staticfiles import finders

    assert finders.find("css/site.css")
    base = (settings.BASE_DIR / "templates" / "base.html").read_text()
    assert "https://" not in base.replace("https://ratings.fide.com", "")
