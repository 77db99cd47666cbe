"""Game Courier Ratings, as docs/rules/gcr.md defines them: holistic, recomputed from
scratch over every rated played game each time.

Players are ordered by games, wins and distinct opponents (all descending), then id.
Pairs (i, j), i < j, of that order lie on diagonal d = j - i; the forward pass visits
diagonals 1, 2, ... with odd diagonals from i = 0 upwards and even ones from the top
down, and only pairs that played are visited (a sort of those pairs, never a loop
over all n^2). The reverse pass visits the same sequence backwards. GCR is the mean of
both passes, shown truncated.

The work is done on NumPy arrays, one column per quantity: the games are aggregated to
pairs with one sort (np.unique), the players and the visits are ordered with array sorts,
and each pass runs in rounds (see _pass). Every number is computed with the same IEEE
operations (+ - * / only, no pow or exp), on the same operands and in the same order
as the plain Python loop of the rules, so the results are the same to the last bit
(tests/engines/gcr_reference.py keeps that loop; the golden hash and a property test
compare with it).

Cost: O(G log G) to aggregate G games into P <= G pairs, O(P log P) to order them and
their players' chains, O(P) per pass plus a few array calls per round of the pass.
"""

from __future__ import annotations

import gc
import math
import os
from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from ratings.engines.common import PlayerId
from ratings.forked import Child

START = 1500.0
STABILITY = 800  # a player's past games p damp his change by 1 - p / (p + 800)
GAMES_WEIGHT = 10  # n games between a pair count n / (n + 10) of the full swing

# A pass switches from rounds of array operations to a plain loop over the visits left when
# its rounds turn out to be small (few independent visits each, as when one player met
# everybody): each round costs some fifteen NumPy calls, about 40 microseconds, whatever its
# size, while the loop costs about a microsecond a visit. Checked after SMALL_ROUNDS_AFTER
# rounds: switch if they averaged fewer than SMALL_ROUND visits.
SMALL_ROUNDS_AFTER = 64
SMALL_ROUND = 48


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


class Visits(NamedTuple):
    """The visits of the forward pass, in its order, one array per column (the reverse pass
    reads them backwards). A player's visits form a chain: prev1[k] is the visit before k
    of visit k's first player (i), prev2[k] that of its second (j), next1/next2 the visit
    after; -1 where there is none."""

    i: np.ndarray  # p1's place in the players' order (i < j)
    j: np.ndarray
    actual: np.ndarray  # p1's actual percentage
    weight: np.ndarray  # 4n / (n + 10)
    prev1: np.ndarray
    prev2: np.ndarray
    next1: np.ndarray
    next2: np.ndarray
    past1: np.ndarray  # games of i applied before visit k in the forward pass
    past2: np.ndarray
    games1: np.ndarray  # games of i (all of them) and of j
    games2: np.ndarray
    n: np.ndarray  # games between i and j


