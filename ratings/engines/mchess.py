"""Mchess: a modified Elo on a scale of about 10 x FIDE (docs/rules/mchess-playchess.md).

Per game, with Rh >= Rl and S the lower-rated player's score:

    LRP = 1 / (2 + (Rh - Rl)^2 / 10^6),   change = W (S - LRP)
    Rh_new = Rh - change,  Rl_new = Rl + change

The change is a ratio of integers, so it is computed exactly and rounded once,
half away from zero; both players move by that same whole number, so a game
never creates or destroys rating points (except at the floor 0 and the cap
20 000). This equals rounding each new rating separately in every case but one:
a change ending in exactly .5, where rounding both new ratings "half up" would
mint a point out of nothing.

Games are applied round by round: every game of a round uses the ratings from
before that round. Only played games are rated.
"""

from __future__ import annotations

import datetime
from bisect import bisect_right
from collections import defaultdict
from collections.abc import Iterable, Mapping
from fractions import Fraction
from functools import lru_cache
from operator import itemgetter
from typing import NamedTuple

from ratings.engines.common import (
    PLAYED,
    WHITE_HALF_POINTS,
    Game,
    PlayerId,
    rated_games,
    round_half_up,
    round_ratio,
)

FLOOR = 0
CAP = 20_000
DEFAULT_WEIGHT = 250
COMPUTER_INITIAL = 1000
NEW_PLAYER_INITIAL = 0
FIDE_FACTOR = 10
INACTIVITY_DAYS = 30
_SCALE = 10**6


def initial_rating(*, computer: bool = False, fide_rating: int | None = None) -> int:
    """0 for a new player, 1000 for a computer, 10 x FIDE after an approved import."""
    if fide_rating is not None:
        return min(CAP, FIDE_FACTOR * fide_rating)
    return COMPUTER_INITIAL if computer else NEW_PLAYER_INITIAL


def lrp(higher: int, lower: int) -> Fraction:
    """The lower-rated player's expected score."""
    return Fraction(_SCALE, 2 * _SCALE + (higher - lower) ** 2)


def game_change(weight: int, higher: int, lower: int, lower_half_points: int) -> int:
    """round(W (S - LRP)): what the lower-rated player gains (and the higher one loses).

    Exactly, with integers: W (S - LRP) = W (S (2e6 + d^2) - 1e6) / (2e6 + d^2), S = hp / 2.
    """
    denominator = 2 * (2 * _SCALE + (higher - lower) ** 2)
    numerator = weight * (lower_half_points * (2 * _SCALE + (higher - lower) ** 2) - 2 * _SCALE)
    return round_ratio(numerator, denominator)


# tuple.__new__ builds a named tuple without the Python frame of its __new__: two million of them
# in a rating run of a million games.
_new = tuple.__new__


class GameDelta(NamedTuple):
    round: int
    opponent: PlayerId
    rating_before: int
    opponent_rating: int
    half_points: int
    delta: int  # this player's change, after the floor and cap

    @property
    def lrp(self) -> Fraction:
        """The LRP of the pair: the lower-rated player's expected score."""
        return lrp(max(self.rating_before, self.opponent_rating), min(self.rating_before, self.opponent_rating))


@lru_cache(maxsize=65536)
def lrp_text(difference: int) -> str:
    """LRP to 4 decimals, for reports. 1e6 / (2e6 + d^2) is LRP exactly; int / int is correctly
    rounded, as float(Fraction) is, so the text is the same as the Fraction's."""
    return f"{_SCALE / (2 * _SCALE + difference * difference):.4f}"


class MchessPlayerResult(NamedTuple):
    """One player's outcome and the per-game deltas details() writes. A named tuple built with
    tuple.__new__: forty of them a tournament, no Python __init__ each."""

    id: PlayerId
    rating_before: int
    rating_after: int
    games: int
    half_points: int
    deltas: list[GameDelta]

    def details(self, weight: int) -> dict:
        # JSON arrays in GameDelta's field order (plain tuples: the encoder takes them as they are).
        return {"W": weight, "games": [*map(tuple, self.deltas)]}


_HALF_POINTS = itemgetter(4)  # of a GameDelta


def _recorded(current: dict, rounds, whites, blacks, hws, weight: int) -> dict[PlayerId, list[GameDelta]]:
    """The rating loop recording each game's GameDelta for both players (`current` is updated)."""
    table = _changes(weight)
    deltas: dict[PlayerId, list] = {pid: [] for pid in current}
    append = {pid: own.append for pid, own in deltas.items()}
    floor, cap = FLOOR, CAP
    for rnd, white, black, hw in zip(rounds, whites, blacks, hws, strict=True):
        rw = current[white]
        rb = current[black]
        key = (rw - rb) * 4 + hw
        try:
            change = table[key]
        except KeyError:  # a difference and result not met before with this weight
            change = table[key] = _white_change(weight, rw, rb, hw)
        new_w = rw + change
        new_b = rb - change
        if new_w < floor or new_w > cap:
            new_w = floor if new_w < floor else cap
        if new_b < floor or new_b > cap:
            new_b = floor if new_b < floor else cap
        current[white] = new_w
        current[black] = new_b
        append[white](_new(GameDelta, (rnd, black, rw, rb, hw, new_w - rw)))
        append[black](_new(GameDelta, (rnd, white, rb, rw, 2 - hw, new_b - rb)))
    return deltas


