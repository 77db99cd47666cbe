from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

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


def test_it_writes_scores_and_hundredths_as_the_exact_values_read():
    from ratings.engines.common import cents_text, half_points_text

    assert [half_points_text(hp) for hp in (0, 1, 2, 9)] == ["0", "1/2", "1", "9/2"]
    assert [cents_text(c) for c in (65, -44, 0, 100, -5, 2000)] == ["0.65", "-0.44", "0.00", "1.00", "-0.05", "20.00"]
    for cents in range(-2500, 2500):
        assert Decimal(cents_text(cents)) * 100 == cents


@given(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e6, max_value=1e6), st.integers(0, 6))
def test_it_rounds_a_float_as_the_decimal_a_person_reads(value, places):
    # round_to takes a fast path for floats; the rule is half-up on the float's shortest decimal.
    from decimal import ROUND_HALF_UP

    expected = Decimal(repr(value)).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    assert round_to(value, places) == expected
    assert str(round_to(value, places)) == str(expected)


def test_it_rounds_float_ties_up_at_any_place():
    assert str(round_to(0.125, 2)) == "0.13"  # the float is a hair below 0.125; the rule reads 0.125
    assert str(round_to(2.675, 2)) == "2.68"
    assert str(round_to(-0.00005, 4)) == "-0.0001"
    assert str(round_to(1e-05, 4)) == "0.0000"


@given(st.integers(-(10**9), 10**9), st.integers(1, 10**6))
def test_it_rounds_a_ratio_as_the_fraction(numerator, denominator):
    from ratings.engines.common import round_ratio

    assert round_ratio(numerator, denominator) == round_half_up(Fraction(numerator, denominator))
