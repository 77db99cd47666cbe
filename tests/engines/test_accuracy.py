"""The figures of "which system predicts best", each checked against a computation written here."""

import datetime
import math
from fractions import Fraction

import pytest

from ratings.engines import accuracy, agegroups
from ratings.engines.accuracy import Observation


def obs(expected, actual, newcomer=False, age="adults", year=2025):
    return Observation(expected, actual, newcomer, age, year)


# --- Each system's own expected score, with the specifications' numbers --------------------------


def test_it_takes_orrs_pd_rounded_to_two_decimals():
    assert accuracy.orr_expected(1500, 1500) == 0.5  # orr.md: Ra 1500 vs 1500, PD 0.5
    # 1 / (1 + 10^(200/400)) = 0.2402... -> 0.24
    assert accuracy.orr_expected(1500, 1700) == 0.24
    assert accuracy.orr_expected(1700, 1500) == 0.76


def test_it_takes_mchess_lrp_for_the_lower_and_its_complement_for_the_higher():
    # LRP = 1 / (2 + d^2 / 10^6): d = 1000 gives 1/3.
    assert accuracy.mchess_expected(9000, 10000) == pytest.approx(1 / 3)
    assert accuracy.mchess_expected(10000, 9000) == pytest.approx(2 / 3)
    assert accuracy.mchess_expected(10000, 10000) == 0.5  # the spec's equal ratings: LRP 0.5


def test_it_takes_playchess_p_of_d():
    assert accuracy.playchess_expected(1800, 1800) == 0.5  # the seed's We 0.5
    assert accuracy.playchess_expected(1400, 1000) == pytest.approx(10 / 11)
    assert accuracy.playchess_expected(1000, 1100) == pytest.approx(1 / (1 + 10 ** (100 / 400)))


def test_it_takes_gcrs_expectation_from_final_ratings_clipped():
    assert accuracy.gcr_expected(1518.18, 1481.82) == pytest.approx((1518.18 - 1481.82) / 800 + 0.5)
    assert accuracy.gcr_expected(2500, 1500) == 1.0
    assert accuracy.gcr_expected(1500, 2500) == 0.0


# --- The figures --------------------------------------------------------------------------------


SAMPLE = [obs(0.76, 1), obs(0.24, 0), obs(0.5, 0.5), obs(0.9, 0), obs(0.1, 1), obs(0.3, 0.5), obs(1.0, 1)]


def _independent(sample):
    """The same figures with Fractions from the definitions, written apart from the module."""
    n = len(sample)
    brier = sum((Fraction(e) - Fraction(s)) ** 2 for e, s, *_ in sample) / n
    mae = sum(abs(Fraction(e) - Fraction(s)) for e, s, *_ in sample) / n
    logs = 0.0
    for e, s, *_ in sample:
        if s > 0:
            logs -= s * math.log(max(e, 1e-15))
        if s < 1:
            logs -= (1 - s) * math.log(max(1 - e, 1e-15))
    return float(brier), logs / n, float(mae)


def test_it_computes_brier_log_loss_and_mae_as_defined():
    figures = accuracy.summarize(SAMPLE)["all"]
    brier, log_loss, mae = _independent(SAMPLE)
    assert figures["games"] == 7
    assert figures["brier"] == pytest.approx(brier, rel=1e-12)
    assert figures["log_loss"] == pytest.approx(log_loss, rel=1e-12)
    assert figures["mae"] == pytest.approx(mae, rel=1e-12)


def test_it_clips_the_log_loss_of_a_certain_prediction_that_failed_at_1e_15():
    figures = accuracy.summarize([obs(1.0, 0), obs(0.0, 1)])["all"]
    assert figures["log_loss"] == pytest.approx(-math.log(1e-15))  # 34.54, not infinity


