"""The parts of a GCR filter that the game sources share, as Django filters on their games.

The sources (tournaments.timeline, play.timeline) read their own games with these; `ratings` never
imports them (settings.RATING_SOURCES wires them in).
"""

from __future__ import annotations

from django.db.models import Q

from players.models import Player
from ratings.gcrquery.query import GcrQuery


def group(query: GcrQuery) -> Q:
    """Both players of the game in the group: club, region, birth years (a player without a birth
    date is in no group of birth years)."""
    passed = Q()
    for side in ("white", "black"):
        if query.club is not None:
            passed &= Q(**{f"{side}__club_id": query.club})
        if query.region is not None:
            passed &= Q(**{f"{side}__region_id": query.region})
        if query.born_from is not None:
            passed &= Q(**{f"{side}__birth_date__year__gte": query.born_from})
        if query.born_until is not None:
            passed &= Q(**{f"{side}__birth_date__year__lte": query.born_until})
    return passed


def computers():
    """The ids of the computer players, as a subquery (they are few)."""
    return Player.objects.filter(kind=Player.Kind.COMPUTER).values("id")


def against_computer() -> Q:
    return Q(white_id__in=computers()) | Q(black_id__in=computers())
