"""Game Courier Ratings: the vectors the original site publishes (gcr.md)."""

import random

import pytest

from ratings.engines import gcr


def test_it_rates_one_game():
    # X beats Y: 1518.18 -> shown 1518, Y 1481.82 -> 1481.
    result = gcr.rate([("X", "Y", 2)])
    assert round(result.players["X"].gcr, 2) == 1518.18
    assert round(result.players["Y"].gcr, 2) == 1481.82
    assert (result.players["X"].display, result.players["Y"].display) == (1518, 1481)


def test_it_rates_two_and_a_half_of_three():
    result = gcr.rate([("X", "Y", 2), ("Y", "X", 0), ("X", "Y", 1)])
    assert round(result.players["X"].gcr, 2) == 1530.77
    assert round(result.players["Y"].gcr, 2) == 1469.23
    assert (result.players["X"].display, result.players["Y"].display) == (1530, 1469)


def test_it_reproduces_the_three_player_example_pass_by_pass():
    # Sorted A (2 games), D, J; D beat A, A beat J.
    result = gcr.rate([("D", "A", 2), ("A", "J", 2)])
    a, d, j = (result.players[k] for k in "ADJ")
    assert (round(d.gcr1, 2), round(a.gcr1, 2), round(j.gcr1, 2)) == (1518.18, 1500.80, 1480.99)
    assert (round(d.gcr2, 2), round(a.gcr2, 2), round(j.gcr2, 2)) == (1519.01, 1499.20, 1481.82)
    assert (d.display, a.display, j.display) == (1518, 1500, 1481)


def test_it_orders_the_zig_zag_by_diagonals():
    """Five players in sort order 0..4 who all played each other once: the visiting order is
    d1: (0,1) (1,2) (2,3) (3,4); d2 from the top: (2,4) (1,3) (0,2); d3: (0,3) (1,4); d4: (0,4)."""
    # Games and wins make the order p0..p4 unique: p0 wins everything, p1 all but one, ...
    names = [f"p{k}" for k in range(5)]
    games = [(names[i], names[j], 2) for i in range(5) for j in range(i + 1, 5)]
    visited = []
    original = gcr._pass

    def spy(visits, size, *, reverse):
        # The reverse pass reads the same visits backwards.
        order = list(zip(visits.i.tolist(), visits.j.tolist(), strict=True))
        visited.append(order[::-1] if reverse else order)
        return original(visits, size, reverse=reverse)

    gcr._pass = spy
    try:
        gcr.rate(games)
    finally:
        gcr._pass = original
    forward = [(0, 1), (1, 2), (2, 3), (3, 4), (2, 4), (1, 3), (0, 2), (0, 3), (1, 4), (0, 4)]
    assert visited[0] == forward
    assert visited[1] == forward[::-1]


def test_it_sorts_players_by_games_then_wins_then_opponents_then_id():
    # b: 2 games; a, c, d: 1 game each; a and c won theirs, tie broken by opponents (both 1), then id.
    result = gcr.rate([("a", "b", 2), ("c", "b", 2), ("e", "d", 1)])
    assert list(result.players) == ["b", "a", "c", "d", "e"]


def test_it_measures_accuracy_of_the_final_ratings():
    result = gcr.rate([("X", "Y", 2)])
    # Final 1518.18 vs 1481.82: expected 36.36 / 8 + 50 = 54.55 % for X, who won.
    assert result.accuracy == pytest.approx(54.545, abs=0.01)
    assert result.players["X"].accuracy == pytest.approx(54.545, abs=0.01)
    # Y lost: the final ratings gave that loss the same 54.55 %.
    assert result.players["Y"].accuracy == pytest.approx(54.545, abs=0.01)
    drawn = gcr.rate([("X", "Y", 1)])
    assert drawn.accuracy == pytest.approx(100.0)  # equal ratings: a draw is what they predict
    assert result.games == 1


def test_it_handles_no_games_and_refuses_self_play():
    assert gcr.rate([]).players == {}
    assert gcr.rate([]).accuracy is None
    with pytest.raises(ValueError, match="cannot play himself"):
        gcr.rate([("a", "a", 1)])


def test_it_gives_the_same_numbers_with_the_reverse_pass_in_a_child_process():
    rng = random.Random(7)
    games = []
    for _ in range(3000):
        a, b = rng.sample(range(300), 2)
        games.append((a, b, rng.choice((0, 1, 2))))
    alone = gcr.rate(games)
    forked = gcr.rate(games, fork_from=0)
    assert forked == alone  # to the last bit
    assert forked.players[games[0][0]].gcr2 != 1500.0


def test_it_reports_a_failing_child(monkeypatch):
    from ratings.forked import ChildFailed

    def broken(visits, size, *, reverse):
        if reverse:  # the reverse pass, in the child
            raise ZeroDivisionError("in the child")
        return original(visits, size, reverse=reverse)

    original = gcr._pass
    monkeypatch.setattr(gcr, "_pass", broken)
    with pytest.raises(ChildFailed, match="ZeroDivisionError"):
        gcr.rate([("X", "Y", 2), ("Y", "Z", 1)], fork_from=0)
