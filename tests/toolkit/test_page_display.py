"""How the public pages show what they show: scores as halves, a long report's navigation, each
list's scale and `*` legend, Russian without English leftovers, times with their zone, the
month picker keeping the filters, and user-supplied text isolated from the page's direction."""

import datetime
import re
from decimal import Decimal
from fractions import Fraction
from html.parser import HTMLParser
from pathlib import Path

from django.conf import settings
from django.test import TestCase, override_settings
from django.utils import timezone

from ratings import services
from tests.base import BaseTestCase
from tests.players.factories import ClubFactory, PlayerFactory
from tests.ratings.scenario import make_tournament
from toolkit.templatetags.display import score_text, time_control_text
from tournaments.models import Tournament

D = datetime.date
TODAY = datetime.date.today()  # noqa: DTZ011
# A right-to-left letter (HEBREW LETTER ALEF): it reorders the neutral characters around it unless its
# text is isolated (direction controls such as U+202E never get this far: imports and saves strip them).
RLO = "\u05d0"


class VisibleText(HTMLParser):
    """The words a visitor reads: text outside script, style and code samples (the API page's JSON
    keeps its English keys), and the attributes a visitor sees."""

    def __init__(self):
        super().__init__()
        self.parts, self.skip = [], 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style", "pre", "code"):
            self.skip += 1
        self.parts.extend(value for name, value in attrs if name in ("title", "placeholder", "aria-label") and value)

    def handle_endtag(self, tag):
        if tag in ("script", "style", "pre", "code"):
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip:
            self.parts.append(data)


def visible_text(response) -> str:
    parser = VisibleText()
    parser.feed(response.content.decode())
    return " ".join(parser.parts)


def test_it_writes_scores_as_halves():
    assert score_text(Decimal("4.5")) == "4½"
    assert score_text(4.5) == "4½"
    assert score_text("9/2") == "4½"
    assert score_text(Fraction(1, 2)) == "½"
    assert score_text("1/2") == "½"
    assert score_text(Decimal("5.0")) == "5"
    assert score_text(0) == "0"
    assert score_text(None) == ""


def test_it_translates_the_units_of_a_time_control_and_keeps_the_rest():
    from django.utils import translation

    with translation.override("ru"):
        assert time_control_text("90 min/40 moves + 30 min + 30 sec per move") == (
            "90 мин/40 ходов + 30 мин + 30 с за ход"
        )
        assert time_control_text("15 min + 10 s") == "15 мин + 10 с"
        assert time_control_text("Швейцарка, 3+2") == "Швейцарка, 3+2"
    with translation.override("en"):
        assert time_control_text("15 min + 10 s") == "15 min + 10 s"


class LongReportTestCase(TestCase):
    """A report of 300 players: navigation within the page, scores as halves everywhere."""

    @classmethod
    def setUpTestData(cls):
        cls.players = [PlayerFactory(birth_date=D(2010 + n % 8, 1, 1 + n % 28)) for n in range(300)]
        cls.tournament = make_tournament("Большой опен", TODAY - datetime.timedelta(days=20), cls.players, seed=7)
        services.rating_run(tournament_id=cls.tournament.pk)

    def test_it_has_in_page_navigation_and_a_find_a_player_box(self):
        response = self.client.get(self.tournament.get_absolute_url())
        html = response.content.decode()
        for anchor in ("crosstable-section", "orr-section", "other-section"):
            assert f'href="#{anchor}"' in html, anchor
            assert f'id="{anchor}"' in html, anchor
        # The box works from static/js/public.js (no inline script); every row can be linked to.
        assert re.search(r'<input type="search" id="find-player"[^>]*data-find-rows="#crosstable tbody tr', html)
        assert all(f'id="p{number}"' in html for number in range(1, 301))
        assert "<script>" not in html and not re.search(r"\son[a-z]+=", html)

    def test_it_never_shows_a_score_as_a_fraction(self):
        pages = [
            self.tournament.get_absolute_url(),
            f"/tournaments/{self.tournament.pk}/players/{self.players[0].pk}/",
            self.players[0].get_absolute_url(),
        ]
        for url in pages:
            text = visible_text(self.client.get(url))
            assert not re.search(r"\b\d+/2\b", text), url
        html = self.client.get(self.tournament.get_absolute_url()).content.decode()
        points = re.findall(r'<td class="num"><strong>([^<]*)</strong></td>', html)
        assert len(points) == 300 and all(re.fullmatch(r"\d+½?|½", p) for p in points)
        assert any(p.endswith("½") for p in points)

    def test_it_puts_old_and_new_next_to_the_name_in_the_orr_table(self):
        html = self.client.get(self.tournament.get_absolute_url()).content.decode()
        table = html[html.index('id="orr-calculation"') :]
        heads = re.findall(r"<th(?:\s[^>]*)?>(.*?)</th>", table[: table.index("</thead>")])
        assert heads[:3] == ["No.", "Name", "Old → new"]


