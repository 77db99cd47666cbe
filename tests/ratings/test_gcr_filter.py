"""GCR over a filter of games (issue 27, part 1): the page and /api/gcr/ equal GCR computed alone on
the games that pass, whatever the filter; bad parameters are named; answers are cached until the
next GCR recomputation."""

import datetime
import itertools

import pytest
from django.core.cache import cache
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from play.models import MobileGame
from ratings import services
from ratings.engines import gcr
from ratings.gcrquery.query import BOARD, GcrQuery
from ratings.gcrquery.selectors import gcr_over
from ratings.models import GcrRun, PlayerRating
from tests.players.factories import ClubFactory, PlayerFactory
from tests.ratings.scenario import make_tournament
from tournaments.models import Game, Tournament

pytestmark = pytest.mark.django_db

D = datetime.date
HALF_POINTS = {"1-0": 2, "1/2-1/2": 1, "0-1": 0}


@pytest.fixture
def federation():
    """Two clubs, players born 2012-2016, four tournaments: three rated in GCR (ending in
    September, October and December), one left out of GCR, one not rated yet; a computer too."""
    north, south = ClubFactory(name="North"), ClubFactory(name="South")
    kids = [PlayerFactory(club=north if n % 2 else south, birth_date=D(2012 + n % 5, 3, 1 + n)) for n in range(12)]
    computer = PlayerFactory(family_name="Stockfish", kind="computer")
    rated = Tournament.Status.RATED
    tournaments = [
        make_tournament("Autumn", D(2025, 9, 6), kids, rounds=5, seed=1, status=rated),
        make_tournament("October", D(2025, 10, 4), kids[:8], rounds=4, seed=2, status=rated),
        make_tournament("Winter", D(2025, 12, 6), kids[4:], rounds=5, seed=3, status=rated),
        make_tournament("Blitz", D(2025, 11, 1), kids, rounds=3, seed=4, status=rated, rate_gcr=False),
        make_tournament("Waiting", D(2025, 12, 20), kids[:6], rounds=2, seed=5),
    ]
    Game.objects.create(tournament=tournaments[0], round=6, board=1, white=kids[0], black=computer, result="1-0")
    return {"kids": kids, "clubs": (north, south), "tournaments": tournaments, "computer": computer}


def _alone(query: GcrQuery) -> dict:
    """GCR computed alone on the games that pass, the filter applied in Python, row by row."""
    games = []
    for game in Game.objects.select_related("tournament", "white", "black").filter(kind=Game.Kind.PLAYED):
        t, white, black = game.tournament, game.white, game.black
        if "computer" in (white.kind, black.kind):
            continue
        if query.rated_only and not (t.rate_gcr and t.status == Tournament.Status.RATED):
            continue
        if query.tournaments and t.pk not in query.tournaments:
            continue
        if (query.since and t.end_date < query.since) or (query.until and t.end_date > query.until):
            continue
        if query.club is not None and not (white.club_id == black.club_id == query.club):
            continue
        if query.born_from and not (white.birth_date.year >= query.born_from <= black.birth_date.year):
            continue
        if query.born_until and not (white.birth_date.year <= query.born_until >= black.birth_date.year):
            continue
        games.append((white.pk, black.pk, HALF_POINTS[game.result]))
    result = gcr.rate(games)
    return {
        "games": result.games,
        "accuracy": None if result.accuracy is None else round(result.accuracy, 2),
        "ratings": {pid: (max(0, p.display), p.games) for pid, p in result.players.items()},
    }


def _by_player(answer, federation):
    ids = {kid.federation_id: kid.pk for kid in federation["kids"]}
    return {ids[row["federation_id"]]: (row["rating"], row["games"]) for row in answer["results"]}


@settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(
    tournaments=st.sets(st.integers(0, 4), max_size=3),
    since=st.sampled_from([None, D(2025, 9, 1), D(2025, 10, 1), D(2025, 11, 1)]),
    until=st.sampled_from([None, D(2025, 10, 31), D(2025, 12, 31)]),
    club=st.sampled_from([None, 0, 1]),
    born=st.sampled_from([(None, None), (2013, None), (None, 2014), (2013, 2015)]),
    rated_only=st.booleans(),
)
def test_it_equals_gcr_computed_alone_on_the_filtered_games(
    federation, tournaments, since, until, club, born, rated_only
):
    query = GcrQuery(
        tournaments=tuple(federation["tournaments"][n].pk for n in tournaments),
        since=since,
        until=until,
        club=None if club is None else federation["clubs"][club].pk,
        born_from=born[0],
        born_until=born[1],
        rated_only=rated_only,
    )
    answer, alone = gcr_over(query), _alone(query)
    assert answer["games"] == alone["games"]
    assert answer["accuracy"] == alone["accuracy"]
    assert _by_player(answer, federation) == alone["ratings"]


def test_it_counts_every_rated_gcr_game_without_filters_as_the_gcr_list_does(federation):
    services.gcr_recompute(force=True)
    stored = dict(PlayerRating.objects.filter(system="gcr").values_list("player__federation_id", "rating"))
    answer = gcr_over(GcrQuery())
    assert answer["games"] == GcrRun.objects.get(pk=1).games > 0
    assert {row["federation_id"]: row["rating"] for row in answer["results"]} == stored
    ratings = [row["rating"] for row in answer["results"]]
    assert ratings == sorted(ratings, reverse=True)


def test_it_lets_an_anonymous_visitor_share_a_filter_by_its_url(client, federation):
    autumn = federation["tournaments"][0]
    response = client.get(f"/ratings/gcr/filter/?tournament={autumn.pk}&kind=board")
    assert response.status_code == 200
    alone = _alone(GcrQuery(tournaments=(autumn.pk,)))
    assert response.context["answer"]["games"] == alone["games"]
    top = response.context["answer"]["results"][0]
    assert f"/players/{top['federation_id']}/" in response.content.decode()


def test_it_says_what_the_gcr_document_says_when_no_game_passes(client, federation):
    response = client.get("/ratings/gcr/filter/?since=2030-01-01")
    page = response.content.decode()
    assert "No games passed through the filters." in page
    assert "There was insufficient data to calculate any ratings." in page


def test_it_speaks_russian_to_a_player(client, personas, federation):
    client.force_login(personas["player"])
    response = client.get("/ratings/gcr/filter/?since=2030-01-01", HTTP_ACCEPT_LANGUAGE="ru")
    assert "Ни одна партия не прошла через фильтры" in response.content.decode()


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("tournament=abc", "tournament"),
        ("since=2025-13-01", "since"),
        ("since=2025-12-01&until=2025-01-01", "until"),
        ("days=0", "days"),
        ("days=x", "days"),
        ("club=999999", "club"),
        ("kind=blitz", "kind"),
        ("rated=sometimes", "rated"),
        ("born_from=2015&born_until=2010", "born_until"),
        ("age_group=u9", "age_group"),
        ("born_from=10000", "born_from"),
    ],
)
def test_it_names_a_bad_parameter_to_an_api_client_and_on_the_page(client, federation, query, field):
    answer = client.get(f"/api/gcr/?{query}")
    assert answer.status_code == 400
    assert field in answer.json()["errors"]
    page = client.get(f"/ratings/gcr/filter/?{query}")
    assert page.status_code == 400
    assert page.context["form"].errors[field]


def test_it_answers_the_api_in_the_issues_shape(client, federation):
    north = federation["clubs"][0]
    response = client.get(f"/api/gcr/?club={north.pk}&rated=all")
    assert response["Content-Type"] == "application/json"
    assert response["Access-Control-Allow-Origin"] == "*"
    assert "X-RateLimit-Remaining" in response
    data = response.json()
    assert set(data) == {"games", "accuracy", "results"}
    assert set(data["results"][0]) == {"federation_id", "name", "rating", "games"}
    alone = _alone(GcrQuery(club=north.pk, rated_only=False))
    assert data["games"] == alone["games"] and data["accuracy"] == alone["accuracy"]


