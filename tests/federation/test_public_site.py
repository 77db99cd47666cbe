"""The public pages with real rating runs behind them: lists and their filters, downloads, the
player page, the tournament report, the home page's top lists and the JSON API."""

import csv
import datetime
import io
import json

import openpyxl
from django.db.models import Q
from django.test import TestCase
from django.urls import reverse

from players.models import Club, Player, Region
from ratings import services
from ratings.models import PlayerRating, RatingChange, RatingList
from tests.players.factories import PlayerFactory
from tests.ratings.scenario import make_tournament

D = datetime.date
THIS_YEAR = datetime.date.today().year  # noqa: DTZ011


class PublicSiteTestCase(TestCase):
    @classmethod
    def setUpTestData(cls):
        cls.region = Region.objects.create(name="Татарстан")
        cls.club = Club.objects.create(name="Белая ладья", city="Казань", region=cls.region)
        cls.girl = PlayerFactory(
            family_name="Смирнова",
            given_names="Анна",
            sex="F",
            birth_date=D(THIS_YEAR - 7, 3, 1),
            club=cls.club,
            region=cls.region,
        )
        cls.boy = PlayerFactory(family_name="Petrov", given_names="Ivan", birth_date=D(THIS_YEAR - 11, 5, 5))
        cls.adult = PlayerFactory(family_name="Orlov", given_names="Oleg", birth_date=D(1980, 1, 1), fide_id=24100018)
        others = [PlayerFactory(birth_date=D(THIS_YEAR - 9, 1, n + 1)) for n in range(7)]
        cls.players = [cls.girl, cls.boy, cls.adult, *others]
        today = datetime.date.today()  # noqa: DTZ011
        cls.first = make_tournament("Autumn cup", today - datetime.timedelta(days=90), cls.players, seed=31)
        cls.second = make_tournament("Winter cup", today - datetime.timedelta(days=30), cls.players, seed=32)
        services.rating_run(tournament_id=cls.first.pk)
        services.gcr_recompute(force=True)

    # --- Lists ----------------------------------------------------------------------------------

    def names(self, url):
        response = self.client.get(url)
        assert response.status_code == 200
        return [row.player.pk for row in response.context["table"].page.object_list.data]

    def test_it_finds_a_name_in_either_script(self):
        assert self.names("/ratings/orr/?name=Smirnova") == [self.girl.pk]
        assert self.names("/ratings/orr/?name=Петров") == [self.boy.pk]
        assert self.names("/ratings/orr/?name=orlov+oleg") == [self.adult.pk]

    def test_it_finds_a_name_typed_given_name_first_in_either_script(self):
        assert self.names("/ratings/orr/?name=Анна+Смирнова") == [self.girl.pk]
        assert self.names("/ratings/orr/?name=Anna+Smirnova") == [self.girl.pk]
        assert self.names("/ratings/orr/?name=Ivan+Petrov") == [self.boy.pk]
        assert self.names("/ratings/orr/?name=Иван+Петров") == [self.boy.pk]
        assert self.names("/ratings/orr/?name=Oleg+Petrov") == []  # each word still in its place

    def test_it_searches_a_name_in_the_lists_one_query(self):
        # As test_it_shows_list_pages_without_a_query_per_row: the name's orders are one condition.
        with self.assertNumQueries(5):
            assert self.names("/ratings/orr/?name=Anna+Smirnova") == [self.girl.pk]

    def test_it_filters_by_age_group_birth_year_sex_club_and_region(self):
        assert self.names("/ratings/orr/?age_group=u8") == [self.girl.pk]
        assert set(self.names("/ratings/orr/?age_group=u12")) == {p.pk for p in self.players} - {self.adult.pk}
        assert self.names("/ratings/orr/?age_group=adults") == [self.adult.pk]
        assert self.names(f"/ratings/orr/?birth_year={THIS_YEAR - 11}") == [self.boy.pk]
        assert self.names("/ratings/orr/?sex=F") == [self.girl.pk]
        assert self.names(f"/ratings/orr/?club={self.club.pk}") == [self.girl.pk]
        assert self.names(f"/ratings/orr/?region={self.region.pk}") == [self.girl.pk]

    def test_it_filters_by_activity_and_provisional_status(self):
        assert len(self.names("/ratings/orr/?active=on")) == len(self.players)
        PlayerRating.objects.filter(player=self.adult, system="orr").update(last_played=D(2001, 1, 1))
        assert self.adult.pk not in self.names("/ratings/orr/?active=on")
        provisional = set(self.names("/ratings/orr/?provisional=yes"))
        established = set(self.names("/ratings/orr/?provisional=no"))
        assert provisional and not provisional & established
        assert self.adult.pk in established or self.adult.pk in provisional

    def test_it_ranks_within_the_filtered_list(self):
        response = self.client.get("/ratings/orr/?age_group=u12")
        ranks = [row.place for row in response.context["table"].page.object_list.data]
        assert ranks[0] == 1

    def test_it_downloads_exactly_the_filtered_list(self):
        response = self.client.get("/ratings/orr/?sex=F&download=csv")
        assert response["Content-Type"].startswith("text/csv")
        rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
        assert [row["name"] for row in rows] == ["Смирнова, Анна"]
        response = self.client.get("/ratings/orr/?age_group=u12&download=xlsx")
        assert "attachment;" in response["Content-Disposition"]
        sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
        assert sheet.max_row == 1 + len(self.players) - 1  # header and the under-12s

    def test_it_shows_a_published_month_next_to_the_live_list(self):
        services.publish_lists(month=D(2026, 1, 1))
        response = self.client.get("/ratings/orr/")
        self.assertContains(response, 'value="2026-01"')
        response = self.client.get("/ratings/orr/?month=2026-01&sex=F")
        self.assertContains(response, "published list of")
        assert [row.player.pk for row in response.context["table"].page.object_list.data] == [self.girl.pk]
        assert self.client.get("/ratings/orr/?month=1999-01").status_code == 404
        garbage = self.client.get("/ratings/orr/?month=garbage")  # malformed: the form says so
        self.assertContains(garbage, "Enter a month as YYYY-MM.", status_code=400)

    def test_it_lists_the_rating_lists_at_ratings(self):
        RatingList.objects.create(system="mchess", month=D(2026, 3, 1))
        RatingList.objects.create(system="mchess", month=D(2026, 4, 1))
        with self.assertNumQueries(1):  # the latest published month of each system
            response = self.client.get("/ratings/")
        assert response.status_code == 200
        for system in ("orr", "mchess", "playchess", "gcr"):
            self.assertContains(response, f'<a href="/ratings/{system}/">')
            self.assertContains(response, f'href="/ratings/about/#{system}"')
        self.assertContains(response, "Mchess starts at 0 and grows with results")  # what each list measures
        self.assertContains(response, 'href="/ratings/mchess/?month=2026-04">Published list of April 2026</a>')
        self.assertNotContains(response, "/ratings/orr/?month=")  # ORR has published nothing
        self.assertContains(self.client.get("/"), '<a href="/ratings/">Rating lists</a>')  # the menu leads here
        russian = self.client.get("/ratings/", HTTP_ACCEPT_LANGUAGE="ru")
        self.assertContains(russian, "Текущий список")
        self.assertContains(russian, "Mchess начинается с 0")

    def test_it_marks_provisional_ratings_and_explains_the_star(self):
        response = self.client.get("/ratings/orr/")
        self.assertContains(response, 'class="provisional"')
        self.assertContains(response, "* provisional: fewer than 11 rated games or 2 tournaments so far.")

    def test_it_shows_list_pages_without_a_query_per_row(self):
        # The ids and ratings of a short list (its length too), the page, the months, the clubs and
        # regions of the filters.
        for system in ("orr", "mchess", "playchess", "gcr"):
            with self.assertNumQueries(5):
                self.client.get(f"/ratings/{system}/?age_group=u12&sex=M")

    # --- Player page ----------------------------------------------------------------------------

    def test_it_shows_the_history_chart_with_a_text_alternative(self):
        services.rating_run(tournament_id=self.second.pk)
        response = self.client.get(self.boy.get_absolute_url())
        self.assertContains(response, 'role="img"', count=3)  # ORR, Mchess, PlayChess
        self.assertContains(response, "ORR rating history")
        self.assertContains(response, "<desc")
        self.assertContains(response, "Winter cup")

    def test_it_says_how_far_a_provisional_rating_is_from_established(self):
        rating = PlayerRating.objects.get(player=self.girl, system="orr")
        assert rating.provisional
        response = self.client.get(self.girl.get_absolute_url())
        self.assertContains(response, "more games until established")
        self.assertNotContains(response, "0 more")

    def test_it_shows_the_player_page_without_a_query_per_tournament(self):
        # The player, his ratings, his changes, his FIDE imports and applications, his penalties and
        # his games (GCR's last game is stored with its rating), and his mobile games.
        with self.assertNumQueries(8):
            self.client.get(self.boy.get_absolute_url())
        services.rating_run(tournament_id=self.second.pk)
        with self.assertNumQueries(8):
            self.client.get(self.boy.get_absolute_url())

    # --- Tournament pages -----------------------------------------------------------------------

    def test_it_shows_every_number_of_the_calculation_in_the_report(self):
        response = self.client.get(self.first.get_absolute_url())
        self.assertContains(response, "Kt = ")
        self.assertContains(response, 'id="orr-calculation"')
        for column in ("Yavg", "Rmin–Rpmax (Rmax)", "Rs", "Rsr", "Rp", "Rkor", "SR", "R±"):
            self.assertContains(response, f">{column}<")
        change = RatingChange.objects.filter(tournament=self.first, system="orr", details__category="newcomer").first()
        self.assertContains(response, f"{change.details['Rmin']}–{change.details['Rpmax']} ({change.details['Rmax']})")
        self.assertContains(response, 'id="other-systems"')
        self.assertContains(response, 'href="/ratings/about/#orr"')

    def test_it_shows_every_game_in_every_system_in_a_players_calculation(self):
        from decimal import Decimal

        from tournaments.models import Game

        url = reverse("tournaments:player_calculation", args=[self.first.pk, self.girl.pk])
        self.assertContains(self.client.get(self.first.get_absolute_url()), f'href="{url}"')
        with self.assertNumQueries(4):  # the tournament, the participant, the changes, the opponents
            response = self.client.get(url)
        self.assertContains(response, self.girl.full_name)
        played = Game.objects.filter(tournament=self.first, kind="played").filter(
            Q(white=self.girl) | Q(black=self.girl)
        )
        opponents = {g.black_id if g.white_id == self.girl.pk else g.white_id for g in played}

        orr = [line for line in response.context["orr_lines"] if not line["earlier"]]
        assert len(orr) == played.count()
        assert {line["opponent"].pk for line in orr} == opponents
        value = {"1": Decimal(1), "½": Decimal("0.5"), "0": Decimal(0)}
        for line in orr:  # DR = result - PD, exactly
            assert value[line["result"]] - Decimal(line["pd"]) == Decimal(line["dr"])
        self.assertContains(response, 'id="orr-games"')
        for opponent in Player.objects.filter(pk__in=opponents):
            self.assertContains(response, opponent.full_name)

        mchess = response.context["mchess"]
        lines = response.context["mchess_lines"]
        assert len(lines) == played.count()
        assert sum(line["delta"] for line in lines) == mchess.rating_after - mchess.rating_before
        assert all(0 < float(line["lrp"]) <= 0.5 for line in lines)
        assert len(response.context["playchess_lines"]) == played.count()
        self.assertContains(response, 'id="playchess-games"')

    def test_it_has_a_calculation_page_only_for_a_participant_of_a_public_tournament(self):
        outsider = PlayerFactory()
        url = reverse("tournaments:player_calculation", args=[self.first.pk, outsider.pk])
        assert self.client.get(url).status_code == 404
        assert self.client.get(f"/tournaments/999999/players/{self.girl.pk}/").status_code == 404
        # Not rated yet: the page says so instead of showing empty tables.
        spring = make_tournament("Spring cup", datetime.date.today(), self.players, seed=33)  # noqa: DTZ011
        response = self.client.get(reverse("tournaments:player_calculation", args=[spring.pk, self.girl.pk]))
        self.assertContains(response, "no rating calculation in this tournament")

    def test_it_filters_the_tournament_list(self):
        url = reverse("tournaments:list")
        self.assertContains(self.client.get(url, {"q": "winter"}), "Winter cup")
        self.assertNotContains(self.client.get(url, {"q": "winter"}), "Autumn cup")
        since = (datetime.date.today() - datetime.timedelta(days=40)).isoformat()  # noqa: DTZ011
        self.assertNotContains(self.client.get(url, {"since": since}), "Autumn cup")
        self.assertContains(self.client.get(url, {"status": "rated"}), "Autumn cup")

    # --- Home -----------------------------------------------------------------------------------

    def test_it_shows_top_lists_by_group_on_the_home_page(self):
        response = self.client.get("/")
        titles = [entry["title"] for entry in response.context["top_lists"]]
        assert titles[:2] == ["Overall", "Women and girls"]
        assert "Under 8" in titles and "Under 12" in titles
        self.assertContains(response, "Autumn cup")

    # --- API ------------------------------------------------------------------------------------

    def test_it_finds_a_name_given_name_first_in_the_api(self):
        for query in ("Анна Смирнова", "Anna Smirnova"):
            data = json.loads(self.client.get("/api/lists/orr/", {"name": query}).content)
            assert [row["latin_name"] for row in data["results"]] == ["Smirnova, Anna"]

    def test_it_serves_filtered_lists_from_the_api(self):
        data = json.loads(self.client.get("/api/lists/orr/?name=Smirnova").content)
        assert data["count"] == 1
        row = data["results"][0]
        assert (row["name"], row["latin_name"], row["sex"], row["club"]) == (
            "Смирнова, Анна",
            "Smirnova, Anna",
            "F",
            "Белая ладья",
        )
        assert self.client.get("/api/lists/orr/?age_group=u99").status_code == 400
        assert self.client.get("/api/lists/elo/").status_code == 404

    def test_it_serves_players_and_reports_from_the_api(self):
        data = json.loads(self.client.get(f"/api/players/{self.adult.federation_id}/").content)
        assert data["fide_id"] == 24100018
        assert set(data["ratings"]) >= {"orr", "mchess", "playchess"}
        assert {t["name"] for t in data["tournaments"]} == {"Autumn cup", "Winter cup"}
        report = json.loads(self.client.get(f"/api/tournaments/{self.first.pk}/").content)
        assert report["kt"]["Kt"] >= 8
        first = report["players"][0]
        assert "orr" in first and "Yavg" in first["orr"]["details"]
        assert len(first["rounds"]) == self.first.rounds
        # Game by game, opponents by federation id, the same numbers as the player's calculation page.
        girl = next(row for row in report["players"] if row["federation_id"] == self.girl.federation_id)
        page = self.client.get(reverse("tournaments:player_calculation", args=[self.first.pk, self.girl.pk]))
        for system in ("orr", "mchess", "playchess"):
            shown = page.context[f"{system}_lines"]
            assert [line["opponent"] for line in girl[system]["games"]] == [
                line["opponent"].federation_id for line in shown
            ]
            assert [line["score"] for line in girl[system]["games"]] == [line["score"] for line in shown]
        assert {"pd", "dr", "opponent_rating", "earlier"} <= set(girl["orr"]["games"][0])
        assert {"lrp", "delta", "rating_before"} <= set(girl["mchess"]["games"][0])
        with self.assertNumQueries(4):  # the tournament, participants, games, changes
            self.client.get(f"/api/tournaments/{self.first.pk}/")
        self.assertContains(self.client.get("/api/"), "/api/lists/")

    # --- Languages ------------------------------------------------------------------------------

    def test_it_speaks_russian_on_every_page(self):
        pages = {
            "/": "Шахматные рейтинги федерации",
            "/ratings/orr/": "Рейтинг-лист",
            self.boy.get_absolute_url(): "Рейтинги",
            self.first.get_absolute_url(): "Турнирная таблица",
            "/tournaments/": "Турниры",
            "/ratings/about/": "Как рассчитываются рейтинги",
            "/api/": "JSON API",
        }
        for url, text in pages.items():
            self.assertContains(self.client.get(url, HTTP_ACCEPT_LANGUAGE="ru"), text, msg_prefix=url)


