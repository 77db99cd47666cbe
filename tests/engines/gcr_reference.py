"""GCR as the engine computed it before issue 28's arrays: plain Python lists, Counters and
one loop per pass (ratings/engines/gcr.py at commit fb1d3df, without its forked child).

Kept as the reference the array engine must equal to the last bit (tests/engines/test_gcr_arrays.py).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from itertools import repeat
from operator import itemgetter

from ratings.engines.common import PlayerId
from ratings.engines.gcr import GAMES_WEIGHT, STABILITY, START, GcrPlayer, GcrResult


def rate(games: Iterable[tuple[PlayerId, PlayerId, int]]) -> GcrResult:
    """Rate every game, each given as (player a, player b, a's score in half points: 2, 1 or 0).

    The work is done column by column with list comprehensions and Counters, which run
    at C speed, leaving plain Python loops only for the two passes themselves.
    """
    # 1. Pairwise results, each pair keyed (lower id, higher id): games, wins, draws.
    canonical = [(a, b, hp) if a < b else (b, a, 2 - hp) for a, b, hp in games]
    for a, b, _ in canonical:
        if a == b:
            raise ValueError(f"player {a!r} cannot play himself")
    pair_games = Counter(map(itemgetter(0, 1), canonical))
    pair_wins = Counter([(a, b) for a, b, hp in canonical if hp == 2])
    pair_draws = Counter([(a, b) for a, b, hp in canonical if hp == 1])

    # 2-3. Players sorted by games, wins, distinct opponents (descending), then id.
    games_of = Counter(map(itemgetter(0), canonical))
    games_of.update(map(itemgetter(1), canonical))
    wins_of = Counter([a if hp == 2 else b for a, b, hp in canonical if hp != 1])
    opponents_of = Counter(map(itemgetter(0), pair_games))
    opponents_of.update(map(itemgetter(1), pair_games))
    order = sorted(games_of, key=lambda pid: (-games_of[pid], -wins_of[pid], -opponents_of[pid], pid))
    size = len(order)
    index = {pid: position for position, pid in enumerate(order)}

    # 4. The zig-zag. Each pair is turned so that p1 comes first in the order (i < j); its
    # place in the pass is one integer: the diagonal d = j - i, then i upwards on odd
    # diagonals and downwards on even ones. A visit carries what the pass needs:
    # p1, p2, n, p1's actual percentage, and 4n / (n + 10). Column by column again: a
    # million pairs went through one Python loop in two seconds.
    pairs = list(pair_games)
    position = index.__getitem__
    outcomes = [
        (i, j, won, drawn, n - won - drawn) if i < j else (j, i, n - won - drawn, drawn, won)
        for i, j, n, won, drawn in zip(
            map(position, map(itemgetter(0), pairs)),
            map(position, map(itemgetter(1), pairs)),
            pair_games.values(),
            map(pair_wins.get, pairs, repeat(0)),
            map(pair_draws.get, pairs, repeat(0)),
            strict=True,
        )
    ]
    width = size + 1
    keys = [(j - i) * width + (i if (j - i) & 1 else size - i) for i, j, _, _, _ in outcomes]
    weight = [0.0] + [4 * n / (n + GAMES_WEIGHT) for n in range(1, max(pair_games.values(), default=0) + 1)]
    visits = [
        (i, j, won + drawn + lost, 100 * (won + drawn / 2) / (won + drawn + lost), weight[won + drawn + lost])
        for i, j, won, drawn, lost in outcomes
    ]
    visits = list(map(visits.__getitem__, sorted(range(len(keys)), key=keys.__getitem__)))
    # 1 - p / (p + 800) for every count of past games a player can reach, computed as the pass
    # computed it game by game (the same float), looked up instead of divided twice a visit.
    damping = [1 - past / (past + STABILITY) for past in range(max(games_of.values(), default=0) + 1)]

    # 5-6. Two passes.
    gcr1 = _pass(visits, size, damping)
    gcr2 = _pass(reversed(visits), size, damping)

    # 7. Accuracy: the probability the final ratings gave to each actual result; the same
    # number for both players of a game.
    final = [(x + y) / 2 for x, y in zip(gcr1, gcr2, strict=True)]
    hit = [0.0] * size
    for i, j, won, drawn, lost in outcomes:
        e = (final[i] - final[j]) / 800 + 0.5
        e = 0.0 if e < 0 else 1.0 if e > 1 else e
        probability = won * e + drawn * (1 - abs(0.5 - e)) + lost * (1 - e)
        hit[i] += probability
        hit[j] += probability
    total_games = len(canonical)

    games = [games_of[pid] for pid in order]
    new = tuple.__new__  # a named tuple without its Python-level __new__
    players = {
        row[0]: new(GcrPlayer, row)
        for row in zip(
            order,
            gcr1,
            gcr2,
            games,
            map(wins_of.get, order, repeat(0)),
            map(opponents_of.__getitem__, order),
            [100 * h / g for h, g in zip(hit, games, strict=True)],
            strict=True,
        )
    }
    # Every game counts once for each of its two players: half the sum is the total.
    accuracy = 50 * math.fsum(hit) / total_games if total_games else None
    return GcrResult(players, accuracy, total_games)


def _pass(visits, size: int, damping: list[float]) -> list[float]:
    """One pass; damping[p] is 1 - p / (p + 800), the share of the swing a player with p past
    games takes."""
    ratings = [START] * size
    past = [0] * size
    for i, j, n, actual, weight in visits:
        r1 = ratings[i]
        r2 = ratings[j]
        expected = (r1 - r2) / 8 + 50
        if expected < 0:
            expected = 0.0
        elif expected > 100:
            expected = 100.0
        # (actual - expected) / 100 * 400 * n / (n + 10)
        base = (actual - expected) * weight
        g1 = past[i]
        g2 = past[j]
        ratings[i] = r1 + base * damping[g1]
        ratings[j] = r2 - base * damping[g2]
        past[i] = g1 + n
        past[j] = g2 + n
    return ratings
