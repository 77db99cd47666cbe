"""The Mchess inactivity penalty of a month, at its place on the timeline (the 1st, 00:00 local)."""

from __future__ import annotations

import datetime

from django.db.models import Q

from ratings.engines import mchess
from ratings.models import InactivityPenalty, System
from ratings.timeline.keys import PENALTY, START, Key, local_date, local_midnight


def at_or_after(key: Key) -> Q:
    """Penalty months (of PenaltyMonth or InactivityPenalty) whose place is at or after `key`."""
    if key == START:
        return Q()
    day = local_date(key.instant)
    same_day_too = key.instant == local_midnight(day) and key[1:] <= (PENALTY, 0, 0)
    return Q(month__gte=day) if same_day_too else Q(month__gt=day)


def penalise(replay, month: datetime.date) -> None:
    """The month's Mchess inactivity penalty, on every player who has an Mchess rating."""
    if System.MCHESS not in replay.systems:
        return
    replay.load_all_mchess()  # every Mchess-rated player, once per replay
    for player_id, standing in replay.standings[System.MCHESS].items():
        if standing is None or standing.rating is None:
            continue
        if not mchess.is_inactive(standing.last_played, month):
            continue
        after = mchess.penalised(standing.rating)
        if after == standing.rating:
            continue
        replay.penalties.append(
            InactivityPenalty(player_id=player_id, month=month, rating_before=standing.rating, rating_after=after)
        )
        standing.rating = after
        replay.touched[System.MCHESS].add(player_id)
    replay.summary.penalty_months.append(month)
