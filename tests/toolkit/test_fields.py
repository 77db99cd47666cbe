"""PlainJSONField: the rating runs' JSON columns, kept as PostgreSQL `json` rather than `jsonb`."""

import pytest
from django.db import connection

from ratings.models import PlayerRating, RatingChange
from tests.ratings.factories import PlayerRatingFactory, RatingChangeFactory

DETAILS = {
    "category": "newcomer",
    "games": [[1, 17, 1450, 2, 12], [2, 18, None, 1, -3]],
    "state": {"rating": 1215, "provisional": True, "stored": [[1450, 2, 7, 1, 17]]},
    "note": 'quotes " and \\ and Юникод',
}


@pytest.mark.django_db
def test_it_gives_back_what_it_was_given():
    change = RatingChangeFactory(details=DETAILS)
    assert RatingChange.objects.get(pk=change.pk).details == DETAILS
    assert RatingChange.objects.values_list("details", flat=True).get(pk=change.pk) == DETAILS
    rating = PlayerRatingFactory(state={"stored": []})
    assert PlayerRating.objects.get(pk=rating.pk).state == {"stored": []}


@pytest.mark.django_db
def test_it_looks_up_keys():
    change = RatingChangeFactory(details=DETAILS)
    RatingChangeFactory(details={"category": "established"})
    assert list(RatingChange.objects.filter(details__category="newcomer")) == [change]
    assert list(RatingChange.objects.filter(details__state__rating=1215)) == [change]
    assert RatingChange.objects.filter(details__state__provisional=True).count() == 1


@pytest.mark.django_db
@pytest.mark.needs("postgresql")  # the column type is PostgreSQL's
def test_it_is_plain_json_on_postgresql():
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT table_name, data_type FROM information_schema.columns "
            "WHERE column_name IN ('details', 'state') "
            "AND table_name IN ('ratings_playerrating', 'ratings_ratingchange') ORDER BY 1"
        )
        assert cursor.fetchall() == [("ratings_playerrating", "json"), ("ratings_ratingchange", "json")]
