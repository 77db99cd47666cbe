"""An event's pairings (play/rules/pairing.py): pure, without a database."""

import itertools

import pytest

from play.rules.pairing import round_robin


@pytest.mark.parametrize("count", [2, 3, 4, 5, 6, 9])
def test_it_pairs_every_two_players_once(count):
    pairs = round_robin(range(count))
    assert sorted(tuple(sorted(pair)) for pair in pairs) == list(itertools.combinations(range(count), 2))


@pytest.mark.parametrize("count", [3, 4, 5, 6, 8, 10])
def test_it_gives_each_player_white_in_half_his_games(count):
    """Half, or one more or one less with an odd number of games (one player fewer with a bye)."""
    whites = [white for white, _ in round_robin(range(count))]
    games = count - 1
    assert all(abs(2 * whites.count(player) - games) <= 1 for player in range(count)), whites
