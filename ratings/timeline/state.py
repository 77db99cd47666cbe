"""A player's standing between events, and what a replay reports: shared by every rating module."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from decimal import Decimal

from ratings.models import System

ENGINE_SYSTEMS = (System.ORR, System.MCHESS, System.PLAYCHESS)


@dataclass(slots=True)
class Standing:
    """A player's standing in one system between events: what PlayerRating and the snapshots hold.
    Slots: a full re-rating keeps one per player and system alive (300,000), each without a dict."""

    rating: int | None = None
    provisional: bool = False
    games: int = 0
    tournaments: int = 0
    last_played: datetime.date | None = None
    stored: tuple = ()  # ORR: stored games; PlayChess: the history of a provisional rating

    def snapshot(self) -> dict:
        return {
            "rating": self.rating,
            "provisional": self.provisional,
            "games": self.games,
            "tournaments": self.tournaments,
            "last_played": self.last_played.isoformat() if self.last_played else None,
            # Plain tuples (JSON arrays): the engines' named tuples would cost orjson a call back
            # into Python each (toolkit.bulk.json_text), once per stored game of every change.
            "stored": list(map(tuple, self.stored)),
        }

    @classmethod
    def from_snapshot(cls, data: dict) -> Standing:
        last = data.get("last_played")
        return cls(
            rating=data.get("rating"),
            provisional=bool(data.get("provisional")),
            games=data.get("games", 0),
            tournaments=data.get("tournaments", 0),
            last_played=datetime.date.fromisoformat(last) if last else None,
            stored=tuple(tuple(g) for g in data.get("stored", [])),
        )


@dataclass
class Summary:
    """What a replay did (a GCR run: only `systems`): also what the public pages warmed after it are
    chosen from (settings.PAGE_CACHE_WARM)."""

    tournaments: list[int] = field(default_factory=list)  # rated, in the rating order
    mobile_games: list[int] = field(default_factory=list)
    penalty_months: list[datetime.date] = field(default_factory=list)
    changes: int = 0
    penalties: int = 0
    players: set[int] = field(default_factory=set)  # whose standings it wrote
    systems: set[str] = field(default_factory=set)  # whose lists it changed


SCORES = [Decimal(n) / 2 for n in range(64)]


def score(half_points: int) -> Decimal:
    return SCORES[half_points] if half_points < len(SCORES) else Decimal(half_points) / 2


def records(stored: tuple, record: type) -> tuple:
    """A standing's stored games as the engine's named tuples: read back from the database they
    are lists; kept from the engine in this replay they already are."""
    if stored and type(stored[0]) is not record:
        return tuple(record(*game) for game in stored)
    return stored


def override(system: str, standing: Standing, value: int) -> None:
    """ORR and Mchess: the rating, established from now on. PlayChess: the rating only, so that a
    provisional rating keeps growing from the player's own games."""
    standing.rating = value
    if system != System.PLAYCHESS:
        standing.provisional = False
        standing.stored = ()
