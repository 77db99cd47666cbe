"""The figures read from a rated federation, each against a computation written here from the games
and the ratings before them, with each system's formula as its rules write it."""

import datetime
import math

import pytest

from ratings import services
from ratings.accuracy import selectors
from ratings.models import PlayerRating, RatingChange
from tests.ratings.scenario import children, make_tournament
from tournaments.models import Game

pytestmark = pytest.mark.django_db

D = datetime.date


@pytest.fixture
def federation():
    kids = children(10, seed=11)
    first = make_tournament("Autumn", D(2024, 9, 6), kids, rounds=4, seed=3)
    services.rating_run(tournament_id=first.pk)
    # One round: every rating "before the game" is the rating before the tournament, in every system.
    second = make_tournament("Spring", D(2025, 3, 6), kids, rounds=1, seed=8)
    services.rating_run(tournament_id=second.pk)
    services.gcr_recompute(force=True)
    return first, second


def _games(tournament):
    return list(
        Game.objects.filter(tournament=tournament, kind=Game.Kind.PLAYED).values_list("white_id", "black_id", "result")
    )


def _score(result):
    return {"1-0": 1.0, "1/2-1/2": 0.5, "0-1": 0.0}[result]


def _before(tournament, system):
    return {
        p: (r, prov)
        for p, r, prov in RatingChange.objects.filter(tournament=tournament, system=system).values_list(
            "player_id", "rating_before", "provisional_before"
        )
    }


def _figures(pairs):
    n = len(pairs)
    brier = sum((e - s) ** 2 for e, s in pairs) / n
    mae = sum(abs(e - s) for e, s in pairs) / n
    logs = -sum(s * math.log(max(e, 1e-15)) + (1 - s) * math.log(max(1 - e, 1e-15)) for e, s in pairs) / n
    return n, brier, logs, mae


def _check(figures, pairs):
    n, brier, logs, mae = _figures(pairs)
    assert figures["games"] == n
    assert figures["brier"] == pytest.approx(brier, rel=1e-9)
    assert figures["log_loss"] == pytest.approx(logs, rel=1e-9)
    assert figures["mae"] == pytest.approx(mae, rel=1e-9)


def _both_sides(games, expected):
    pairs = []
    for white, black, result in games:
        pairs.append((expected(white, black), _score(result)))
        pairs.append((expected(black, white), 1 - _score(result)))
    return pairs


def _by_system(report):
    return {entry["system"]: entry for entry in report["systems"]}


def test_it_scores_orr_with_pd_from_the_ratings_before_the_tournament(federation):
    _first, second = federation
    before = _before(second, "orr")
    # A game with a newcomer (no ORR rating before the tournament) is left out.
    games = [g for g in _games(second) if before[g[0]][0] is not None and before[g[1]][0] is not None]
    assert games

    def pd(own, other):
        value = 1 / (1 + 10 ** ((before[other][0] - before[own][0]) / 400))
        return math.floor(value * 100 + 0.5) / 100

    _check(_by_system(selectors.compute())["orr"]["years"][2025], _both_sides(games, pd))


def test_it_scores_mchess_with_the_lower_players_lrp(federation):
    _first, second = federation
    before = _before(second, "mchess")

    def lrp(own, other):
        mine, theirs = before[own][0], before[other][0]
        lower = 1 / (2 + (mine - theirs) ** 2 / 10**6)
        return 0.5 if mine == theirs else lower if mine < theirs else 1 - lower

    _check(_by_system(selectors.compute())["mchess"]["years"][2025], _both_sides(_games(second), lrp))


def test_it_scores_playchess_with_p_of_d_after_the_cut_off(federation):
    _first, second = federation
    before = _before(second, "playchess")

    def entry(player):
        return before[player][0] if before[player][0] is not None else 1000

    def p_of_d(own, other):
        mine, theirs = entry(own), entry(other)
        if before[own][0] is not None:
            theirs = min(max(theirs, mine - 400), mine + 400)
        return 1 / (1 + 10 ** (-(mine - theirs) / 400))

    _check(_by_system(selectors.compute())["playchess"]["years"][2025], _both_sides(_games(second), p_of_d))


def test_it_scores_gcr_with_its_final_ratings_over_every_game(federation):
    first, second = federation
    final = {
        p: (float(a) + float(b)) / 2
        for p, a, b in PlayerRating.objects.filter(system="gcr").values_list("player_id", "gcr1", "gcr2")
    }

    def expected(own, other):
        return min(1.0, max(0.0, (final[own] - final[other]) / 800 + 0.5))

    report = _by_system(selectors.compute())["gcr"]
    games = _games(first) + _games(second)
    _check(report["all"], _both_sides(games, expected))
    # Nobody has 10 games before the second tournament: every side of every game is a newcomer's.
    assert report["newcomers"]["games"] == 2 * len(games)
    assert report["established"]["games"] == 0


def test_it_counts_newcomers_as_those_without_a_rating_or_provisional_before_the_game(federation):
    first, second = federation
    report = _by_system(selectors.compute())
    for system in ("mchess", "playchess"):
        sides = []
        for tournament in (first, second):
            before = _before(tournament, system)
            sides += [before[p] for w, b, _ in _games(tournament) for p in (w, b)]
        figures = report[system]
        assert figures["newcomers"]["games"] == sum(r is None or provisional for r, provisional in sides)
        assert figures["established"]["games"] == sum(r is not None and not provisional for r, provisional in sides)


def test_it_keeps_the_figures_until_the_data_changes(federation, django_assert_max_num_queries):
    selectors.report()
    with django_assert_max_num_queries(2):  # the data version's stamp at most; no figure recomputed
        selectors.report()


def test_it_computes_the_figures_after_a_gcr_run_before_anybody_asks(federation, django_assert_max_num_queries):
    from django.core.cache import cache

    from ratings.tasks import recompute_gcr

    cache.delete(selectors.cache_key())
    services.gcr_request()
    recompute_gcr.apply()  # eager: GCR, then the figures' refresh it queues
    assert cache.get(selectors.cache_key()) is not None
    with django_assert_max_num_queries(2):
        assert selectors.report()["systems"][3]["all"]["games"] > 0