def test_it_counts_a_draw_as_half_a_point_in_every_figure():
    figures = accuracy.summarize([obs(0.8, 0.5)])["all"]
    assert figures["brier"] == pytest.approx(0.09)
    assert figures["mae"] == pytest.approx(0.3)
    assert figures["log_loss"] == pytest.approx(-(0.5 * math.log(0.8) + 0.5 * math.log(0.2)))


def test_it_bins_expectations_by_tenths_with_the_top_bin_closed():
    table = accuracy.summarize(SAMPLE)["all"]["calibration"]
    assert [row["low"] for row in table] == [k / 10 for k in range(10)]
    # By hand: 0.1 -> bin 1, 0.24 -> 2, 0.3 -> 3, 0.5 -> 5, 0.76 -> 7, 0.9 and 1.0 -> 9.
    assert [row["games"] for row in table] == [0, 1, 1, 1, 0, 1, 0, 1, 0, 2]
    top = table[9]
    assert top["mean_expected"] == pytest.approx(0.95)
    assert top["mean_actual"] == pytest.approx(0.5)
    assert table[0]["mean_expected"] is None and table[0]["mean_actual"] is None


def test_it_splits_newcomers_established_age_groups_and_years_and_they_add_up():
    sample = [
        obs(0.6, 1, newcomer=True, age="u10", year=2024),
        obs(0.4, 0, newcomer=False, age="u10", year=2025),
        obs(0.7, 0.5, newcomer=True, age="adults", year=2025),
        obs(0.2, 1, newcomer=False, age="unknown", year=2025),
    ]
    result = accuracy.summarize(sample)
    newcomers = [o for o in sample if o.newcomer]
    assert result["newcomers"]["games"] == 2
    assert result["newcomers"]["brier"] == pytest.approx(_independent(newcomers)[0])
    assert result["established"]["mae"] == pytest.approx(_independent([o for o in sample if not o.newcomer])[2])
    assert result["age_groups"]["u10"]["log_loss"] == pytest.approx(_independent(sample[:2])[1])
    assert list(result["years"]) == [2024, 2025]
    assert result["years"][2025]["games"] == 3
    assert result["years"][2025]["brier"] == pytest.approx(_independent(sample[1:])[0])


def test_it_reports_no_figure_for_an_empty_group():
    result = accuracy.summarize([])
    assert result["all"]["games"] == 0
    assert result["all"]["brier"] is None and result["all"]["log_loss"] is None


def test_it_puts_a_player_in_his_youngest_age_group_of_the_games_year():
    d = datetime.date
    # As the lists' filter: under 8 in 2025 when born in 2017 or later.
    assert agegroups.age_group(d(2017, 1, 1), 2025) == "u8"
    assert agegroups.age_group(d(2016, 12, 31), 2025) == "u10"
    assert agegroups.age_group(d(2007, 6, 1), 2025) == "u18"
    assert agegroups.age_group(d(2006, 12, 31), 2025) == "adults"
    assert agegroups.age_group(None, 2025) == "unknown"


def test_it_gives_each_group_the_birth_years_the_youngest_group_rule_puts_in_it():
    # One rule, three readers (the lists' filter, the GCR filter, the accuracy page): the bounds
    # and the youngest group must agree for every birth year around the limits.
    year = 2025
    for born in range(year - 25, year + 1):
        youngest = agegroups.age_group(datetime.date(born, 6, 1), year)
        member_of = []
        for key in agegroups.KEYS:
            first, last = agegroups.birth_years(key, year)
            if (first is None or born >= first) and (last is None or born <= last):
                member_of.append(key)
        assert member_of[0] == youngest
    assert agegroups.birth_years("adults", 2025) == (None, 2006)
    assert agegroups.birth_years("u8", 2025) == (2017, None)
    with pytest.raises(ValueError, match="no age group 'u99'"):
        agegroups.birth_years("u99", 2025)


def test_it_offers_in_the_lists_filter_exactly_the_groups_the_rule_knows():
    from ratings.filters import AGE_GROUPS

    assert tuple(key for key, _ in AGE_GROUPS) == agegroups.KEYS
