"""Every rule and vector of docs/rules/orr.md, with the specification's own numbers."""

import datetime
from fractions import Fraction

import pytest

from ratings.engines import orr
from ratings.engines.common import Game, round_half_up
from ratings.engines.orr import OrrParticipant, OrrState, OrrTournament

START = datetime.date(2026, 6, 1)


def born(years: float) -> datetime.date:
    """A birth date giving exactly `years` (to 1/1461) at START."""
    return START - datetime.timedelta(days=round(years * 365.25))


# --- Section 1 ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rating", "k_plus", "k_minus"),
    [
        (0, 100, 5),  # Decision: a rating of 0 uses the first band
        (1, 100, 5),
        (99, 100, 5),
        (100, 100, 10),
        (178, 100, 10),
        (250, 100, 15),
        (399, 100, 20),
        (450, 100, 25),
        (500, 90, 25),
        (650, 80, 25),
        (700, 70, 25),
        (899, 60, 25),
        (950, 50, 25),
        (1000, 45, 25),
        (1099, 45, 25),
        (1100, 40, 25),
        (1299, 40, 25),
        (1300, 35, 25),
        (1500, 30, 25),
        (1699, 30, 25),
        (1700, 25, 20),
        (1999, 25, 20),
        (2000, 20, 20),
        (2199, 20, 20),
        (2200, 16, 16),
        (2399, 16, 16),
        (2400, 12, 12),
        (2850, 12, 12),
    ],
)
def test_it_takes_k_from_the_table(rating, k_plus, k_minus):
    assert orr.k_factor(rating, True) == k_plus
    assert orr.k_factor(rating, False) == k_minus


def test_it_rates_1500_beating_1500():
    # Section 1 vector: PD 0.5, SR 0.5, K 30, R± 14.8125, new 1515.
    assert orr.pd_cents(1500, 1500) == 50
    assert orr.k_factor(1500, True) == 30
    change = orr.rating_change(30, 50)
    assert change == Fraction("14.8125")
    assert orr.new_rating(1500, change) == 1515


def test_it_rates_178_with_plus_and_minus_point_eight():
    # Section 1 vector: K 100, R± 78.4, new 256; K 10, R± -8, new 170.
    assert orr.rating_change(orr.k_factor(178, True), 80) == Fraction("78.4")
    assert orr.new_rating(178, Fraction("78.4")) == 256
    assert orr.rating_change(orr.k_factor(178, False), -80) == -8
    assert orr.new_rating(178, Fraction(-8)) == 170


def test_it_caps_the_change_above_sr_twenty():
    assert orr.rating_change(12, 2001) == 120
    assert orr.rating_change(12, 2000) == 12 * 20 * Fraction(1, 2)


def test_it_never_goes_below_zero():
    assert orr.new_rating(3, Fraction(-5)) == 0


def test_it_rounds_pd_to_two_decimals():
    # 1/(1 + 10^(-601/400)) = 0.9695... -> 0.97; 1/(1 + 10^(200/400)) = 0.2402... -> 0.24
    assert orr.pd_cents(1200, 599) == 97
    assert orr.pd_cents(1000, 1200) == 24
    assert orr.pd_cents(1200, 1000) == 76


# --- 2.1 Ages and the tournament coefficient -------------------------------------------------


def test_it_clamps_ages_and_places_unknown_days_on_first_july():
    start = datetime.date(2026, 1, 10)
    assert orr.age_units(datetime.date(2024, 1, 1), "day", start) == 5 * 1461  # 2 years -> 5
    assert orr.age_units(datetime.date(1980, 1, 1), "day", start) == 13 * 1461  # adult -> 13
    assert orr.age_units(None, "unknown", start) == 5 * 1461  # Decision: unknown counts as 5
    year_only = orr.age_units(datetime.date(2016, 12, 31), "year", start)
    assert year_only == orr.age_units(datetime.date(2016, 7, 1), "day", start) == 4 * 3480


def test_it_rounds_the_mean_age_to_one_decimal_exactly():
    assert orr.mean_age([4 * 3480]) == Fraction(95, 10)  # 9.5277 -> 9.5
    assert orr.mean_age([8 * 1461, 9 * 1461]) == Fraction(85, 10)  # 8.5 exactly stays 8.5
    # A true half: 15 opponents of 8 and 5 of 9 average exactly 8.25 -> 8.3 (half up, not to even).
    assert orr.mean_age([8 * 1461] * 15 + [9 * 1461] * 5) == Fraction(83, 10)


