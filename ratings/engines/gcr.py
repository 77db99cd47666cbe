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
from collections.abc import Iterable
from dataclasses import dataclass

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


def _expected(diff: float) -> float:
    """p1's expected percentage: diff / 8 + 50, clipped to [0, 100]."""
    value = diff / 8 + 50
    return 0.0 if value < 0 else 100.0 if value > 100 else value


def rate(games: Iterable[tuple[PlayerId, PlayerId, int]]) -> GcrResult:
    """Rate every game, each given as (player a, player b, a's score in half points: 2, 1 or 0)."""
    # 1. Pairwise table: wins, draws and losses of the lower id against the higher id.
    table: dict[tuple, list[int]] = {}
    for a, b, half_points in games:
        if a == b:
            raise ValueError(f"player {a!r} cannot play himself")
        if a > b:
            a, b, half_points = b, a, 2 - half_points
        entry = table.get((a, b))
        if entry is None:
            entry = table[(a, b)] = [0, 0, 0]
        entry[2 - half_points] += 1  # index 0: a won, 1: drawn, 2: b won

    # 2-3. Players sorted by games, wins, distinct opponents (descending), then id.
    games_of: dict = {}
    wins_of: dict = {}
    opponents_of: dict = {}
    for (a, b), (won, drawn, lost) in table.items():
        n = won + drawn + lost
        games_of[a] = games_of.get(a, 0) + n
        games_of[b] = games_of.get(b, 0) + n
        wins_of[a] = wins_of.get(a, 0) + won
        wins_of[b] = wins_of.get(b, 0) + lost
        opponents_of[a] = opponents_of.get(a, 0) + 1
        opponents_of[b] = opponents_of.get(b, 0) + 1
    order = sorted(games_of, key=lambda pid: (-games_of[pid], -wins_of.get(pid, 0), -opponents_of[pid], pid))
    size = len(order)
    index = {pid: position for position, pid in enumerate(order)}

    # 4. The zig-zag: each played pair's place in the pass, as one integer to sort by.
    p1s, p2s, counts, scores, keys = [], [], [], [], []
    width = size + 1
    for (a, b), (won, drawn, lost) in table.items():
        i, j = index[a], index[b]
        if i < j:
            s = won + drawn / 2
        else:
            i, j = j, i
            s = lost + drawn / 2
        d = j - i
        p1s.append(i)
        p2s.append(j)
        counts.append(won + drawn + lost)
        scores.append(s)
        keys.append(d * width + (i if d % 2 else size - i))
    sequence = sorted(range(len(keys)), key=keys.__getitem__)
    visits = [(p1s[k], p2s[k], counts[k], scores[k]) for k in sequence]

    # 5-6. Two passes.
    gcr1 = _pass(visits, size)
    visits.reverse()
    gcr2 = _pass(visits, size)

    # 7. Accuracy: the probability the final ratings gave to each actual result.
    final = [(x + y) / 2 for x, y in zip(gcr1, gcr2, strict=True)]
    hit = [0.0] * size
    total_hit = 0.0
    total_games = 0
    for (a, b), (won, drawn, lost) in table.items():
        i, j = index[a], index[b]
        e = _expected(final[i] - final[j]) / 100
        draw_probability = 1 - abs(0.5 - e)
        a_hit = won * e + drawn * draw_probability + lost * (1 - e)
        b_hit = won * (1 - e) + drawn * draw_probability + lost * e
        hit[i] += a_hit
        hit[j] += b_hit
        total_hit += a_hit
        total_games += won + drawn + lost

    players = {
        pid: GcrPlayer(
            pid,
            gcr1[index[pid]],
            gcr2[index[pid]],
            games_of[pid],
            wins_of.get(pid, 0),
            opponents_of[pid],
            100 * hit[index[pid]] / games_of[pid],
        )
        for pid in order
    }
    accuracy = 100 * total_hit / total_games if total_games else None
    return GcrResult(players, accuracy, total_games)


def _pass(visits, size: int) -> list[float]:
    ratings = [START] * size
    past = [0] * size
    for i, j, n, s in visits:
        r1 = ratings[i]
        r2 = ratings[j]
        expected = (r1 - r2) / 8 + 50
        if expected < 0:
            expected = 0.0
        elif expected > 100:
            expected = 100.0
        # (actual - expected) / 100 * 400 * n / (n + 10), with actual = 100 s / n.
        base = (100 * s / n - expected) * 4 * n / (n + GAMES_WEIGHT)
        g1 = past[i]
        g2 = past[j]
        ratings[i] = r1 + base * (1 - g1 / (g1 + STABILITY))
        ratings[j] = r2 - base * (1 - g2 / (g2 + STABILITY))
        past[i] = g1 + n
        past[j] = g2 + n
    return ratings