def test_it_lists_players_of_every_kind_only_with_a_rating(db, client):
    def listed(url):
        response = client.get(url)
        assert response.status_code == 200
        return {row.player.pk for row in response.context["table"].page.object_list.data}

    rated, newcomer, never = PlayerFactory(), PlayerFactory(), PlayerFactory()
    computer = PlayerFactory(family_name="Computer", kind=Player.Kind.COMPUTER)
    PlayerRating.objects.create(player=rated, system="orr", rating=1500, games=9)
    # A newcomer who has played but scored nothing yet has a state and no rating: not on the list.
    PlayerRating.objects.create(player=newcomer, system="orr", rating=None, games=3)
    PlayerRating.objects.create(player=rated, system="mchess", rating=1300, games=9)
    PlayerRating.objects.create(player=computer, system="mchess", rating=1200, games=40)
    PlayerRating.objects.create(player=newcomer, system="mchess", rating=None, games=1)
    assert listed("/ratings/orr/") == {rated.pk}
    # Computers are rated in Mchess like people; the public list shows them when asked.
    assert listed("/ratings/mchess/") == {rated.pk}
    assert listed("/ratings/mchess/?computers=on") == {rated.pk, computer.pk}
    assert never.pk not in listed("/ratings/mchess/?computers=on")


