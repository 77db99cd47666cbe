"""The player page: a chart that survives Russian, FIDE imports in the history, GCR's last game,
games with the ratings counted in them, plurals, the FIDE-import prompt, isolated user text."""

import datetime
import re
from xml.etree import ElementTree

from django.utils import translation
from django.utils.translation import ngettext

from players.models import Club, FideImportApplication, Player
from ratings import services
from ratings.applications import application_decide
from ratings.models import PlayerRating, RatingChange, RatingOverride
from tests.base import BaseTestCase
from tests.players.factories import PlayerFactory
from tests.ratings.scenario import make_tournament
from tournaments.selectors import stored_game_lines

D = datetime.date
SVG_NUMBER = re.compile(r"^-?\d+(\.\d+)?%?$")
COORDINATES = ("x", "y", "cx", "cy", "x1", "x2", "y1", "y2", "width", "height")


def svgs(html: str) -> list[ElementTree.Element]:
    # The page is our own output, rendered a line above: nothing untrusted is parsed.
    return [ElementTree.fromstring(match) for match in re.findall(r"<svg\b.*?</svg>", html, re.S)]  # noqa: S314


class PlayerPageTestCase(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        cls.club = Club.objects.create(name="נמר שחור", city="חיפה")  # right-to-left, as a club may be
        cls.hero = PlayerFactory(family_name="Petrov", given_names="Ivan", birth_date=D(2012, 5, 5), club=cls.club)
        cls.rtl = PlayerFactory(family_name="כהן", given_names="דוד", birth_date=D(2011, 1, 1))
        cls.others = [PlayerFactory(birth_date=D(2012, 1, n + 1)) for n in range(6)]
        cls.players = [cls.hero, cls.rtl, *cls.others]
        today = datetime.date.today()  # noqa: DTZ011
        cls.tournaments = [
            make_tournament(name, today - datetime.timedelta(days=days), cls.players, seed=seed, rounds=5)
            for name, days, seed in (("Spring cup", 400, 1), ("Autumn cup", 200, 2), ("עולמי", 60, 3))
        ]
        services.rating_run(tournament_id=cls.tournaments[0].pk)
        services.gcr_recompute(force=True)

    def page(self, player=None, **headers):
        response = self.client.get((player or self.hero).get_absolute_url(), **headers)
        assert response.status_code == 200
        return response

    # --- 1. The chart in Russian -------------------------------------------------------------------

    def test_it_writes_the_charts_numbers_unlocalised_in_russian(self):
        html = self.page(HTTP_ACCEPT_LANGUAGE="ru").content.decode()
        assert 'lang="ru"' in html
        charts = svgs(html)
        found = 0
        for svg in charts:
            for element in svg.iter():
                for name in COORDINATES:
                    value = element.get(name)
                    if value is not None and element.tag.endswith(("line", "circle", "text", "use")):
                        assert SVG_NUMBER.match(value), f"{element.tag} {name}={value!r}"
                        found += 1
        assert found > 50
        assert len(charts) == 6  # ORR, Mchess, PlayChess: each its ratings' column and its plot

    # --- 2. Legible: several dates, points with titles, a table ------------------------------------

    def test_it_labels_dates_and_ratings_titles_the_points_and_offers_a_table(self):
        html = self.page().content.decode()
        orr = html[html.index('id="rating-orr"') : html.index('id="rating-mchess"')]
        assert len(re.findall(r'class="tick date', orr)) >= 2
        assert len(re.findall(r'class="tick"[^>]*>\d+</text>', orr)) >= 2
        titles = re.findall(r'<circle [^>]*class="point tournament"><title>([^<]*)</title>', orr)
        assert len(titles) == 3
        change = RatingChange.objects.get(player=self.hero, tournament=self.tournaments[2], system="orr")
        assert f"{self.tournaments[2].end_date:%Y-%m-%d} · עולמי · {change.rating_after}" in titles
        assert '<details class="chart-table">' in orr and "Table of the history (3 entries)" in orr

    # --- 3. FIDE imports in the history; GCR's last game ------------------------------------------

    def approve_import(self, player, rating=2150):
        application = FideImportApplication.objects.create(
            applicant=self.player_user,
            player=player,
            fide_id=24100000 + player.pk,
            fide_rating=rating,
            rating_list_month=D(2026, 10, 1),
            evidence_url="https://ratings.fide.com/profile/1",
        )
        return application_decide(application=application, admin=self.admin, approve=True, replace_existing=True)

    def test_it_shows_an_approved_fide_import_in_the_charts_and_the_tournament_list(self):
        self.approve_import(self.hero)
        html = self.page().content.decode()
        label = "FIDE rating imported: 2150 (list 2026-10)"
        rows = re.findall(r'<tr class="import-row"><td class="event-import">([^<]*)</td>', html)
        assert rows == [label]
        marks = re.findall(r'<use href="#mark-import-(\w+)"[^>]*class="point import"><title>([^<]*)</title>', html)
        assert [system for system, _ in marks] == ["orr", "mchess", "playchess"]
        assert all(label in title for _, title in marks)
        override = RatingOverride.objects.get(player=self.hero)
        assert [title.rsplit(" · ", 1)[1] for _, title in marks] == [
            str(override.orr),
            str(override.mchess),
            str(override.playchess),
        ]

    def test_it_shows_when_gcr_last_counted_a_game(self):
        gcr = PlayerRating.objects.get(player=self.hero, system="gcr")
        assert gcr.last_played == self.tournaments[2].end_date  # stored by the GCR run itself
        html = self.page().content.decode()
        card = html[html.index('id="rating-gcr"') :]
        assert f'last played <span class="nowrap">{self.tournaments[2].end_date:%Y-%m-%d}</span>' in card

    # --- 4. Games, links, plurals, the prompt, queries ---------------------------------------------

    def test_it_shows_each_games_opponent_rating_and_mchess_change_as_calculated(self):
        response = self.page()
        tournament = self.tournaments[1]
        mchess = RatingChange.objects.get(player=self.hero, tournament=tournament, system="mchess")
        orr = RatingChange.objects.get(player=self.hero, tournament=tournament, system="orr")
        mchess_lines = {(line[0], line[1]): line for line in stored_game_lines(mchess)}
        orr_lines = {(line[0], line[1]): line for line in stored_game_lines(orr) if not line[5]}
        rows = [row for row in response.context["games"] if row["tournament"] == tournament and row["counted"]]
        assert rows
        for row in rows:
            key = (row["game"].round, row["opponent"].pk)
            assert row["counted"]["mchess"] == {"rating": mchess_lines[key][3], "delta": mchess_lines[key][5]}
            assert row["counted"]["orr"]["rating"] == orr_lines[key][2]
        html = response.content.decode()
        line = mchess_lines[(rows[0]["game"].round, rows[0]["opponent"].pk)]
        change = f"({'+' if line[5] >= 0 else ''}{line[5]})"
        assert re.search(rf'class="num opp-mchess">{line[3]} <span class="\w+">{re.escape(change)}</span>', html)

    def test_it_links_each_tournament_to_the_players_calculation(self):
        html = self.page().content.decode()
        for tournament in self.tournaments:
            url = f"/tournaments/{tournament.pk}/players/{self.hero.pk}/"
            assert f'href="{url}" class="calculation-link"' in html
            assert self.client.get(url).status_code == 200

    def test_it_counts_what_is_left_in_words_with_russian_plurals(self):
        with translation.override("ru"):
            forms = [
                ngettext("%(n)s more tournament", "%(n)s more tournaments", n) % {"n": n} for n in (1, 2, 5, 11, 21)
            ]
        assert forms == ["1 турнир", "2 турнира", "5 турниров", "11 турниров", "21 турнир"]
        rating = PlayerRating.objects.get(player=self.hero, system="orr")
        PlayerRating.objects.filter(pk=rating.pk).update(provisional=True, tournaments=1, state={"stored": [0] * 10})
        html = self.page().content.decode()
        assert "Provisional: 1 more game and 1 more tournament until established" in html
        PlayerRating.objects.filter(pk=rating.pk).update(tournaments=3)
        html = self.page().content.decode()
        assert "Provisional: 1 more game until established" in html
        assert "0 more" not in html
        html = self.page(HTTP_ACCEPT_LANGUAGE="ru").content.decode()
        assert "Неустоявшийся: ещё 1 партия до устоявшегося рейтинга" in html

    def test_it_offers_the_fide_import_only_where_it_makes_sense(self):
        apply = 'id="apply-fide-import"'
        assert apply in self.page().content.decode()
        computer = PlayerFactory(family_name="Engine", kind=Player.Kind.COMPUTER)
        assert apply not in self.page(computer).content.decode()
        FideImportApplication.objects.create(
            applicant=self.player_user,
            player=self.rtl,
            fide_id=24199999,
            fide_rating=1500,
            rating_list_month=D(2026, 10, 1),
        )
        html = self.page(self.rtl).content.decode()
        assert apply not in html and 'id="fide-import-pending"' in html
        self.approve_import(self.hero)
        html = self.page().content.decode()
        assert apply not in html and 'id="fide-import-pending"' not in html

    def test_it_reads_the_same_number_of_queries_whatever_the_players_history(self):
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(connection) as one:
            self.page()
        services.rating_run(tournament_id=self.tournaments[2].pk)
        self.approve_import(self.hero)
        assert RatingChange.objects.filter(player=self.hero, system="orr").count() == 3
        with CaptureQueriesContext(connection) as three:
            response = self.page()
        assert len(response.context["games"]) >= 12
        assert len(three) == len(one) <= 8, [q["sql"] for q in three]

    # --- 5. User text isolated ------------------------------------------------------------------------

    def test_it_isolates_names_clubs_and_tournament_names(self):
        html = self.page().content.decode()
        assert "<bdi>כהן, דוד</bdi>" in html  # the opponent's name
        assert "<bdi>עולמי</bdi>" in html  # a tournament's name
        assert f'<dd dir="auto">{self.club}</dd>' in html
        assert "<h1><bdi>Petrov, Ivan</bdi>" in html
        assert "<h1><bdi>כהן, דוד</bdi>" in self.page(self.rtl).content.decode()
