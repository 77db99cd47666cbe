"""GCR keeps each player's last counted game, so its list shows "last played" and filters the active."""

import datetime

import pytest

from ratings import services
from ratings.filters import RatingListFilter
from ratings.models import PlayerRating
from tests.ratings.scenario import children, make_tournament
from tournaments.models import Game

pytestmark = pytest.mark.django_db

D = datetime.date


def test_it_stores_the_end_of_each_players_latest_tournament_counted_in_gcr():
    kids = children(10, seed=5)
    early = make_tournament("Autumn", D(2025, 9, 6), kids, rounds=3, seed=1)
    late = make_tournament("Winter", D(2025, 12, 6), kids[:6], rounds=3, seed=2, end=D(2025, 12, 7))
    # A tournament not counted in GCR does not make anybody "active" there.
    make_tournament("Blitz", D(2026, 1, 10), kids[6:], rounds=1, seed=3, rate_gcr=False)
    for tournament in Tournament_order(early, late):
        services.rating_run(tournament_id=tournament.pk)
    services.gcr_recompute(force=True)
    last = dict(PlayerRating.objects.filter(system="gcr").values_list("player_id", "last_played"))
    played_late = set(
        Game.objects.filter(tournament=late, kind=Game.Kind.PLAYED).values_list("white_id", flat=True)
    ) | set(Game.objects.filter(tournament=late, kind=Game.Kind.PLAYED).values_list("black_id", flat=True))
    assert played_late
    for kid in kids:
        if kid.pk in played_late:
            assert last[kid.pk] == D(2025, 12, 7)
        elif kid.pk in last:
            assert last[kid.pk] == early.end_date


def test_it_lists_the_active_in_gcr():
    kids = children(8, seed=6)
    tournament = make_tournament("Cup", D(2026, 9, 6), kids, rounds=3, seed=4)
    services.rating_run(tournament_id=tournament.pk)
    services.gcr_recompute(force=True)
    rated = PlayerRating.objects.filter(system="gcr")
    assert rated.count() == len(kids)
    active = RatingListFilter({"active": "on"}, queryset=rated, reference=D(2026, 11, 1)).qs
    assert active.count() == len(kids)


def Tournament_order(*tournaments):
    return sorted(tournaments, key=lambda t: (t.end_date, t.start_date, t.pk))
