"""Game Courier Ratings, as ../shared/spec/gcr.md defines them: holistic, recomputed from
scratch over every rated played game each time.

Players are ordered by games, wins and distinct opponents (all descending), then id.
Pairs (i, j), i < j, of that order lie on diagonal d = j - i; the forward pass visits
diagonals 1, 2, ... with odd diagonals from i = 0 upwards and even ones from the top
down, and only pairs that played are visited (a sort of those pairs, never a loop
over all n^2). The reverse pass visits the same sequence backwards. GCR is the mean of
both passes, shown truncated.

Cost: O(G) to aggregate G games into P <= G pairs, O(P log P) to order them, O(P) per
pass.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from operator import itemgetter

from ratings.engines.common import PlayerId

START = 1500.0
STABILITY = 800  # a player's past games p damp his change by 1 - p / (p + 800)
GAMES_WEIGHT = 10  # n games between a pair count n / (n + 10) of the full swing


@dataclass(frozen=True, slots=True)
class GcrPlayer:
    id: PlayerId
    gcr1: float  # after the forward pass
    gcr2: float  # after the reverse pass
    games: int
    wins: int
    opponents: int
    accuracy: float  # % : mean probability the final ratings gave his actual results

    @property
    def gcr(self) -> float:
        return (self.gcr1 + self.gcr2) / 2

    @property
    def display(self) -> int:
        """Truncated, as the original site shows it: 1518.18 is 1518, 1530.77 is 1530."""
        return math.trunc(self.gcr)


@dataclass(frozen=True, slots=True)
class GcrResult:
    players: dict[PlayerId, GcrPlayer]
    accuracy: float | None  # % over all games
    games: int


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
    # p1, p2, n, p1's actual percentage, and 4n / (n + 10).
    width = size + 1
    visits, keys, outcomes = [], [], []
    for pair, n in pair_games.items():
        won = pair_wins.get(pair, 0)
        drawn = pair_draws.get(pair, 0)
        i = index[pair[0]]
        j = index[pair[1]]
        if i > j:
            i, j, won = j, i, n - won - drawn
        d = j - i
        visits.append((i, j, n, 100 * (won + drawn / 2) / n, 4 * n / (n + GAMES_WEIGHT)))
        keys.append(d * width + (i if d & 1 else size - i))
        outcomes.append((i, j, won, drawn, n - won - drawn))
    visits = [visits[k] for k in sorted(range(len(keys)), key=keys.__getitem__)]

    # 5-6. Two passes.
    gcr1 = _pass(visits, size)
    visits.reverse()
    gcr2 = _pass(visits, size)

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

    players = {
        pid: GcrPlayer(
            pid,
            gcr1[k],
            gcr2[k],
            games_of[pid],
            wins_of[pid],
            opponents_of[pid],
            100 * hit[k] / games_of[pid],
        )
        for k, pid in enumerate(order)
    }
    # Every game counts once for each of its two players: half the sum is the total.
    accuracy = 50 * math.fsum(hit) / total_games if total_games else None
    return GcrResult(players, accuracy, total_games)


def _pass(visits, size: int) -> list[float]:
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
        ratings[i] = r1 + base * (1 - g1 / (g1 + STABILITY))
        ratings[j] = r2 - base * (1 - g2 / (g2 + STABILITY))
        past[i] = g1 + n
        past[j] = g2 + n
    return ratings