def test_it_computes_seed_example_one():
    # Np 26, one rated 1950 scoring 4/9, opponents' Yavg 8.0: Ki 26.78, Kt 26 -> 25 -> n 5, i 1 -> 11.
    ki = orr.player_coefficient(1950, 9, 8, Fraction(8))
    assert round(ki, 2) == 26.78
    coefficient = orr.tournament_coefficient([ki], 26)
    assert (coefficient.n, coefficient.i, coefficient.lowered) == (5, 1, True)
    assert coefficient.kt == 11


def test_it_uses_eight_without_rated_players_and_clamps_to_the_range():
    assert orr.tournament_coefficient([], 30).kt == 8
    assert orr.tournament_coefficient([3.0, 4.0], 4).kt == 8
    assert orr.tournament_coefficient([40.0, 41.0], 4).kt == 25


def test_it_lowers_kt_only_when_fewer_rated_players_than_the_root():
    assert orr.tournament_coefficient([20.5] * 5, 25).kt == 20  # i = n = 5: kept
    assert orr.tournament_coefficient([20.5] * 4, 25).kt == 7 + (20 - 8) // 1  # i = 4 < 5
    assert orr.tournament_coefficient([9.9] * 2, 25).kt == 8  # 7 + [1/3] = 7 -> at least 8


def test_it_rounds_the_square_root_of_participants():
    assert [orr.rounded_sqrt(n) for n in (1, 2, 3, 6, 7, 12, 13, 26, 30, 31)] == [1, 1, 2, 2, 3, 3, 4, 5, 5, 6]


def test_it_computes_seed_example_one_inside_a_tournament():
    """26 eight-year-olds, one with FIDE 1950 (a FIDE-rated tournament) scoring 4/9."""
    players = [OrrParticipant("rated", fide_rating=1950, birth_date=born(8.0))]
    players += [OrrParticipant(f"n{k}", birth_date=born(8.0)) for k in range(25)]
    games = []
    for rnd in range(1, 10):
        result = "1-0" if rnd <= 4 else "0-1"
        games.append(Game(rnd, "rated", f"n{rnd}", result))
    # The rest play each other so that everybody has games.
    for rnd in range(1, 10):
        games.append(Game(rnd, f"n{10 + rnd}", f"n{rnd + 15 if rnd + 15 < 25 else 0}", "1/2-1/2"))
    result = orr.rate_tournament(OrrTournament(START, tuple(players), tuple(games), fide_rated=True))
    assert result.players["rated"].yavg == Fraction(8)
    assert round(result.players["rated"].ki, 2) == 26.78
    assert result.kt == 11


# --- 2.2 Corridors ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kt", "yavg", "rmin", "rmax"),
    [
        (8, 5, 11, 811),
        (8, 8, 438, 1238),
        (8, 13, 896, 1696),
        (13, 9, 1000, 1808),  # Rmin = Rmax - 800 = 1008, but at most 1000
    ],
)
def test_it_reproduces_the_corridor_table(kt, yavg, rmin, rmax):
    c = orr.corridor(kt, Fraction(yavg), 9)
    assert (c.rmin, c.rmax) == (rmin, rmax)


def test_it_narrows_the_corridor_for_few_games():
    c = orr.corridor(11, Fraction(7), 1)
    assert (c.rmax, c.rmin, c.rpmax) == (1411, 611, 1411 - 50 * 6)
    assert orr.corridor(11, Fraction(7), 6).rpmax == 1411 - 50
    assert orr.corridor(11, Fraction(7), 7).rpmax == 1411
    assert orr.corridor(11, Fraction(7), 15).rpmax == 1411


def test_it_computes_seed_example_two():
    # Kt 11, newcomer 1/1 against 1026, Yavg 7.0: Rmax 1411 (rounded; the seed truncates to 1410),
    # Rmin 611, Rpmax 1111, Rs 1111, fictitious draw against 1111, Rsr 1069 (1068.5 half up), Rp 1260.
    c = orr.corridor(11, Fraction(7), 1)
    assert (c.rmax, c.rmin, c.rpmax) == (1411, 611, 1111)
    rs = orr.start_estimate(c, 1, 2)
    assert rs == 1111
    est = orr.estimate([1026], 2, rs, c.rpmax, rs)
    assert est.fictitious_opponent == 1111
    assert est.rsr == 1069
    assert est.value == 1260


