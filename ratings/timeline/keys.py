"""Places on the rating timeline: one instant-based key for every kind of event.

A key is (instant, rank, tiebreak, id). The instant is timezone-aware (UTC); `rank` orders the
kinds of event that fall on the same instant; `tiebreak` and `id` order events of one kind:

- a decision (rating override) effective on a day: that day's 00:00 local, rank 0;
- a penalty month: the 1st's 00:00 local, rank 1, so it comes after the tournaments that ended
  before the 1st and before those ending on or after it (the placement the replay always had);
- an uploaded tournament: its end date 23:59:59 local, rank 2, then start date, then id (the old
  rating order (end date, start date, id) among tournaments, unchanged);
- a mobile game: its finishing moment truncated to the second, rank 3, then game id ("games
  finishing at the same second: by game id", mobile-chess.md, "Rating").

"Local" is the federation's zone, settings.TIME_ZONE. The rules module has no Django import of
its own beyond reading that setting, so the keys can be made and compared anywhere.
"""

from __future__ import annotations

import datetime
import functools
import zoneinfo
from typing import NamedTuple

from django.conf import settings

OVERRIDE, PENALTY, TOURNAMENT, MOBILE, SINCE = 0, 1, 2, 3, 0
END_OF_DAY = datetime.time(23, 59, 59)
EPOCH = datetime.datetime.min.replace(tzinfo=datetime.UTC)


class Key(NamedTuple):
    instant: datetime.datetime
    rank: int = 0
    tiebreak: int = 0
    id: int = 0


START = Key(EPOCH)  # before every event: a replay from here is a re-rating from scratch


@functools.cache
def _zone(name: str) -> zoneinfo.ZoneInfo:
    return zoneinfo.ZoneInfo(name)


def zone() -> zoneinfo.ZoneInfo:
    return _zone(settings.TIME_ZONE)


def local_midnight(day: datetime.date) -> datetime.datetime:
    if day == datetime.date.min:  # "from the beginning" (no UTC offset fits before year 1)
        return EPOCH
    return datetime.datetime.combine(day, datetime.time.min, tzinfo=zone()).astimezone(datetime.UTC)


def local_end_of_day(day: datetime.date) -> datetime.datetime:
    return datetime.datetime.combine(day, END_OF_DAY, tzinfo=zone()).astimezone(datetime.UTC)


def local_date(instant: datetime.datetime) -> datetime.date:
    """The federation's calendar day of an instant (EPOCH's day is date.min)."""
    if instant == EPOCH:
        return datetime.date.min
    return instant.astimezone(zone()).date()


def to_second(instant: datetime.datetime) -> datetime.datetime:
    if instant.tzinfo is None:
        raise ValueError("timeline instants are timezone-aware")
    return instant.astimezone(datetime.UTC).replace(microsecond=0)


def tournament_key(tournament) -> Key:
    """Anything with end_date, start_date and pk (a Tournament, a TournamentEvent)."""
    return Key(local_end_of_day(tournament.end_date), TOURNAMENT, tournament.start_date.toordinal(), tournament.pk)


def penalty_key(month: datetime.date) -> Key:
    """A month's penalty comes after the tournaments that ended before its 1st, before all others."""
    return Key(local_midnight(month), PENALTY)


def override_key(effective: datetime.date) -> Key:
    """A decision taking effect on a day comes before the tournaments ending on or after that day."""
    return Key(local_midnight(effective), OVERRIDE)


def mobile_key(finished_at: datetime.datetime, game_id: int) -> Key:
    return Key(to_second(finished_at), MOBILE, 0, game_id)


def since_key(since: datetime.date | datetime.datetime | None) -> Key:
    """Where a re-rating "from" a date (its 00:00 local) or an instant (its second) starts: before
    every event at that place."""
    if since is None:
        return START
    if isinstance(since, datetime.datetime):
        return Key(to_second(since), SINCE)
    return Key(local_midnight(since), SINCE)
