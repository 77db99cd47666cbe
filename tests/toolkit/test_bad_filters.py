"""No filter value, page number or month crashes a list: pages show the form's error (and an
empty list, never the unfiltered one as if filtered), the API answers 400 naming the field."""

import datetime
import json
import re

import pytest
from django.test import Client

from ratings import services
from tests.players.factories import PlayerFactory
from tests.ratings.scenario import make_tournament

HUGE = "9" * 30
BAD_YEARS = ["10000", "0", "-5", HUGE, "1e400", "nan", "2015.5", "abc"]
BAD_MONTHS = ["2025-13", "abc", "10000-01", "0000-01", "2025-1", "2025-00"]
LIST_BAD = (
    [("birth_year", value) for value in BAD_YEARS]
    + [("month", value) for value in BAD_MONTHS]
    + [
        ("age_group", "u99"),
        ("sex", "X"),
        ("club", "abc"),
        ("club", HUGE),
        ("region", "-1"),
        ("provisional", "maybe"),
        ("name", "a\x00b"),
    ]
)
TOURNAMENT_BAD = [
    ("since", "99999-01-01"),
    ("until", "0000-01-01"),
    ("since", "2025-02-30"),
    ("until", "abc"),
    ("status", "zz"),
    ("time_control", "zz"),
    ("q", "a\x00b"),
    ("city", "a\x00b"),
    ("arbiter", "a\x00b"),
]
BAD_PAGES = ["0", "-1", "abc", HUGE, "1.5", "2"]
SYSTEMS = ["orr", "mchess", "playchess", "gcr"]


@pytest.fixture
def rated(db):
    players = [PlayerFactory(birth_date=datetime.date(2015, 1, n + 1)) for n in range(6)]
    tournament = make_tournament("Cup", datetime.date(2025, 9, 6), players, seed=3)
    services.rating_run(tournament_id=tournament.pk)
    services.gcr_recompute(force=True)
    services.publish_lists(month=datetime.date(2025, 10, 1))
    return players


def _client():
    return Client(raise_request_exception=False)


@pytest.mark.parametrize(("field", "value"), LIST_BAD)
def test_it_shows_the_error_of_a_bad_list_filter(rated, field, value):
    for system in SYSTEMS:
        for params in ({}, {"month": "2025-10"}):  # the live list and a published one
            params = {**params, field: value}
            response = _client().get(f"/ratings/{system}/", params)
            assert response.status_code == 400, (system, params)
            assert field in response.context["filter"].errors
            assert 'class="errorlist' in response.content.decode()
            assert list(response.context["table"].page.object_list.data) == []
            download = _client().get(f"/ratings/{system}/", {**params, "download": "csv"})
            assert download.status_code == 400  # the page with the error, not a file of the wrong list
            api = _client().get(f"/api/lists/{system}/", params)
            assert api.status_code == 400
            assert field in json.loads(api.content)["errors"]


@pytest.mark.parametrize(("field", "value"), TOURNAMENT_BAD)
def test_it_shows_the_error_of_a_bad_tournament_filter(rated, field, value):
    response = _client().get("/tournaments/", {field: value})
    assert response.status_code == 400
    assert field in response.context["filter"].errors
    assert 'class="errorlist' in response.content.decode()
    assert list(response.context["page"].object_list) == []


@pytest.mark.parametrize("page", BAD_PAGES)
def test_it_never_crashes_on_a_bad_page_number(rated, page):
    for url in ["/ratings/orr/", "/ratings/orr/?month=2025-10", "/ratings/gcr/", "/tournaments/"]:
        response = _client().get(url, {"page": page})
        assert response.status_code == 200, url
    api = _client().get("/api/lists/orr/", {"page": page})
    assert api.status_code == 400
    assert "page" in json.loads(api.content)["errors"]


def test_it_answers_the_first_page_of_an_empty_api_list_without_error(rated):
    response = _client().get("/api/lists/orr/", {"name": "nobody", "page": "1"})
    assert response.status_code == 200
    assert json.loads(response.content)["results"] == []


def test_it_starts_sorting_links_again_at_page_one(rated):
    response = _client().get("/ratings/orr/", {"page": "2", "birth_year": "2015"})
    links = re.findall(r'<th class="[^"]*orderable[^"]*"><a href="([^"]+)"', response.content.decode())
    assert links
    for link in links:
        assert "page=" not in link
        assert "birth_year=2015" in link


def test_it_says_in_the_apis_json_that_a_list_does_not_exist(rated):
    unpublished = _client().get("/api/lists/orr/", {"month": "1999-01"})
    assert unpublished.status_code == 404
    assert unpublished["Content-Type"] == "application/json"
    assert json.loads(unpublished.content)["errors"]["month"][0]["code"] == "not_found"
    unknown = _client().get("/api/lists/elo/")
    assert unknown.status_code == 404
    assert "system" in json.loads(unknown.content)["errors"]
    assert _client().get("/ratings/orr/", {"month": "1999-01"}).status_code == 404
