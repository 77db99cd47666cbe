"""What every engine shares: game records, scores in half points, exact rounding.

Rounding follows the specification everywhere: arithmetic rounding, half away
from zero, never Python's banker's round(). Where a value is rational (a mean,
a ratio of integers) it is computed exactly with integers or Fractions, so that
a true .5 is never seen as .4999999; only values that are irrational by nature
(logarithms, powers) are floats, and those are never exactly .5.
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Hashable
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple

PlayerId = Hashable

WHITE_WINS = "1-0"
DRAW = "1/2-1/2"
BLACK_WINS = "0-1"
NO_RESULT = "0-0"

PLAYED = "played"
# White's score in half points for each result of a played game.
WHITE_HALF_POINTS = {WHITE_WINS: 2, DRAW: 1, BLACK_WINS: 0}


class Game(NamedTuple):
    """One pairing of a round. Only kind 'played' is ever rated; the rest are shown, not rated.

    A named tuple, not a frozen dataclass: a full re-rating makes a million of them, and a frozen
    dataclass sets each field through object.__setattr__ (a second of the read)."""

    round: int
    white: PlayerId
    black: PlayerId | None
    result: str
    kind: str = PLAYED

    @property
    def is_rated(self) -> bool:
        return self.kind == PLAYED and self.black is not None

    @property
    def white_half_points(self) -> int:
        return WHITE_HALF_POINTS[self.result]


def rated_games(games) -> list[Game]:
    """The played games, validated: a rated game needs two players and a real result."""
    out = []
    for game in games:
        if not game.is_rated:
            continue
        if game.result not in WHITE_HALF_POINTS:
            raise ValueError(f"round {game.round}: a played game cannot have the result {game.result!r}")
        if game.white == game.black:
            raise ValueError(f"round {game.round}: player {game.white!r} cannot play himself")
        out.append(game)
    return out


def games_by_player(games, participants) -> dict[PlayerId, list[tuple[int, PlayerId, int]]]:
    """Each participant's rated games as (round, opponent, own half points).

    A game is unpacked once (a Game is a named tuple) and a player's list is made on his first
    game only (setdefault built and dropped an empty list for every game)."""
    played: dict[PlayerId, list[tuple[int, PlayerId, int]]] = {}
    half_points_of = WHITE_HALF_POINTS.get
    for game in games:
        rnd, white, black, result, kind = game
        if kind != PLAYED or black is None:
            continue
        hp = half_points_of(result)
        if hp is None or white == black:
            rated_games([game])  # raises the message for this game
        if white not in participants or black not in participants:
            stranger = white if white not in participants else black
            raise ValueError(f"round {rnd}: player {stranger!r} is not a participant")
        own = played.get(white)
        if own is None:
            played[white] = [(rnd, black, hp)]
        else:
            own.append((rnd, black, hp))
        own = played.get(black)
        if own is None:
            played[black] = [(rnd, white, 2 - hp)]
        else:
            own.append((rnd, white, 2 - hp))
    return played


def round_half_up(value: int | Fraction | Decimal | float) -> int:
    """round(x) of the specification: to the nearest integer, halves away from zero."""
    kind = type(value)
    if kind is int:
        return value
    if kind is Fraction:
        return round_ratio(value.numerator, value.denominator)  # the denominator is positive
    if kind is float:
        if not math.isfinite(value):
            raise ValueError(f"cannot round {value}")
        floor = math.floor(value)
        fraction = value - floor
        if abs(fraction - 0.5) > 1e-9:
            return floor + (fraction > 0.5)
        # Near a half, decide on the decimal a person reads: repr() is the shortest decimal
        # that reads back as this float, so 2.5 is 2.5 and 0.30000000000000004 is not a half.
        value = Decimal(repr(value))
    elif isinstance(value, int):  # bool and other int subclasses
        return int(value)
    elif isinstance(value, Fraction):
        return round_half_up(Fraction(value.numerator, value.denominator))
    return int(Decimal(value).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def round_ratio(numerator: int, denominator: int) -> int:
    """round(numerator / denominator), halves away from zero, exactly (denominator > 0)."""
    magnitude = (2 * abs(numerator) + denominator) // (2 * denominator)
    return magnitude if numerator >= 0 else -magnitude


def round_to(value: Fraction | Decimal | float | int, places: int) -> Decimal:
    """Round half away from zero to `places` decimals, as a Decimal (for display and storage)."""
    if isinstance(value, Fraction):
        return Decimal(round_ratio(value.numerator * 10**places, value.denominator)).scaleb(-places)
    if isinstance(value, float):
        text = repr(value)
        _, dot, decimals = text.partition(".")
        if dot and "e" not in decimals and "n" not in text and decimals[places:] != "5":
            # The shortest decimal that reads back as the float is not a tie at this place, so
            # the float's own correctly rounded text is the half-up rounding of that decimal:
            # a rounding boundary between the two would be a shorter or closer decimal.
            return Decimal(f"{value:.{places}f}")
        value = Decimal(text)
    return Decimal(value).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)


def floor_log10(value: Fraction | int) -> int:
    """[lg x] for x >= 1, exactly (floats get lg(1000) right but not every power of ten)."""
    whole = math.floor(value)
    if whole < 1:
        raise ValueError(f"[lg x] is only used for x >= 1, not {value}")
    return len(str(whole)) - 1


def log10_rational(value: Fraction) -> float | int:
    """lg of a positive rational: an exact integer for powers of ten, otherwise a float."""
    if value <= 0:
        raise ValueError(f"lg is undefined for {value}")
    num, den = value.numerator, value.denominator
    if num == 1 and _is_power_of_ten(den):
        return -(len(str(den)) - 1)
    if den == 1 and _is_power_of_ten(num):
        return len(str(num)) - 1
    return math.log10(num / den)


def _is_power_of_ten(number: int) -> bool:
    text = str(number)
    return text[0] == "1" and text.count("0") == len(text) - 1


def half_points_to_score(half_points: int) -> Fraction:
    return Fraction(half_points, 2)


def first_of_month(day: datetime.date) -> datetime.date:
    return day.replace(day=1)


@lru_cache(maxsize=1024)
def half_points_text(half_points: int) -> str:
    """A score as stored in the details: '0', '1/2', '1', '9/2' (the Fraction's text)."""
    return str(Fraction(half_points, 2))


@lru_cache(maxsize=4096)
def cents_text(cents: int) -> str:
    """Hundredths as a two-decimal text: 65 -> '0.65', -44 -> '-0.44' (the Decimal's text)."""
    return str(Decimal(cents).scaleb(-2))