def test_it_computes_seed_example_two_inside_a_tournament():
    """A seven-year-old rated 1026 loses his only game to a newcomer in a tournament of Kt 11."""
    # Kt 11 comes from example 1's field; the newcomer's opponent is a seven-year-old.
    players = [OrrParticipant("rated", fide_rating=1950, birth_date=born(8.0))]
    players += [OrrParticipant(f"n{k}", birth_date=born(8.0)) for k in range(23)]
    players += [OrrParticipant("seven", state=OrrState(1026), birth_date=born(7.0))]
    players += [OrrParticipant("newcomer", birth_date=born(8.0))]
    games = [Game(rnd, "rated", f"n{rnd}", "1-0" if rnd <= 4 else "0-1") for rnd in range(1, 10)]
    games.append(Game(1, "newcomer", "seven", "1-0"))
    # The seven-year-old has a rating too, so he adds his Ki: (20 e^1.826 - 5) / 8 = 14.90. The mean
    # with 26.78 is 20.84 -> Kt 20; i = 2 < n = 5 lowers it to 7 + [12 / 3] = 11, example 2's Kt.
    result = orr.rate_tournament(OrrTournament(START, tuple(players), tuple(games), fide_rated=True))
    newcomer = result.players["newcomer"]
    assert result.kt == 11, result.coefficient
    assert newcomer.yavg == Fraction(7)
    assert (newcomer.corridor.rmax, newcomer.corridor.rmin, newcomer.corridor.rpmax) == (1411, 611, 1111)
    assert (newcomer.rs, newcomer.rsr, newcomer.rp) == (1111, 1069, 1260)
    assert newcomer.rating_for_calculation == 1260
    assert result.players["seven"].lines[0].opponent_rating == 1260


def test_it_computes_seed_example_three():
    # Kt 8, Yavg 7.0, 26/26: Rmax 1115, Rmin 315, Rs 1115; with the fictitious draw Rsr 700, Rp 1390,
    # corrected for N > 15 to 1390 - 11 * 275 / 20 = 1238.75 -> 1239.
    c = orr.corridor(8, Fraction(7), 26)
    assert (c.rmax, c.rmin, c.rpmax) == (1115, 315, 1115)
    rs = orr.start_estimate(c, 26, 52)
    assert rs == 1115
    opponents = [684] * 25 + [685]  # with the fictitious 1115: 18900 / 27 = 700
    est = orr.estimate(opponents, 52, rs, c.rpmax, rs)
    assert est.rsr == 700
    assert est.corrected_from == 1390
    assert est.value == 1239


def test_it_corrects_only_above_fifteen_games_and_above_rpmax():
    assert orr.correct_for_many_games(1390, 1115, 15) == 1390
    assert orr.correct_for_many_games(1000, 1115, 26) == 1000  # [Rp/Rpmax] = 0
    assert orr.correct_for_many_games(1390, 1115, 16) == 1390 - round(1 * 275 / 20)  # 1376.25 -> 1376


def test_it_gives_a_zero_score_newcomer_his_start_estimate():
    c = orr.corridor(8, Fraction(95, 10), 2)
    rs = orr.start_estimate(c, 2, 0)
    assert rs == c.rmin == 599
    est = orr.estimate([1200, 1000], 0, rs, c.rpmax, rs)
    assert (est.rsr, est.value) == (1100, 599)


def test_it_keeps_rp_exact_when_the_logarithm_is_an_integer():
    # 1/2 of the points: lg(1) = 0 -> Rp = Rsr; S = N/11: lg 10 = 1 -> Rsr - 400.
    assert orr.performance(1234, 4, 4) == 1234
    assert orr.performance(1234, 11, 2) == 834
    assert orr.performance(1234, 11, 20) == 1634


def test_it_computes_r_change_in_integers_as_the_spec_formula():
    # R± = K·SR for SR < 0, 10·K for SR > 20, K·SR·(1 − SR/40) otherwise; the engine computes it
    # from integers, which must give the very same fractions.
    for k in (10, 15, 20, 25, 30, 40, 45):
        for cents in range(-2500, 2600, 7):
            sr = Fraction(cents, 100)
            expected = sr * k if sr < 0 else Fraction(k * 10) if sr > 20 else k * sr * (1 - sr / 40)
            assert orr.rating_change(k, cents) == expected, (k, cents)
            assert orr.new_rating(1000, orr.rating_change(k, cents)) == max(0, round_half_up(1000 + expected))