class ListDisplayTestCase(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        cls.club = ClubFactory(name="Белая ладья")
        cls.girl = PlayerFactory(family_name="Смирнова", given_names="Анна", sex="F", club=cls.club)
        cls.odd = PlayerFactory(family_name=f"{RLO}Evil", given_names="Nom", club=ClubFactory(name=f"{RLO}Club"))
        cls.players = [cls.girl, cls.odd, *(PlayerFactory() for _ in range(8))]
        cls.first = make_tournament(
            "Осенний кубок",
            TODAY - datetime.timedelta(days=90),
            cls.players,
            seed=3,
            city=f"{RLO}Town",
            time_control_detail="90 min + 30 s",
        )
        cls.second = make_tournament(f"{RLO}Cup", TODAY - datetime.timedelta(days=30), cls.players, seed=4)
        services.rating_run(tournament_id=cls.first.pk)
        services.gcr_recompute(force=True)
        Tournament.objects.filter(pk=cls.first.pk).update(rated_at=timezone.now())

    def test_it_says_on_each_list_what_its_numbers_and_its_star_mean(self):
        expected = {
            "orr": ("main rating", "fewer than 11 rated games or 2 tournaments"),
            "mchess": ("starts at 0", "Mchess has no provisional ratings"),
            "playchess": ("enters at 1000", "fewer than 10 rated games"),
            "gcr": ("holistic", "GCR has no provisional ratings"),
        }
        for system, (scale, legend) in expected.items():
            html = self.client.get(f"/ratings/{system}/").content.decode()
            assert re.search(rf'<p class="scale" id="scale">[^<]*{scale}', html), system
            assert re.search(rf'<p class="legend" id="legend">[^<]*{legend}', html), system

    def test_it_keeps_the_filters_and_the_sort_in_the_month_picker(self):
        html = self.client.get("/ratings/orr/?sex=F&club=&sort=name&page=2").content.decode()
        picker = html[html.index('id="month-picker"') : html.index("</form>", html.index('id="month-picker"'))]
        assert '<input type="hidden" name="sex" value="F">' in picker
        assert '<input type="hidden" name="sort" value="name">' in picker
        assert 'name="page"' not in picker and 'name="club"' not in picker
        assert "data-autosubmit" in picker  # applied by static/js/public.js, not an onchange attribute
        filters = html[html.index('id="list-filters"') :]
        assert '<input type="hidden" name="sort" value="name">' in filters[: filters.index("</form>")]

    def test_it_folds_the_filters_unless_one_is_on(self):
        folded = self.client.get("/ratings/orr/").content.decode()
        assert re.search(r'<details class="filters" id="filters"\s*>', folded)
        filtered = self.client.get("/ratings/orr/?sex=F").content.decode()
        assert re.search(r'<details class="filters" id="filters"\s*open>', filtered)

    def test_it_finds_a_player_from_the_home_page(self):
        html = self.client.get("/").content.decode()
        form = html[html.index('id="player-search"') - 200 :]
        assert 'action="/ratings/orr/"' in form[:400] and 'name="name"' in form[:800]
        found = self.client.get("/ratings/orr/", {"name": "smirnova"})
        assert [row.player.pk for row in found.context["table"].page.object_list.data] == [self.girl.pk]

    def test_it_isolates_user_text_from_the_page_direction(self):
        pages = {
            "/ratings/orr/": 2,  # the name and the club
            "/": 2,  # the top list's name and the latest tournament's name
            "/tournaments/": 2,  # the tournament's name and the city
            self.first.get_absolute_url(): 4,  # the city and the name in the three tables
            f"/tournaments/{self.first.pk}/players/{self.girl.pk}/": 1,  # the opponent
        }
        for url, least in pages.items():
            html = self.client.get(url).content.decode()
            inside = re.findall(rf"<bdi>[^<]*{RLO}", html)
            assert len(inside) >= least, (url, len(inside))
            text = re.sub(r'="[^"]*"', "", html)  # attributes (a link's title) are not laid out in the line
            # every one isolated: in a <bdi>, or (a select's options, which hold no markup) between FSI and PDI
            assert text.count(RLO) == len(inside) + len(re.findall(f"\u2068{RLO}[^\u2069<]*\u2069", text)), url
        calculation = self.client.get(f"/tournaments/{self.first.pk}/players/{self.odd.pk}/").content.decode()
        assert re.search(rf'<h1 dir="auto">{RLO}Evil', calculation)

    def test_it_names_the_zone_of_the_times_it_shows(self):
        html = self.client.get(self.first.get_absolute_url()).content.decode()
        local = timezone.localtime(Tournament.objects.get(pk=self.first.pk).rated_at)
        assert f"{local:%Y-%m-%d %H:%M} {local.tzname()}" in html

    def test_it_speaks_russian_on_every_public_page_without_english_leftovers(self):
        offenders = re.compile(
            r"\b(established|provisional|newcomer|no_games|fide|min|sec|moves|rounds|rated|queued|"
            r"Filters|Name|Rating|Tournament|Chess Federation Ratings|How it works|Find a player)\b"
        )
        pages = [
            "/",
            "/ratings/orr/",
            "/ratings/mchess/",
            "/ratings/playchess/",
            "/ratings/gcr/",
            "/tournaments/",
            self.first.get_absolute_url(),
            f"/tournaments/{self.first.pk}/players/{self.girl.pk}/",
            "/ratings/about/",
            "/api/",
            "/accounts/login/",
        ]
        for url in pages:
            response = self.client.get(url, HTTP_ACCEPT_LANGUAGE="ru")
            assert response.status_code == 200, url
            text = visible_text(response).replace(f"{RLO}Evil", "").replace(f"{RLO}Club", "")
            found = offenders.findall(text)
            assert not found, (url, found)
        report = visible_text(self.client.get(self.first.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="ru"))
        assert "90 мин + 30 с" in report and "устоявшийся" in report

    def test_it_heads_the_tournament_lists_name_column_tournament(self):
        html = self.client.get("/tournaments/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
        heads = re.findall(r"<th(?:\s[^>]*)?>(.*?)</th>", html)
        assert heads[0] == "Турнир" and "Имя" not in heads

    @override_settings(SITE_NAME="")
    def test_it_gives_the_default_site_name_in_the_visitors_language(self):
        assert (
            "<title>Рейтинги шахматной федерации</title>"
            in self.client.get("/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
        )
        assert "<title>Chess Federation Ratings</title>" in self.client.get("/").content.decode()
        with override_settings(SITE_NAME="Федерация шахмат Татарстана"):
            assert "<title>Федерация шахмат Татарстана</title>" in self.client.get("/").content.decode()


def test_it_names_the_zone_of_an_audit_entrys_time():
    from accounts.models import AuditEntry

    entry = AuditEntry(created_at=datetime.datetime(2026, 11, 23, 15, 5, tzinfo=datetime.UTC), summary="merged")
    assert str(entry).startswith("2026-11-23 18:05 MSK ")  # TIME_ZONE Europe/Moscow, UTC+3


def test_it_shows_a_times_zone_and_runs_no_inline_script_in_every_template():
    for path in Path(settings.BASE_DIR, "templates").rglob("*.html"):
        text = path.read_text()
        for fmt in re.findall(r'\|date:"([^"]*)"', text):
            if re.search(r"[HGhgi]", fmt):
                assert re.search(r"[TOe]", fmt), f"{path}: {fmt}"
        assert "localtime" not in text or " T" in text, path
        assert not re.search(r"<script(?![^>]*\ssrc=)", text), path
        assert not re.search(r"\son[a-z]+=", text), path
