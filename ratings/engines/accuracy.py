"""Which system predicts best: each system's expected score against the actual result.

Pure: no Django. The unit is one player in one rated game (a game counts once for each of its two
players), so that "newcomer", "established" and the age group, which belong to a player, apply
directly; for a system whose two expectations of a game add up to 1 (all four here, but for ORR's
rounding to 2 decimals and PlayChess's cut-off), each game's two terms are equal, and the figures
are those of the games themselves. Definitions (docs/developers/accuracy.md):

- actual score: 1 win, 0.5 draw, 0 loss;
- Brier score: mean of (E - S)^2; mean absolute error: mean of |E - S|;
- log loss: mean of -(S ln E + (1 - S) ln(1 - E)), with E and 1 - E each at least 1e-15;
- calibration: E in bins of width 0.1 ([0, 0.1), ..., [0.9, 1]), each with its count, mean E
  and mean S.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

from ratings.engines.mchess import lrp
from ratings.engines.orr import pd_cents
from ratings.engines.playchess import expectation

CLIP = 1e-15
BINS = 10  # width 0.1
NEWCOMER, ESTABLISHED = "newcomers", "established"


# --- Each system's own expected score -------------------------------------------------------------


def orr_expected(own: int, opponent: int) -> float:
    """ORR's PD, rounded to 2 decimals as ORR uses it (orr.md, section 1)."""
    return pd_cents(own, opponent) / 100


def mchess_expected(own: int, opponent: int) -> float:
    """Mchess's LRP for the lower-rated player, 1 - LRP for the higher (mchess-playchess.md)."""
    return _mchess(own - opponent)


@lru_cache(maxsize=65536)
def _mchess(difference: int) -> float:
    # LRP depends on the difference only: a few thousand values cover a whole history.
    if difference == 0:
        return 0.5
    value = float(lrp(max(difference, 0), min(difference, 0)))
    return value if difference < 0 else 1 - value


def playchess_expected(own: int, opponent: int) -> float:
    """PlayChess's P(D), D = own entry rating minus the opponent's rating as used (after the cut-off)."""
    return _playchess(own - opponent)


@lru_cache(maxsize=65536)
def _playchess(difference: int) -> float:
    return float(expectation(difference))


def gcr_expected(own: float, opponent: float) -> float:
    """GCR's expectation from the final ratings, as its accuracy figure uses it (gcr.md, 5 and 7)."""
    value = (own - opponent) / 800 + 0.5
    return 0.0 if value < 0 else 1.0 if value > 1 else value


# --- The figures ----------------------------------------------------------------------------------


class Observation(NamedTuple):
    """One player's side of one rated game in one system."""

    expected: float
    actual: float  # 1, 0.5 or 0
    newcomer: bool  # provisional (or unrated) before the game in that system
    age_group: str  # "u8" ... "u18", "adults", "unknown": at the game's date
    year: int


def bin_of(expected: float) -> int:
    """0 for [0, 0.1), ..., 9 for [0.9, 1]. The small tolerance keeps 0.3 (a float a hair below
    0.3 times 10 = 3) in the bin a reader expects."""
    return min(BINS - 1, max(0, math.floor(expected * BINS + 1e-9)))


def loss(expected: float, actual: float) -> float:
    """Clipped on each side: 1 - E is clipped itself, since 1 - (1 - 1e-15) is not 1e-15 in floats."""
    return -(actual * math.log(max(expected, CLIP)) + (1 - actual) * math.log(max(1 - expected, CLIP)))


@dataclass(slots=True)
class Tally:
    """Running sums of one group: enough for every figure, and two tallies add up."""

    count: int = 0
    squared: float = 0.0
    logs: float = 0.0
    absolute: float = 0.0
    bins: list[list[float]] = field(default_factory=lambda: [[0, 0.0, 0.0] for _ in range(BINS)])

    def add(self, expected: float, actual: float, times: int = 1) -> None:
        difference = expected - actual
        self.count += times
        self.squared += difference * difference * times
        self.absolute += abs(difference) * times
        self.logs += loss(expected, actual) * times
        cell = self.bins[bin_of(expected)]
        cell[0] += times
        cell[1] += expected * times
        cell[2] += actual * times

    def merge(self, other: Tally) -> None:
        self.count += other.count
        self.squared += other.squared
        self.logs += other.logs
        self.absolute += other.absolute
        for mine, theirs in zip(self.bins, other.bins, strict=True):
            for k in range(3):
                mine[k] += theirs[k]

    def figures(self) -> dict:
        n = self.count
        return {
            "games": n,
            "brier": self.squared / n if n else None,
            "log_loss": self.logs / n if n else None,
            "mae": self.absolute / n if n else None,
            "calibration": [
                {
                    "low": k / BINS,
                    "high": (k + 1) / BINS,
                    "games": int(count),
                    "mean_expected": total_e / count if count else None,
                    "mean_actual": total_s / count if count else None,
                }
                for k, (count, total_e, total_s) in enumerate(self.bins)
            ],
        }


def summarize(observations: Iterable[Observation]) -> dict:
    """Every figure of one system: all games, newcomers and established, by age group, by year.

    Equal observations are counted first (a Counter, at C speed: ORR's PD has 101 values, and
    Mchess's and PlayChess's expectations depend on a rating difference only), then one tally per
    (newcomer, age group, year) cell, merged into the views after."""
    cells: dict[tuple[bool, str, int], Tally] = {}
    for (expected, actual, newcomer, age_group, year), times in Counter(observations).items():
        key = (newcomer, age_group, year)
        tally = cells.get(key)
        if tally is None:
            tally = cells[key] = Tally()
        tally.add(expected, actual, times)
    total, status, ages, years = Tally(), {NEWCOMER: Tally(), ESTABLISHED: Tally()}, {}, {}
    for (newcomer, age_group, year), tally in cells.items():
        total.merge(tally)
        status[NEWCOMER if newcomer else ESTABLISHED].merge(tally)
        ages.setdefault(age_group, Tally()).merge(tally)
        years.setdefault(year, Tally()).merge(tally)
    return {
        "all": total.figures(),
        NEWCOMER: status[NEWCOMER].figures(),
        ESTABLISHED: status[ESTABLISHED].figures(),
        "age_groups": {group: tally.figures() for group, tally in ages.items()},
        "years": {year: years[year].figures() for year in sorted(years)},
    }
