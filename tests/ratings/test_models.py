import datetime

import pytest

from ratings.models import RatingList, System
from tests.base import assert_refused
from tests.ratings.factories import PlayerRatingFactory, RatingChangeFactory

pytestmark = pytest.mark.django_db


def test_it_keeps_one_rating_change_per_player_tournament_and_system():
    change = RatingChangeFactory()
    assert_refused(RatingChangeFactory, player=change.player, tournament=change.tournament, system=change.system)
    RatingChangeFactory(player=change.player, tournament=change.tournament, system=System.MCHESS)


def test_it_keeps_one_current_rating_per_player_and_system():
    rating = PlayerRatingFactory()
    assert_refused(PlayerRatingFactory, player=rating.player, system=rating.system)


def test_it_refuses_ratings_out_of_range():
    assert_refused(PlayerRatingFactory, rating=20001)
    assert_refused(RatingChangeFactory, rating_after=-1)
    assert_refused(RatingChangeFactory, score=-1)


def test_it_marks_provisional_ratings_with_a_star():
    assert PlayerRatingFactory(rating=1345, provisional=True).display == "1345*"
    assert PlayerRatingFactory(rating=1345, provisional=False).display == "1345"


def test_it_computes_the_change_only_when_both_ratings_exist():
    assert RatingChangeFactory(rating_before=1200, rating_after=1185).delta == -15
    assert RatingChangeFactory(rating_before=None, rating_after=1100).delta is None


def test_it_publishes_one_list_per_system_and_month_on_the_first():
    RatingList.objects.create(system=System.ORR, month=datetime.date(2026, 11, 1))
    assert_refused(RatingList.objects.create, system=System.ORR, month=datetime.date(2026, 11, 1))
    assert_refused(RatingList.objects.create, system=System.MCHESS, month=datetime.date(2026, 11, 15))


def test_it_deletes_derived_rows_with_their_tournament_and_player():
    # The derived tables have no database foreign keys (bulk rewrites); Django cascades instead.
    from ratings import services
    from ratings.models import PlayerRating, ProvisionalGame, RatingChange
    from tests.ratings.scenario import children, make_tournament

    kids = children(8, seed=21)
    tournament = make_tournament("Cup", datetime.date(2025, 9, 6), kids, seed=21)
    services.rating_run(tournament_id=tournament.pk)
    assert RatingChange.objects.filter(tournament=tournament).exists()
    assert ProvisionalGame.objects.filter(tournament=tournament).exists()
    tournament.delete()
    assert not RatingChange.objects.filter(tournament_id=tournament.pk).exists()
    assert not ProvisionalGame.objects.filter(tournament_id=tournament.pk).exists()
    kid = kids[0]
    assert PlayerRating.objects.filter(player=kid).exists()
    PlayerRating.objects.filter(player=kid).delete()  # a player with games is protected; his ratings are not
    assert not PlayerRating.objects.filter(player=kid).exists()