def rate_tournament(
    ratings: Mapping[PlayerId, int], games: Iterable[Game], *, weight: int = DEFAULT_WEIGHT
) -> dict[PlayerId, MchessPlayerResult]:
    """Rate one tournament. `ratings` holds every participant's Mchess rating at its start.

    The loop is shaped for a million games: the games are split into columns once (zip, at C
    speed) and checked column-wise (all played, known results, no one playing himself, every
    player known, rounds in order, one game a player a round); only an unusual tournament
    (forfeits, byes, rounds listed out of order, an error) goes through the game-by-game
    preparation. A game's change depends only on the signed rating difference and the result,
    so it is looked up in a table kept per weight (filled on first use with game_change's exact
    integer rounding). Each player has one game a round and the rounds are applied in order, so
    applying a round's games in turn reads the ratings from before that round.
    Each game's GameDelta is recorded for both players in the same loop (a rating run writes them
    into every change's details).
    """
    if weight <= 0:
        raise ValueError("the weight W must be positive")
    start = dict(ratings)
    current = start.copy()
    columns = _columns(games if type(games) is list else list(games), current)
    rounds, whites, blacks, hws = columns
    deltas = _recorded(current, rounds, whites, blacks, hws, weight)
    return {
        pid: _new(MchessPlayerResult, (pid, rating, current[pid], len(own), sum(map(_HALF_POINTS, own)), own))
        for pid, rating in start.items()
        for own in (deltas[pid],)
    }


def _columns(games: list, current: dict) -> tuple[tuple, tuple, tuple, tuple]:
    """The rated games as columns (rounds, whites, blacks, white's half points), in the order they
    are applied: by round, and within a round as listed."""
    if not games:
        return (), (), (), ()
    rounds, whites, blacks, results, kinds = zip(*games, strict=True)
    hws = tuple(map(WHITE_HALF_POINTS.get, results))
    if (
        kinds.count(PLAYED) == len(kinds)
        and None not in hws
        and list(rounds) == sorted(rounds)
        and _known_once_a_round(rounds, whites, blacks, current.keys())
    ):
        return rounds, whites, blacks, hws
    return _checked_columns(games, current)


def _known_once_a_round(rounds: tuple, whites: tuple, blacks: tuple, known) -> bool:
    """Whether, the rounds being in order, each player of a round is known and plays once in it
    (so never himself, and never a bye's None, which no ratings hold). A set of each round's
    players, from slices of the columns found by bisection: no tuple is built per game."""
    begin, n = 0, len(rounds)
    while begin < n:
        end = bisect_right(rounds, rounds[begin], begin)
        here = set(whites[begin:end])
        here.update(blacks[begin:end])
        if len(here) != 2 * (end - begin) or not known >= here:
            return False
        begin = end
    return True


def _checked_columns(games: list, current: dict) -> tuple[tuple, tuple, tuple, tuple]:
    """Game by game: the rated games, each checked with its own message, grouped by round."""
    by_round: dict[int, list[tuple[int, PlayerId, PlayerId, int]]] = defaultdict(list)
    for game in games:
        rnd, white, black, result, kind = game
        if kind != PLAYED or black is None:
            continue
        hw = WHITE_HALF_POINTS.get(result)
        if hw is None or white == black:
            rated_games([game])  # raises the message for this game
        if white not in current or black not in current:
            pid = white if white not in current else black
            raise ValueError(f"round {rnd}: player {pid!r} has no Mchess rating at the start")
        by_round[rnd].append((rnd, white, black, hw))
    ordered = []
    for rnd in sorted(by_round):
        round_games = by_round[rnd]
        seen: set[PlayerId] = set()
        for _, white, black, _ in round_games:
            if white in seen or black in seen:
                raise ValueError(f"round {rnd}: player {white if white in seen else black!r} has two games")
            seen.add(white)
            seen.add(black)
        ordered += round_games
    if not ordered:
        return (), (), (), ()
    rounds, whites, blacks, hws = zip(*ordered, strict=True)
    return rounds, whites, blacks, hws


# {weight: {(white's rating - black's) * 4 + white's half points: white's change}}: at most
# 40,001 differences x 3 results for each weight, and one weight (250) in practice.
_CHANGE_TABLES: dict[int, dict[int, int]] = {}


def _changes(weight: int) -> dict[int, int]:
    table = _CHANGE_TABLES.get(weight)
    if table is None:
        table = _CHANGE_TABLES[weight] = {}
    return table


def _white_change(weight: int, rw: int, rb: int, hw: int) -> int:
    """White's change: the lower-rated player gains game_change; White is "lower" when ratings
    are equal (the formula is symmetric then)."""
    if rw <= rb:
        return game_change(weight, rb, rw, hw)
    return -game_change(weight, rw, rb, 2 - hw)


# --- The monthly inactivity penalty ----------------------------------------------------------


def penalised(rating: int) -> int:
    """R - R^2 / 1.44e6, rounded, floored at 0."""
    return max(FLOOR, round_half_up(rating - Fraction(rating * rating, 1_440_000)))


def is_inactive(last_active: datetime.date | None, month: datetime.date) -> bool:
    """Inactive at 00:01 UTC on the 1st of `month`: the last rated game is more than 30 days back.

    Game dates carry no time of day, so the gap is counted in whole days from the day of
    the last game to the 1st: 31 days or more is inactive. On 1 November a player whose
    last game was on 1 October (31 days) is penalised; one who played on 2 October
    (30 days) is not. A player who never played a rated game is inactive.
    """
    if month.day != 1:
        raise ValueError("the penalty runs on the first day of a month")
    if last_active is None:
        return True
    return (month - last_active).days > INACTIVITY_DAYS


def inactivity_penalty(
    ratings: Mapping[PlayerId, int], last_active: Mapping[PlayerId, datetime.date | None], month: datetime.date
) -> dict[PlayerId, tuple[int, int]]:
    """The penalty of one month: {player: (before, after)} for each player whose rating changes."""
    changes = {}
    for pid, rating in ratings.items():
        if is_inactive(last_active.get(pid), month):
            after = penalised(rating)
            if after != rating:
                changes[pid] = (rating, after)
    return changes
