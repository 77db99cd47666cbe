"""The array engine (ratings/engines/gcr.py) equals, to the last bit, the plain loop it replaced
(tests/engines/gcr_reference.py), whatever the games: every float is compared with ==, and the
players come in the same order."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.engines import gcr
from tests.engines import gcr_reference


def assert_same(games, **options):
    expected = gcr_reference.rate(games)
    result = gcr.rate(iter(games), **options)  # any iterable, as the callers' generators
    assert list(result.players) == list(expected.players)
    assert result == expected
    for pid, player in result.players.items():
        assert [type(value) for value in player] == [type(value) for value in expected.players[pid]]
        assert repr(player) == repr(expected.players[pid])
    assert repr(result.accuracy) == repr(expected.accuracy)


def ids(kind: str):
    if kind == "small":
        return st.integers(0, 12)
    if kind == "sparse":  # too wide a range for the table: numbered by a sort
        return st.integers(-(2**62), 2**62)
    if kind == "huge":  # beyond 64 bits: through the dict
        return st.integers(2**64, 2**64 + 12)
    return st.text("abcdef", min_size=1, max_size=2)


@st.composite
def game_lists(draw):
    kind = draw(st.sampled_from(("small", "sparse", "huge", "text")))
    player = ids(kind)
    games = draw(st.lists(st.tuples(player, player, st.sampled_from((0, 1, 2))), max_size=80))
    return [(a, b, hp) for a, b, hp in games if a != b]


@settings(max_examples=300, deadline=None)
@given(game_lists())
def test_it_rates_exactly_as_the_plain_loop(games):
    assert_same(games)


@settings(max_examples=100, deadline=None)
@given(game_lists())
def test_it_rates_exactly_as_the_plain_loop_when_the_rounds_turn_small(games):
    # From the second round on, the rest of each pass runs as a loop.
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(gcr, "SMALL_ROUNDS_AFTER", 1)
        patch.setattr(gcr, "SMALL_ROUND", 10**9)
        assert_same(games)


@pytest.mark.parametrize("players", [40, 400, 4000])
def test_it_rates_a_federation_exactly_as_the_plain_loop(players):
    # Thousands of games: hundreds of rounds per pass, pairs met many times, draws.
    rng = random.Random(players)
    games = []
    for _ in range(6000):
        a, b = rng.sample(range(players), 2)
        games.append((a, b, rng.choice((0, 1, 1, 2, 2))))
    assert_same(games)
    assert_same(games, fork_from=0)


def test_it_rates_one_player_against_everybody_exactly_as_the_plain_loop():
    # Every visit waits for the one before: rounds of one visit, finished by the loop.
    rng = random.Random(3)
    games = [(0, rng.randint(1, 2000), rng.choice((0, 1, 2))) for _ in range(3000)]
    assert_same(games)
