"""PlayChess, with the numbers of mchess-playchess.md."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ratings.engines import playchess as pc
from ratings.engines.common import Game, round_half_up
from ratings.engines.playchess import PlayChessParticipant as P
from ratings.engines.playchess import PlayChessState as S


def one_game(result, a=None, b=None):
    a = a or P("a")
    b = b or P("b", S(1000, 20))
    return pc.rate_tournament([a, b], [Game(1, a.id, b.id, result)])


@pytest.mark.parametrize(("result", "rating"), [("1-0", 1400), ("1/2-1/2", 1000), ("0-1", 600)])
def test_it_rates_a_first_game_as_the_seed_does(result, rating):
    # A single win against 1000: p 1, D 800, F 0.5 -> 1400; a draw -> 1000; a loss -> 600.
    a = one_game(result)["a"]
    assert (a.mode, a.rating_after, a.provisional_after) == ("provisional", rating, True)


def test_it_rates_an_established_win_as_the_seed_does():
    # Ro 1800, Pn 50, one win against 1800: k = 20 x 1.15 = 23, We 0.5 -> 1811.5 -> 1812.
    result = one_game("1-0", a=P("a", S(1800, 50)), b=P("b", S(1800, 50)))["a"]
    assert result.mode == "established"
    assert result.k == 23
    assert result.expected == Fraction(1, 2)
    assert result.rating_after == 1812


def test_it_computes_the_formulas():
    assert pc.expectation(0) == Fraction(1, 2)
    assert pc.expectation(400) == Fraction(10, 11)
    assert pc.expectation(-400) == Fraction(1, 11)
    assert pc.expectation(100) == pytest.approx(0.64006, abs=1e-5)
    assert pc.performance_difference(Fraction(0)) == -800
    assert pc.performance_difference(Fraction(1)) == 800
    assert pc.performance_difference(Fraction(1, 2)) == 0
    assert pc.performance_difference(Fraction(10, 11)) == 400
    assert pc.performance_difference(Fraction(3, 4)) == pytest.approx(190.85, abs=0.01)
    assert pc.correction_factor(Fraction(1)) == Fraction(1, 2)
    assert pc.correction_factor(Fraction(1, 2)) == 1


@pytest.mark.parametrize(
    ("rating", "games", "k"),
    [
        (2400, 80, 10),
        (2500, 10, 15),
        (2200, 80, 15),  # r = 70 - 2200/40 = 15
        (2001, 80, Fraction(799, 40)),  # 70 - 2001/40 = 19.975: continuous with r = 20 below
        (2000, 80, 20),
        (1500, 100, 20),
        (1500, 31, 20 * (Fraction(14, 10) - Fraction(31, 200))),
        (1500, 30, 25),
        (1500, 16, 25),
        (1500, 15, 30),
        (1500, 10, 30),
    ],
)
def test_it_takes_the_development_coefficient_from_the_table(rating, games, k):
    assert pc.development_coefficient(rating, games) == k


def test_it_cuts_opponents_more_than_400_away():
    assert pc.cut(2500, 1800) == 2200
    assert pc.cut(1000, 1800) == 1400
    assert pc.cut(2100, 1800) == 2100
    assert pc.cut(2500, None) == 2500  # Decision: no cut-off without a rating of one's own


def test_it_uses_the_cut_off_for_established_players():
    # 1800 (Pn 50) loses to 2600: counts as 2200, We = 1/11; k 23 -> 23 * (0 - 1/11) = -2.09 -> 1798.
    result = pc.rate_tournament([P("a", S(1800, 50)), P("b", S(2600, 50))], [Game(1, "a", "b", "0-1")])
    assert result["a"].lines[0][2] == 2200
    assert result["a"].expected == Fraction(1, 11)
    assert result["a"].rating_after == 1798


def test_it_enters_unrated_players_with_fide_or_the_default():
    assert pc.entry_rating(P("a", fide_rating=1650), 1000) == 1650
    assert pc.entry_rating(P("a"), 1000) == 1000
    assert pc.entry_rating(P("a", S(1320, 3), fide_rating=1650), 1000) == 1320
    # The established player beats an unrated opponent who enters with his FIDE 1650.
    result = pc.rate_tournament([P("a", S(1800, 40)), P("b", fide_rating=1650)], [Game(1, "a", "b", "1-0")])
    assert result["a"].lines[0][2] == 1650
    result = pc.rate_tournament([P("a", S(1800, 40)), P("b")], [Game(1, "a", "b", "1-0")], default_entry_rating=1200)
    assert result["a"].lines[0][2] == 1400  # 1200 is more than 400 below 1800


def test_it_computes_provisional_ratings_over_all_games_so_far():
    first = pc.rate_tournament([P("a"), P("b", S(1000, 20))], [Game(1, "a", "b", "1-0")], tournament_id=1)
    state = first["a"].state_after
    assert state == pc.PlayChessState(1400, 1, (pc.PlayedGame(1000, 2, 1, 1, "b"),))
    # Second tournament: a (1400*, 1 game) loses to 1200. Over both games: p 1/2, Rc 1100, D 0 -> 1100.
    second = pc.rate_tournament([P("a", state), P("c", S(1200, 30))], [Game(1, "c", "a", "1-0")], tournament_id=2)
    a = second["a"]
    assert (a.rc, a.p, a.rating_after) == (1100, Fraction(1, 2), 1100)
    assert a.state_after.games == 2
    # c is established: We against 1400 = P(-200) = 0.2403; k = 20 x 1.25 = 25 -> 1200 + 25 * 0.7597 = 1219.
    assert second["c"].rating_after == 1219


def test_it_establishes_a_rating_at_ten_games():
    history = tuple(pc.PlayedGame(1000, 1) for _ in range(9))
    result = pc.rate_tournament([P("a", S(1000, 9, history)), P("b", S(1000, 20))], [Game(1, "a", "b", "1-0")])
    a = result["a"]
    # Ten games, 5.5 points: p 0.55, D = -400 lg(0.45/0.55) = 34.86, F = 0.995 -> 1034.69 -> 1035.
    assert a.mode == "provisional"
    assert a.rating_after == 1035
    assert not a.provisional_after
    assert a.state_after == pc.PlayChessState(1035, 10)


def test_it_leaves_players_without_games_alone():
    result = pc.rate_tournament([P("a", S(1500, 12)), P("b")], [Game(1, "a", "b", "1-0", kind="forfeit")])
    assert result["a"].rating_after == 1500
    assert result["b"].rating_after is None


@given(
    games=st.integers(1, 40),
    data=st.data(),
)
def test_it_rounds_the_provisional_rating_as_the_exact_one_rounded(games, data):
    half_points = data.draw(st.integers(0, 2 * games))
    opponents = data.draw(st.integers(0, 3000 * games))
    assert pc.rounded_provisional_rating(opponents, games, half_points) == round_half_up(
        pc.provisional_rating(opponents, games, half_points)
    )
