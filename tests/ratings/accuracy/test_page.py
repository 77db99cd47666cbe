"""The public page and the API answer with the figures, to anybody, in few queries."""

import pytest
from django.urls import reverse

from tests.ratings.accuracy.test_selectors import federation  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db


def test_it_shows_anonymous_visitors_the_figures_and_the_calibration_chart(client, federation):  # noqa: F811
    response = client.get(reverse("ratings:accuracy:page"))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="calibration-chart"' in html and "<polyline" in html
    for table in ("accuracy-table", "calibration-table", "status-table", "age-table", "year-table"):
        assert f'id="{table}"' in html
    assert "2025" in html and "Game Courier" in html


def test_it_shows_the_page_in_russian(client, federation):  # noqa: F811
    response = client.get(reverse("ratings:accuracy:page"), HTTP_ACCEPT_LANGUAGE="ru")
    assert "Какая рейтинговая система точнее" in response.content.decode()


def test_it_shows_an_empty_federation_without_an_error(client):
    response = client.get(reverse("ratings:accuracy:page"))
    assert response.status_code == 200
    assert "No rated games yet." in response.content.decode()


def test_it_answers_the_api_with_every_systems_figures(client, federation):  # noqa: F811
    response = client.get(reverse("api:accuracy"))
    assert response.status_code == 200
    data = response.json()
    assert [entry["system"] for entry in data["systems"]] == ["orr", "mchess", "playchess", "gcr"]
    gcr = data["systems"][3]
    assert gcr["all"]["games"] > 0 and len(gcr["all"]["calibration"]) == 10
    assert set(gcr["years"]) == {"2024", "2025"}
    assert response["Access-Control-Allow-Origin"] == "*"


def test_it_refuses_a_post_to_the_api(client):
    assert client.post(reverse("api:accuracy")).status_code in (403, 405)


def test_it_reads_the_page_in_few_queries(client, federation, django_assert_max_num_queries):  # noqa: F811
    # Players' birth dates, GCR's ratings and games, a query a system and the events' dates: not a
    # query per game or player.
    with django_assert_max_num_queries(16):
        client.get(reverse("ratings:accuracy:page"))
