"""The public what-if calculator (issue 27, part 3): the rating run's own code, nothing written."""

import pytest
from django.urls import reverse

from ratings.engines import mchess
from ratings.engines.common import Game
from ratings.models import PlayerRating, RatingChange
from tests.players.factories import PlayerFactory

pytestmark = pytest.mark.django_db
URL = "/ratings/whatif/"


def test_it_serves_the_calculator_at_its_url():
    assert reverse("whatif:calculator") == URL


def test_it_rates_a_player_given_by_rating_as_the_mchess_engine_does(client):
    response = client.get(URL, {"rating": 1800, "opponents": "1800 1\n2000 0.5", "weight": 250, "day": "2026-06-01"})
    assert response.status_code == 200
    results = {result["name"]: result["change"] for result in response.context["results"]}
    expected = mchess.rate_tournament(
        {-1: 1800, -2: 1800, -3: 2000}, [Game(1, -1, -2, "1-0"), Game(2, -1, -3, "1/2-1/2")], weight=250
    )[-1]
    assert results["Mchess"].after == expected.rating_after
    assert results["Mchess"].after > 1800
    assert results["Mchess"].details["W"] == 250
    assert results["ORR"].after > 1800 and results["ORR"].games == 2
    # The engine's game tuples are shown as a table of games, never as raw tuples.
    page = response.content.decode()
    assert 'id="whatif-mchess-games"' in page and "[(" not in page


def test_it_rates_a_newcomer_by_id_with_a_provisional_rating_and_writes_nothing(client, django_assert_max_num_queries):
    newcomer = PlayerFactory()
    opponents = [PlayerFactory() for _ in range(3)]
    for player, rating in zip(opponents, (1500, 1600, 1700), strict=True):
        PlayerRating.objects.create(
            player=player, system="orr", rating=rating, provisional=False, games=30, tournaments=3,
            state={"rating": rating, "provisional": False, "games": 30, "tournaments": 3, "stored": []},
        )  # fmt: skip
    text = "\n".join(f"#{p.federation_id} {s}" for p, s in zip(opponents, ("1", "1", "0.5"), strict=True))
    with django_assert_max_num_queries(12):
        response = client.get(URL, {"player": newcomer.federation_id, "opponents": text, "day": "2026-06-01"})
    orr = next(result["change"] for result in response.context["results"] if result["name"] == "ORR")
    assert orr.before is None and orr.after is not None and orr.provisional_after
    assert f"{orr.after}*" in response.content.decode()
    # The games as the report's calculation shows them: each opponent by name, his rating, the result.
    lines = next(result["lines"] for result in response.context["results"] if result["name"] == "ORR")
    assert [(line["opponent"], line["opponent_rating"], line["result"]) for line in lines] == [
        (str(p), r, t) for p, r, t in zip(opponents, (1500, 1600, 1700), ("1", "1", "½"), strict=True)
    ]
    assert RatingChange.objects.count() == 0 and PlayerRating.objects.count() == 3


def test_it_names_the_field_and_row_of_bad_input(client):
    response = client.get(URL, {"rating": 1800, "opponents": "1800 1\n1900 2"})
    assert "Row 2 (1900 2)" in response.content.decode()
    assert response.context["results"] is None
    response = client.get(URL, {"rating": 1800, "opponents": "#999999 1"})
    assert "Row 1: no player has the federation id 999999." in response.content.decode()
    response = client.get(URL, {"player": 999999, "opponents": "1800 1"})
    assert "No player has the federation id 999999." in response.content.decode()


def test_it_shows_an_empty_form_to_the_anonymous_visitor(client):
    response = client.get(URL)
    assert response.status_code == 200 and response.context["results"] is None
    assert 'id="whatif-form"' in response.content.decode()