def test_it_reads_the_games_in_few_queries_for_an_admin(admin_client, federation, django_assert_max_num_queries):
    # The version, the games of each source (over the board, mobile), the players' names; the page
    # adds the session, the user and the form's clubs and regions.
    with django_assert_max_num_queries(4):
        gcr_over(GcrQuery(kinds=(BOARD, "mobile", "computer")))
    with django_assert_max_num_queries(9):
        assert admin_client.get("/ratings/gcr/filter/?since=2025-01-01").status_code == 200


def test_it_keeps_an_answer_until_the_next_gcr_recomputation(federation):
    query = GcrQuery(since=D(2025, 10, 1))
    first = gcr_over(query)
    Game.objects.filter(tournament=federation["tournaments"][2]).delete()
    assert gcr_over(query) == first  # cached
    GcrRun.objects.update_or_create(pk=1, defaults={"requested_at": timezone.now(), "computed_at": timezone.now()})
    assert gcr_over(query)["games"] < first["games"]
    cache.clear()


def test_it_counts_games_against_computers_only_when_asked(client, federation):
    data = client.get("/api/gcr/?kind=computer").json()
    assert data == {"games": 0, "accuracy": None, "results": []}  # over-the-board computer games are left out


def test_it_takes_an_age_group_as_the_lists_count_it(client, federation):
    year = timezone.localdate().year
    data = client.get("/api/gcr/?age_group=u12&rated=all").json()
    alone = _alone(GcrQuery(born_from=year - 12, rated_only=False))
    assert data["games"] == alone["games"]
    assert _by_player(data, federation) == alone["ratings"]
    narrower = client.get(f"/api/gcr/?age_group=u12&born_from={year - 11}&rated=all").json()
    assert narrower["games"] == _alone(GcrQuery(born_from=year - 11, rated_only=False))["games"]


_CODES = itertools.count(1)


def _mobile(white, black, day, result="1-0", *, plies=20):
    finished = datetime.datetime(day.year, day.month, day.day, 12, 0, tzinfo=datetime.UTC)
    return MobileGame.objects.create(
        code=f"GCR-{next(_CODES)}",  # 24 characters at most, whatever the ids a long suite has reached
        white=white,
        black=black,
        start=finished - datetime.timedelta(hours=2),
        status="finished",
        result=result,
        finished_at=finished,
        plies=plies,
    )


def test_it_counts_mobile_games_and_games_against_computers_by_kind(client, federation):
    kids, computer = federation["kids"], federation["computer"]
    _mobile(kids[0], kids[1], D(2025, 10, 10))
    _mobile(kids[1], kids[2], D(2025, 10, 11), "1/2-1/2")
    _mobile(kids[2], kids[0], D(2025, 10, 12), plies=1)  # a player never moved: not rated
    _mobile(kids[3], computer, D(2025, 10, 13), "0-1")
    mobile = client.get("/api/gcr/?kind=mobile").json()
    assert mobile["games"] == 2
    assert {row["federation_id"] for row in mobile["results"]} == {kids[n].federation_id for n in range(3)}
    assert mobile["results"] == gcr_over(GcrQuery(kinds=("mobile",)))["results"]
    assert client.get("/api/gcr/?kind=mobile&rated=all").json()["games"] == 3
    against = client.get("/api/gcr/?kind=computer").json()
    assert against["games"] == 1
    assert [row["federation_id"] for row in against["results"]] == [computer.federation_id, kids[3].federation_id]
    both = client.get("/api/gcr/?kind=mobile&kind=computer&until=2025-10-12").json()
    assert both["games"] == 2  # the period is the finishing day
    assert client.get(f"/api/gcr/?kind=mobile&tournament={federation['tournaments'][0].pk}").json()["games"] == 0
    everything = client.get("/api/gcr/?kind=board&kind=mobile").json()
    assert everything["games"] == _alone(GcrQuery())["games"] + 2
