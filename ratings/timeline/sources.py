"""Where the timeline's events come from: a small protocol the apps above `ratings` implement.

`ratings` imports neither `tournaments` nor `play`: each of them implements EventSource in its
own `timeline.py`, and settings.RATING_SOURCES (dotted paths, the one place they are wired)
lists them. The walk asks each source for its events at or after a key, as plain data.
"""

from __future__ import annotations

import datetime
import functools
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple, Protocol, runtime_checkable

from django.conf import settings
from django.utils.module_loading import import_string

from ratings.engines.common import Game as EngineGame
from ratings.timeline.keys import Key, mobile_key, tournament_key


class Entrant(NamedTuple):
    """What a rating run needs of a participant (read as plain tuples, never as model instances)."""

    player_id: int
    fide_rating_in_file: int | None
    is_guest: bool


class Facts(NamedTuple):
    """What the engines need of a player: kind (human / computer) and birth date for ORR's age rule."""

    kind: str
    birth_date: datetime.date | None
    birth_precision: str


@dataclass(slots=True, eq=False)
class TournamentEvent:
    """An uploaded tournament of the history, with its participants and paired games."""

    id: int
    end_date: datetime.date
    start_date: datetime.date
    fide_rated: bool
    rate_mchess: bool
    rate_playchess: bool
    mchess_weight: int
    entrants: list[Entrant] = field(default_factory=list)
    games: list[EngineGame] = field(default_factory=list)

    @property
    def pk(self) -> int:
        return self.id

    @property
    def key(self) -> Key:
        return tournament_key(self)


@dataclass(frozen=True, slots=True)
class MobileResult:
    """A finished, rated mobile game (mobile-chess.md, "Rating"): white_score is 1, 0.5 or 0."""

    game_id: int
    finished_at: datetime.datetime
    white_id: int
    black_id: int
    white_score: float
    weight: int

    @property
    def key(self) -> Key:
        return mobile_key(self.finished_at, self.game_id)


@dataclass
class Batch:
    """One source's events at or after a key, in timeline order, and the facts of their players."""

    events: list = field(default_factory=list)
    facts: dict[int, Facts] = field(default_factory=dict)


@runtime_checkable
class EventSource(Protocol):
    kind: str  # "tournament", "mobile": which rating module rates its events
    anchor: str  # the RatingChange foreign key (attname) that points at this kind's events
    # ("app.Model", column) pairs whose latest value changes when this kind's events do (page cache)
    stamps: tuple[tuple[str, str], ...]

    def batch(self, since: Key) -> Batch:
        """The events to rate at or after `since`, in timeline order."""

    def later(self, since: Key) -> Iterable[int]:
        """Ids of every event of this kind (rated or not any more) at or after `since`, or with no
        place at all: their rating changes are deleted before the replay. A queryset is welcome."""

    def keys(self, ids: Iterable[int]) -> dict[int, Key]:
        """The keys of these events (those still on the timeline)."""

    def rated(self, ids: list[int]) -> None:
        """The replay rated these events (called inside the run's transaction)."""


class TournamentHistory(EventSource, Protocol):
    """What rating runs and requests need of the tournaments beyond the timeline itself."""

    def key_of(self, tournament_id: int, *, lock: bool = False) -> Key | None:
        """The tournament's key, or None when it is not (any more) in the rated history."""

    def mark_failed(self, tournament_id: int, reason: str) -> None: ...

    def requeue_failed(self, since: datetime.date | None) -> None:
        """Failed tournaments ending on or after `since` (all: None) wait for the run again."""

    def requeue(self, tournament_id: int) -> tuple[str, str]:
        """Staff's retry: a failed tournament waits again. Its status before and after."""

    def orphans(self, *, updated_before: datetime.datetime, requested: list[str]) -> list[int]:
        """Tournaments waiting for a run that no request in these states covers."""

    def unannounced(self, tournament_ids: list[int]) -> list[int]:
        """Those just rated whose players' followers were not told yet."""

    def gcr_games(self) -> Iterable[tuple[int, int, int, datetime.date]]:
        """(white, black, white's half points, end date) of every played, rated game GCR counts."""

    def gcr_filtered_games(self, query) -> list[tuple[int, int, int]]:
        """(white, black, white's half points) of the games that pass a GCR filter
        (ratings.gcrquery.query.GcrQuery), in one query. The mobile source has it too."""


@functools.cache
def _load(paths: tuple[str, ...]) -> tuple[EventSource, ...]:
    return tuple(import_string(path)() for path in paths)


def registered() -> tuple[EventSource, ...]:
    return _load(tuple(settings.RATING_SOURCES))


def source(kind: str) -> EventSource:
    for candidate in registered():
        if candidate.kind == kind:
            return candidate
    raise LookupError(f"no rating source of kind {kind!r} in settings.RATING_SOURCES")


def tournaments() -> TournamentHistory:
    return source("tournament")  # type: ignore[return-value]
