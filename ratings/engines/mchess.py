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
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple

from ratings.engines.common import (
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


@dataclass(slots=True)
class MchessPlayerResult:
    id: PlayerId
    rating_before: int
    rating_after: int
    games: int = 0
    half_points: int = 0
    deltas: list[GameDelta] = field(default_factory=list)

    def details(self, weight: int) -> dict:
        # JSON arrays in GameDelta's field order (plain tuples: the encoder takes them as they are).
        return {"W": weight, "games": [*map(tuple, self.deltas)]}


def rate_tournament(
    ratings: Mapping[PlayerId, int], games: Iterable[Game], *, weight: int = DEFAULT_WEIGHT
) -> dict[PlayerId, MchessPlayerResult]:
    """Rate one tournament. `ratings` holds every participant's Mchess rating at its start."""
    if weight <= 0:
        raise ValueError("the weight W must be positive")
    current = dict(ratings)
    results = {pid: MchessPlayerResult(pid, rating, rating) for pid, rating in current.items()}
    by_round: dict[int, list[Game]] = defaultdict(list)
    for game in rated_games(games):
        for pid in (game.white, game.black):
            if pid not in current:
                raise ValueError(f"round {game.round}: player {pid!r} has no Mchess rating at the start")
        by_round[game.round].append(game)

    for rnd in sorted(by_round):
        # Each player has one game a round (checked), so the ratings read below are the
        # ratings from before the round even though games of the round are applied in turn.
        seen: set[PlayerId] = set()
        for game in by_round[rnd]:
            white, black = game.white, game.black
            if white in seen or black in seen:
                raise ValueError(f"round {rnd}: player {white if white in seen else black!r} has two games")
            seen.add(white)
            seen.add(black)
            rw, rb = current[white], current[black]
            hw = WHITE_HALF_POINTS[game.result]
            # White is "lower" when ratings are equal: the formula is symmetric then.
            if rw <= rb:
                change = game_change(weight, rb, rw, hw)
            else:
                change = -game_change(weight, rw, rb, 2 - hw)
            new_w = rw + change
            new_b = rb - change
            new_w = FLOOR if new_w < FLOOR else CAP if new_w > CAP else new_w
            new_b = FLOOR if new_b < FLOOR else CAP if new_b > CAP else new_b
            current[white] = new_w
            current[black] = new_b
            result = results[white]
            result.deltas.append(_new(GameDelta, (rnd, black, rw, rb, hw, new_w - rw)))
            result.games += 1
            result.half_points += hw
            result.rating_after = new_w
            result = results[black]
            result.deltas.append(_new(GameDelta, (rnd, white, rb, rw, 2 - hw, new_b - rb)))
            result.games += 1
            result.half_points += 2 - hw
            result.rating_after = new_b
    return results


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