def test_it_offers_in_the_fast_club_select_what_djangos_select_offers():
    import re

    from django import forms

    from ratings.filters import FastSelect

    choices = [("", "---------"), (1, "Белая ладья (Казань)"), (2, 'Club "<b>&"'), (3, "Дебют")]
    fast = FastSelect(choices=choices).render("club", "2", attrs={"id": "id_club"})
    slow = forms.Select(choices=choices).render("club", "2", attrs={"id": "id_club"})

    def options(html):
        return re.findall(r'<option value="([^"]*)"( selected)?>([^<]*)</option>', html)

    assert options(fast) == options(slow)
    assert 'name="club"' in fast and 'id="id_club"' in fast
    assert "<b>" not in fast


class ClubFilterTestCase(TestCase):
    def test_it_reads_plain_values_and_offers_what_the_models_offer(self):
        from ratings.filters import FastSelect, RatingListFilter

        kazan = Club.objects.create(name="Белая ладья", city="Казань")
        Club.objects.create(name='Club "<b>&"')
        Club.objects.create(name="Дебют", city="Уфа")
        form = RatingListFilter({"club": str(kazan.pk)}, queryset=PlayerRating.objects.all()).form
        field = form.fields["club"]
        with self.assertNumQueries(1):
            by_values = field.widget.render("club", str(kazan.pk))
        from_models = FastSelect(choices=field.choices).render("club", str(kazan.pk))
        assert by_values == from_models
        assert "Белая ладья (Казань)</option>" in by_values and "<b>" not in by_values
        assert form.is_valid()
