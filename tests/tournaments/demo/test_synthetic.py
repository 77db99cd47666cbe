"""The synthetic Swiss of the demo and the benchmarks pairs as an arbiter would."""

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.demo import season, synthetic
from tournaments.importers.registry import read_result_file


def _check(games, players, rounds):
    pairs = [frozenset((white, black)) for _, white, black, _ in games if black is not None]
    assert len(pairs) == len(set(pairs)), "a pairing repeats"
    per_round = Counter(rnd for rnd, _, _, _ in games)
    assert set(per_round) == set(range(1, rounds + 1))
    assert all(count == (players + 1) // 2 for count in per_round.values())
    history: dict[int, list[str]] = {p: [] for p in range(players)}
    for _, white, black, _ in sorted(games):
        if black is not None:
            history[white].append("w")
            history[black].append("b")
    for colours in history.values():
        assert "www" not in "".join(colours) and "bbb" not in "".join(colours)
        assert abs(colours.count("w") - colours.count("b")) <= 2
    byes = [white for _, white, black, _ in games if black is None]
    assert len(byes) == len(set(byes)), "a player had two byes"


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 9), st.integers(0, 50), st.integers(0, 10**6))
def test_it_never_repeats_a_pairing_and_alternates_colours(rounds, extra, seed):
    # A Swiss field: at least twice as many players as rounds (a round robin is paired by its table).
    players = 2 * rounds + extra
    rng = random.Random(seed)
    games = synthetic.swiss(rng, [rng.gauss(1500, 300) for _ in range(players)], rounds)
    _check(games, players, rounds)


def test_it_gives_the_colour_a_player_is_due():
    # Player 0 had white twice: whatever the lots say, he has black next.
    colours = {0: ["w", "w"], 1: ["w", "b"]}
    for seed in range(20):
        assert synthetic._colours(random.Random(seed), 0, 1, colours) == (1, 0)
    # Equal balance: the one who had black last gets white.
    assert synthetic._colours(random.Random(0), 0, 1, {0: ["w", "b"], 1: ["b", "w"]}) == (0, 1)


def test_it_pairs_the_demo_season_as_real_crosstables():
    for file in season():
        parsed = read_result_file(file.name, file.data)
        seen: Counter = Counter()
        for game in parsed.games:
            if game.black is not None and game.white is not None:
                seen[frozenset((game.white, game.black))] += 1
        assert seen and max(seen.values()) == 1, file.name