def rate(games: Iterable[tuple[PlayerId, PlayerId, int]], *, fork_from: int | None = None) -> GcrResult:
    """Rate every game; see _rate. The cyclic garbage collector is paused meanwhile: the run makes
    a million tuples (the games) and no cycle. It is switched back on as it was, whatever happens."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _rate(games, fork_from)
    finally:
        if enabled:
            gc.enable()


def _rate(games: Iterable[tuple[PlayerId, PlayerId, int]], fork_from: int | None) -> GcrResult:
    """Rate every game, each given as (player a, player b, a's score in half points: 2, 1 or 0).

    The passes are independent: from `fork_from` pairs on, the reverse pass runs in a forked
    child process, on another core (Linux only; the result is the same to the last bit).
    """
    rows = games if isinstance(games, list) else list(games)
    if not rows:
        return GcrResult({}, None, 0)
    # Three columns by list comprehensions: zip(*rows) over a million rows took ten times longer.
    ids, a, b = _dense_ids([row[0] for row in rows], [row[1] for row in rows])
    hp = np.fromiter([row[2] for row in rows], np.int64, len(rows))
    if (a == b).any():
        raise ValueError(f"player {ids[int(a[np.argmax(a == b)])]!r} cannot play himself")
    count = len(ids)

    # 1. Pairwise results, each pair keyed (lower id, higher id): games, wins, draws. The ids
    # are numbered in their sorted order, so comparing numbers compares ids. One sort of the
    # games by pair key groups each pair's games; each pair's first game is the least index
    # in its group.
    swap = a > b
    low = np.where(swap, b, a)
    high = np.where(swap, a, b)
    low_points = np.where(swap, 2 - hp, hp)
    keys = low * count + high
    by_pair = np.argsort(keys)
    keys = keys[by_pair]
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    keys = keys[starts]
    pairs = len(keys)
    pair_of = np.repeat(np.arange(pairs), np.diff(np.r_[starts, len(rows)]))  # in by_pair's order
    first_game = np.minimum.reduceat(by_pair, starts)
    pair_games = np.bincount(pair_of, minlength=pairs)
    sorted_points = low_points[by_pair]
    pair_wins = np.bincount(pair_of[sorted_points == 2], minlength=pairs)
    pair_draws = np.bincount(pair_of[sorted_points == 1], minlength=pairs)
    pair_low, pair_high = np.divmod(keys, count)

    # 2-3. Players sorted by games, wins, distinct opponents (descending), then id.
    games_of = np.bincount(a, minlength=count) + np.bincount(b, minlength=count)
    winner = np.where(hp == 2, a, b)[hp != 1]
    wins_of = np.bincount(winner, minlength=count)
    opponents_of = np.bincount(pair_low, minlength=count) + np.bincount(pair_high, minlength=count)
    order = np.lexsort((np.arange(count), -opponents_of, -wins_of, -games_of))
    position = np.empty(count, np.int64)
    position[order] = np.arange(count)

    # 4. Each pair is turned so that p1 comes first in the order (i < j), in the order of the
    # games where it first appears (the order the accuracy sums in, as the rules' loop did).
    # (first_game holds distinct game indices: placing each pair at its game orders them.)
    at_game = np.full(len(rows), -1)
    at_game[first_game] = np.arange(pairs)
    by_appearance = at_game[at_game >= 0]
    i = position[pair_low[by_appearance]]
    j = position[pair_high[by_appearance]]
    n = pair_games[by_appearance]
    won = pair_wins[by_appearance]
    drawn = pair_draws[by_appearance]
    lost = n - won - drawn
    turned = i > j
    i, j = np.where(turned, j, i), np.where(turned, i, j)
    won, lost = np.where(turned, lost, won), np.where(turned, won, lost)
    # Its place in the pass: the diagonal d = j - i, then i upwards on odd diagonals and
    # downwards on even ones.
    diagonal = j - i
    sequence = np.argsort(diagonal * (count + 1) + np.where(diagonal & 1, i, count - i))
    visits = _visits(i[sequence], j[sequence], won[sequence], drawn[sequence], n[sequence], games_of[order], count)

    # 5-6. Two passes.
    if fork_from is not None and pairs >= fork_from and hasattr(os, "fork"):
        child = Child(lambda _lines: _pass(visits, count, reverse=True).tobytes())
        try:
            gcr1 = _pass(visits, count, reverse=False)
        except BaseException:
            child.kill()
            raise
        gcr2 = np.frombuffer(child.finish(_no_lines), np.float64)
    else:
        gcr1 = _pass(visits, count, reverse=False)
        gcr2 = _pass(visits, count, reverse=True)

    # 7. Accuracy: the probability the final ratings gave to each actual result; the same
    # number for both players of a game, summed for each player pair by pair in the order
    # of appearance (bincount adds its weights in array order: i, j of the first pair, ...).
    final = (gcr1 + gcr2) / 2
    e = (final[i] - final[j]) / 800 + 0.5
    e = np.clip(e, 0.0, 1.0)
    probability = won * e + drawn * (1 - np.abs(0.5 - e)) + lost * (1 - e)
    hit = np.bincount(np.column_stack((i, j)).ravel(), np.repeat(probability, 2), minlength=count)
    games_in_order = games_of[order]

    new = tuple.__new__  # a named tuple without its Python-level __new__
    players = {
        row[0]: new(GcrPlayer, row)
        for row in zip(
            [ids[k] for k in order.tolist()],
            gcr1.tolist(),
            gcr2.tolist(),
            games_in_order.tolist(),
            wins_of[order].tolist(),
            opponents_of[order].tolist(),
            (100 * hit / games_in_order).tolist(),
            strict=True,
        )
    }
    # Every game counts once for each of its two players: half the sum is the total.
    accuracy = 50 * math.fsum(hit.tolist()) / len(rows)
    return GcrResult(players, accuracy, len(rows))


def _dense_ids(first: list, second: list) -> tuple[list, np.ndarray, np.ndarray]:
    """The players' ids sorted, and each game's two players as their numbers in that list.
    Integer ids (the database's) are numbered with arrays: np.array refuses to make an integer
    array of anything else (strings, floats, ints beyond 64 bits), which then go through a dict."""
    both = first + second
    try:
        column = np.array(both)
    except OverflowError:
        column = None
    if column is not None and column.dtype.kind == "i" and column.ndim == 1:
        low, high = int(column.min()), int(column.max())
        if high - low < 4 * len(column):  # a table over the range of ids: no sort
            present = np.zeros(high - low + 1, bool)
            present[column - low] = True
            ids = (np.flatnonzero(present) + low).tolist()
            numbers = (np.cumsum(present) - 1)[column - low]
        else:
            unique, numbers = np.unique(column, return_inverse=True)
            ids = unique.tolist()
    else:
        ids = sorted(set(both))
        number = {pid: k for k, pid in enumerate(ids)}
        numbers = np.fromiter(map(number.__getitem__, both), np.int64, len(both))
    numbers = numbers.astype(np.int64, copy=False).reshape(-1)
    return ids, numbers[: len(first)], numbers[len(first) :]


def _visits(i, j, won, drawn, n, games, count: int) -> Visits:
    """The forward pass's visits as columns, and each player's chain of visits through it."""
    pairs = len(i)
    # Every visit is two entries, one per player, entries 2k and 2k + 1 for visit k; sorted
    # stably by player, each player's entries are his chain in the pass's order, and a
    # running sum of n gives his games before each visit.
    player = np.column_stack((i, j)).ravel()
    visit = np.repeat(np.arange(pairs), 2)
    chain = _stable_order(player, count)
    chained_player = player[chain]
    chained_visit = visit[chain]
    chained_n = np.repeat(n, 2)[chain]
    before = np.cumsum(chained_n) - chained_n
    starts = np.flatnonzero(np.r_[True, chained_player[1:] != chained_player[:-1]])
    before -= np.repeat(before[starts], np.diff(np.r_[starts, len(chain)]))
    same_as_previous = np.r_[False, chained_player[1:] == chained_player[:-1]]
    previous = np.where(same_as_previous, np.r_[-1, chained_visit[:-1]], -1)
    same_as_next = np.r_[same_as_previous[1:], False]
    following = np.where(same_as_next, np.r_[chained_visit[1:], -1], -1)
    prev, nxt, past = (np.empty(2 * pairs, np.int64) for _ in range(3))
    prev[chain], nxt[chain], past[chain] = previous, following, before
    return Visits(
        i=i,
        j=j,
        # The rules' float operations in the rules' order: 100 * (won + drawn / 2) / n.
        actual=100 * (won + drawn / 2) / n,
        weight=4 * n / (n + GAMES_WEIGHT),
        prev1=prev[0::2],
        prev2=prev[1::2],
        next1=nxt[0::2],
        next2=nxt[1::2],
        past1=past[0::2],
        past2=past[1::2],
        games1=games[i],
        games2=games[j],
        n=n,
    )


def _stable_order(values: np.ndarray, bound: int) -> np.ndarray:
    """np.argsort(values, kind="stable") for integers in [0, bound), by 16-bit digits from the
    lowest: NumPy sorts 16-bit integers stably by radix, in linear time, where a 64-bit sort
    compares (twice as fast on two million entries)."""
    order = np.argsort(values.astype(np.uint16), kind="stable")
    shift = 16
    while bound > 1 << shift:
        order = order[np.argsort((values[order] >> shift).astype(np.uint16), kind="stable")]
        shift += 16
    return order


def _no_lines(data: bytes) -> None:
    raise RuntimeError("the GCR child sends no COPY lines")


def _pass(visits: Visits, size: int, *, reverse: bool) -> np.ndarray:
    """One pass, forward or reverse, as the rules define it (gcr.md step 5), in rounds.

    A visit changes only its two players' ratings and reads them as their previous visits
    left them, so it depends only on those two visits. Each round runs every visit whose two
    previous visits are done, all at once: no player is in a round twice, and every rating
    a round reads is the one the sequential pass would read. Each visit's damping,
    1 - p / (p + 800) for the games p its player had before it in this pass, is known
    beforehand from the chains."""
    v = visits
    pairs = len(v.i)
    if reverse:
        past1, past2 = v.games1 - v.past1 - v.n, v.games2 - v.past2 - v.n
        before1, before2, after1, after2 = v.next1, v.next2, v.prev1, v.prev2
    else:
        past1, past2 = v.past1, v.past2
        before1, before2, after1, after2 = v.prev1, v.prev2, v.next1, v.next2
    damping1 = 1 - past1 / (past1 + STABILITY)
    damping2 = 1 - past2 / (past2 + STABILITY)
    # done[-1], past the last visit, stands for "no visit before": always done.
    done = np.zeros(pairs + 1, bool)
    done[-1] = True
    # A visit whose two visits before are done in the same round is reached twice: `slot`
    # keeps one copy (whichever of the two writes stays, exactly one copy reads itself back).
    slot = np.empty(pairs, np.int64)
    ratings = np.full(size, START)
    ready = np.flatnonzero((before1 < 0) & (before2 < 0))
    finished = rounds = 0
    while ready.size:
        if rounds == SMALL_ROUNDS_AFTER and finished < SMALL_ROUND * rounds:
            return _finish_in_a_loop(v, ratings, done[:-1], damping1, damping2, reverse)
        i, j = v.i[ready], v.j[ready]
        r1, r2 = ratings[i], ratings[j]
        expected = np.clip((r1 - r2) / 8 + 50, 0.0, 100.0)
        # (actual - expected) / 100 * 400 * n / (n + 10)
        base = (v.actual[ready] - expected) * v.weight[ready]
        ratings[i] = r1 + base * damping1[ready]
        ratings[j] = r2 - base * damping2[ready]
        done[ready] = True
        finished += ready.size
        rounds += 1
        # The next round: the visits after these in their players' chains whose visits before
        # are all done, each reached from the last of them.
        reached = np.concatenate((after1[ready], after2[ready]))
        reached = reached[reached >= 0]
        reached = reached[done[before1[reached]] & done[before2[reached]]]
        copies = np.arange(reached.size)
        slot[reached] = copies
        ready = reached[slot[reached] == copies]
    return ratings


def _finish_in_a_loop(v: Visits, ratings, done, damping1, damping2, reverse: bool) -> np.ndarray:
    """The visits not yet done, one by one in the pass's order. The done ones include every
    visit before any undone one in its players' chains, so the order of the pass is kept."""
    left = np.flatnonzero(~done)
    if reverse:
        left = left[::-1]
    r = ratings.tolist()
    for i, j, actual, weight, d1, d2 in zip(
        v.i[left].tolist(),
        v.j[left].tolist(),
        v.actual[left].tolist(),
        v.weight[left].tolist(),
        damping1[left].tolist(),
        damping2[left].tolist(),
        strict=True,
    ):
        r1 = r[i]
        r2 = r[j]
        expected = (r1 - r2) / 8 + 50
        if expected < 0:
            expected = 0.0
        elif expected > 100:
            expected = 100.0
        base = (actual - expected) * weight
        r[i] = r1 + base * d1
        r[j] = r2 - base * d2
    return np.array(r)
