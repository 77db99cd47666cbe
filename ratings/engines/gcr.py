"""Game Courier Ratings, as docs/rules/gcr.md defines them: holistic, recomputed from
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

import gc
import math
import os
from array import array
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import repeat
from operator import itemgetter
from typing import NamedTuple

from ratings.engines.common import PlayerId
from ratings.forked import Child

START = 1500.0
STABILITY = 800  # a player's past games p damp his change by 1 - p / (p + 800)
GAMES_WEIGHT = 10  # n games between a pair count n / (n + 10) of the full swing


class GcrPlayer(NamedTuple):
    # A named tuple, not a frozen dataclass: made 100,000 times a run, and a frozen
    # dataclass sets each field through object.__setattr__.
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


def rate(games: Iterable[tuple[PlayerId, PlayerId, int]], *, fork_from: int | None = None) -> GcrResult:
    """Rate every game; see _rate. The cyclic garbage collector is paused meanwhile: the run makes
    millions of tuples and no cycle, and the collections those allocations set off were a tenth
    of its CPU time over 200,000 games. It is switched back on as it was, whatever happens."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _rate(games, fork_from)
    finally:
        if enabled:
            gc.enable()


def _rate(games: Iterable[tuple[PlayerId, PlayerId, int]], fork_from: int | None) -> GcrResult:
    """Rate every game, each given as (player a, player b, a's score in half points: 2, 1 or 0).

    The work is done column by column with list comprehensions and Counters, which run
    at C speed, leaving plain Python loops only for the two passes themselves. The passes
    are independent: from `fork_from` pairs on, the reverse pass runs in a forked child
    process, on another core (Linux only; the result is the same to the last bit).
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
    if fork_from is not None and len(visits) >= fork_from and hasattr(os, "fork"):
        child = Child(lambda _lines: array("d", _pass(reversed(visits), size, damping)).tobytes())
        try:
            gcr1 = _pass(visits, size, damping)
        except BaseException:
            child.kill()
            raise
        gcr2 = array("d", child.finish(_no_lines)).tolist()
    else:
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


def _no_lines(data: bytes) -> None:
    raise RuntimeError("the GCR child sends no COPY lines")


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
