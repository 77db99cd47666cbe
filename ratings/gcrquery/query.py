"""A GCR filter and its outcome, pure (no Django): what passes, and the list GCR makes of it.

The filter is normalised (sorted ids, "newer than N days" turned into a date) so that one filter
written two ways is one cache entry. The outcome is `ratings.engines.gcr.rate` over the games that
passed, shown as the GCR list shows it: truncated to whole points (docs/rules/gcr.md, 6), ordered
by rating, the accuracy in percent with two decimals.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ratings.engines import gcr

BOARD, MOBILE, COMPUTER = "board", "mobile", "computer"
KINDS = (BOARD, MOBILE, COMPUTER)


@dataclass(frozen=True, slots=True)
class GcrQuery:
    """Which games pass. Empty fields let every game through; a group filter (club, region, birth
    years) lets a game through when both its players belong to the group."""

    tournaments: tuple[int, ...] = ()
    since: datetime.date | None = None
    until: datetime.date | None = None
    club: int | None = None
    region: int | None = None
    born_from: int | None = None  # years, both included
    born_until: int | None = None
    kinds: tuple[str, ...] = (BOARD,)
    rated_only: bool = True

    def __post_init__(self) -> None:
        # Normalised on the way in: the same filter is one key however it was written.
        object.__setattr__(self, "tournaments", tuple(sorted(set(self.tournaments))))
        unknown = set(self.kinds) - set(KINDS)
        if unknown:
            raise ValueError(f"unknown kinds of game: {sorted(unknown)}")
        object.__setattr__(self, "kinds", tuple(kind for kind in KINDS if kind in set(self.kinds)))

    @property
    def grouped(self) -> bool:
        return (
            self.club is not None
            or self.region is not None
            or self.born_from is not None
            or (self.born_until is not None)
        )

    def key(self) -> str:
        """The filter as a short stable text: the cache's key."""
        return "|".join(
            [
                ",".join(map(str, self.tournaments)),
                self.since.isoformat() if self.since else "",
                self.until.isoformat() if self.until else "",
                "" if self.club is None else str(self.club),
                "" if self.region is None else str(self.region),
                "" if self.born_from is None else str(self.born_from),
                "" if self.born_until is None else str(self.born_until),
                ",".join(self.kinds),
                "rated" if self.rated_only else "all",
            ]
        )


def since_of(since: datetime.date | None, days: int | None, today: datetime.date) -> datetime.date | None:
    """The earliest date that passes: "newer than N days" is the last N days, today included; with
    both a date and a number of days, the later of the two."""
    if days is None:
        return since
    newer = today - datetime.timedelta(days=days - 1)
    return newer if since is None else max(since, newer)


def outcome(games: Iterable[tuple[int, int, int]], people: Mapping[int, tuple[int, str]]) -> dict:
    """{"games", "accuracy", "results"} of GCR over these games ((a, b, a's half points) each);
    `people` gives each player id's (federation id, name). Results by rating (descending), then by
    the unrounded GCR, then by federation id."""
    result = gcr.rate(games)
    rows = sorted(
        result.players.values(),
        key=lambda p: (-max(0, p.display), -p.gcr, people[p.id][0]),
    )
    return {
        "games": result.games,
        "accuracy": None if result.accuracy is None else round(result.accuracy, 2),
        "results": [
            {
                "federation_id": people[p.id][0],
                "name": people[p.id][1],
                # As the GCR list stores it (ratings.services._gcr_write): truncated, never below 0.
                "rating": max(0, p.display),
                "games": p.games,
            }
            for p in rows
        ],
    }
