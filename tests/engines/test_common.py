from decimal import Decimal
from fractions import Fraction

import pytest

from ratings.engines.common import Game, floor_log10, log10_rational, rated_games, round_half_up, round_to


def test_it_rounds_halves_away_from_zero_never_to_even():
    assert round_half_up(Fraction(5, 2)) == 3  # Python's round(2.5) is 2
    assert round_half_up(Fraction(-5, 2)) == -3
    assert round_half_up(Fraction(7, 2)) == 4
    assert round_half_up(2.5) == 3
    assert round_half_up(Decimal("1514.8125")) == 1515
    assert round_half_up(Fraction(3, 2) - 2) == -1  # -0.5 away from zero


def test_it_reads_floats_as_their_shortest_decimal():
    # 2.675 is stored as 2.67499999...; a person rounding the printed number gets 2.68.
    assert round_to(2.675, 2) == Decimal("2.68")
    assert round_to(Fraction(1, 8), 2) == Decimal("0.13")
    assert round_to(Fraction(-1, 8), 2) == Decimal("-0.13")


def test_it_takes_integer_logarithms_exactly():
    assert floor_log10(9) == 0
    assert floor_log10(10) == 1
    assert floor_log10(Fraction(19, 2)) == 0
    assert floor_log10(1000) == 3
    assert log10_rational(Fraction(1, 10)) == -1
    assert log10_rational(Fraction(100)) == 2
    assert log10_rational(Fraction(1)) == 0
    assert log10_rational(Fraction(5, 2)) == pytest.approx(0.39794, abs=1e-5)
    with pytest.raises(ValueError, match="x >= 1"):
        floor_log10(Fraction(1, 2))


def test_it_rates_only_played_games_with_a_real_result():
    games = [
        Game(1, "a", "b", "1-0"),
        Game(1, "c", "d", "1-0", kind="forfeit"),
        Game(1, "e", None, "1-0", kind="bye"),
        Game(2, "a", "c", "1/2-1/2", kind="short"),
    ]
    assert rated_games(games) == [games[0]]
    with pytest.raises(ValueError, match="cannot have the result '0-0'"):
        rated_games([Game(3, "a", "b", "0-0")])
    with pytest.raises(ValueError, match="cannot play himself"):
        rated_games([Game(3, "a", "a", "1-0")])
