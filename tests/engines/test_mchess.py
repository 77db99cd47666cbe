"""Mchess, with the numbers of mchess-playchess.md."""

import datetime
from fractions import Fraction

import pytest

from ratings.engines import mchess
from ratings.engines.common import Game


def test_it_moves_equal_ratings_by_half_the_weight():
    # Equal ratings 10 000 vs 10 000, W 250, the lower wins: LRP 0.5 -> 10 125 and 9 875.
    assert mchess.lrp(10_000, 10_000) == Fraction(1, 2)
    result = mchess.rate_tournament({"low": 10_000, "high": 10_000}, [Game(1, "low", "high", "1-0")])
    assert (result["low"].rating_after, result["high"].rating_after) == (10_125, 9_875)


def test_it_computes_lrp_from_the_squared_difference():
    # d = 1000: LRP = 1 / (2 + 1) = 1/3.
    assert mchess.lrp(11_000, 10_000) == Fraction(1, 3)
    # The lower player draws: change = 250 * (0.5 - 1/3) = 41.67 -> 42.
    assert mchess.game_change(250, 11_000, 10_000, 1) == 42
    # The lower player loses: 250 * (0 - 1/3) = -83.33 -> -83; wins: 250 * 2/3 = 166.67 -> 167.
    assert mchess.game_change(250, 11_000, 10_000, 0) == -83
    assert mchess.game_change(250, 11_000, 10_000, 2) == 167


def test_it_rounds_a_change_of_exactly_half_away_from_zero_once():
    # W 251, equal ratings, the lower wins: 125.5 -> 126 for one, -126 for the other.
    assert mchess.game_change(251, 10_000, 10_000, 2) == 126
    assert mchess.game_change(251, 10_000, 10_000, 0) == -126
    result = mchess.rate_tournament({"a": 10_000, "b": 10_000}, [Game(1, "a", "b", "1-0")], weight=251)
    assert result["a"].rating_after + result["b"].rating_after == 20_000


def test_it_uses_the_weight_of_the_tournament():
    regular = mchess.rate_tournament({"a": 8_000, "b": 8_000}, [Game(1, "a", "b", "1-0")])
    top = mchess.rate_tournament({"a": 8_000, "b": 8_000}, [Game(1, "a", "b", "1-0")], weight=500)
    assert regular["a"].rating_after == 8_125
    assert top["a"].rating_after == 8_250
    with pytest.raises(ValueError, match="positive"):
        mchess.rate_tournament({"a": 1, "b": 1}, [], weight=0)


def test_it_applies_rounds_in_order_with_ratings_from_before_the_round():
    ratings = {"a": 10_000, "b": 10_000, "c": 10_000, "d": 10_000}
    games = [
        Game(2, "a", "c", "1-0"),  # round 2 is listed first: order of the list does not matter
        Game(1, "a", "b", "1-0"),
        Game(1, "c", "d", "1-0"),
        Game(2, "b", "d", "1/2-1/2"),
    ]
    result = mchess.rate_tournament(ratings, games)
    # Round 1: a and c win: 10 125, b and d 9 875. Round 2: a (10 125) beats c (10 125): +125.
    assert result["a"].rating_after == 10_250
    assert result["c"].rating_after == 10_000
    assert result["b"].rating_after == result["d"].rating_after == 9_875
    assert [d.round for d in result["a"].deltas] == [1, 2]
    assert [d.delta for d in result["a"].deltas] == [125, 125]


def test_it_floors_at_zero_and_caps_at_twenty_thousand():
    result = mchess.rate_tournament({"new": 0, "old": 0}, [Game(1, "new", "old", "0-1")])
    assert result["new"].rating_after == 0
    assert result["old"].rating_after == 125
    top = mchess.rate_tournament({"a": 19_950, "b": 19_950}, [Game(1, "a", "b", "1-0")])
    assert top["a"].rating_after == 20_000
    assert top["a"].deltas[0].delta == 50


def test_it_rates_only_played_games():
    games = [Game(1, "a", "b", "1-0", kind="forfeit"), Game(2, "a", None, "1-0", kind="bye")]
    result = mchess.rate_tournament({"a": 5_000, "b": 5_000}, games)
    assert result["a"].rating_after == 5_000
    assert result["a"].games == 0


def test_it_refuses_two_games_of_one_player_in_a_round_and_unknown_players():
    with pytest.raises(ValueError, match="two games"):
        mchess.rate_tournament({"a": 0, "b": 0, "c": 0}, [Game(1, "a", "b", "1-0"), Game(1, "c", "a", "1-0")])
    with pytest.raises(ValueError, match="no Mchess rating"):
        mchess.rate_tournament({"a": 0}, [Game(1, "a", "z", "1-0")])


def test_it_starts_players_computers_and_fide_imports_where_the_spec_says():
    assert mchess.initial_rating() == 0
    assert mchess.initial_rating(computer=True) == 1000
    assert mchess.initial_rating(fide_rating=1850) == 18_500
    assert mchess.initial_rating(fide_rating=2882) == 20_000


def test_it_rates_games_against_computers_by_the_same_rule():
    result = mchess.rate_tournament({"human": 0, "mchess": 1000}, [Game(1, "human", "mchess", "1-0")])
    # d = 1000: LRP = 1/3; the lower (human) wins: 250 * 2/3 = 166.67 -> 167.
    assert result["human"].rating_after == 167
    assert result["mchess"].rating_after == 833


def test_it_penalises_inactivity_by_r_squared_over_1_44e6():
    # Example: 12 000 inactive -> 12 000 - 100 = 11 900.
    assert mchess.penalised(12_000) == 11_900
    assert mchess.penalised(0) == 0
    assert mchess.penalised(1_200) == 1_199  # 1200 - 1 = 1199
    assert mchess.penalised(6_000) == 5_975  # 6000 - 25
    assert mchess.penalised(20_000) == 19_722  # 20000 - 277.78 = 19722.2


def test_it_counts_more_than_thirty_days_to_the_first_of_the_month():
    november = datetime.date(2026, 11, 1)
    assert mchess.is_inactive(datetime.date(2026, 10, 1), november)  # 31 days
    assert not mchess.is_inactive(datetime.date(2026, 10, 2), november)  # 30 days
    assert not mchess.is_inactive(datetime.date(2026, 10, 31), november)
    assert mchess.is_inactive(None, november)
    with pytest.raises(ValueError, match="first day"):
        mchess.is_inactive(None, datetime.date(2026, 11, 2))


def test_it_applies_the_penalty_only_to_inactive_players_with_points_to_lose():
    ratings = {"idle": 12_000, "active": 12_000, "zero": 0, "never": 5_000}
    last = {"idle": datetime.date(2026, 8, 20), "active": datetime.date(2026, 10, 20), "zero": None}
    changes = mchess.inactivity_penalty(ratings, last, datetime.date(2026, 11, 1))
    assert changes == {"idle": (12_000, 11_900), "never": (5_000, 4_983)}


def test_it_stores_the_lrp_text_as_the_exact_lrp_rounded():
    # The report's LRP comes from a cached float formula; it must read as the exact Fraction does.
    for difference in range(0, mchess.CAP + 1, 7):
        assert mchess.lrp_text(difference) == f"{float(mchess.lrp(difference, 0)):.4f}", difference
    assert mchess.lrp_text(0) == "0.5000" and mchess.lrp_text(1000) == "0.3333"
