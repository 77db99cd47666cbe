"""The opening list's place on the timeline and what the walk and the roll-back read of it.

Its key is its day's 00:00 local, the place of a rating decision of that day (keys.override_key),
before it: the walk puts the list ahead of that day's decisions."""

from __future__ import annotations

from ratings.opening.models import OpeningEntry, OpeningList
from ratings.timeline.keys import Key, override_key


def opening_key(effective) -> Key:
    return override_key(effective)


def openings_at_or_after(key: Key) -> list[OpeningList]:
    return [o for o in OpeningList.objects.order_by("effective") if opening_key(o.effective) >= key]


def opening_states(opening: OpeningList) -> list[tuple[int, dict]]:
    return list(OpeningEntry.objects.filter(opening=opening).values_list("player_id", "states").order_by("id"))


def opening_fide_ratings() -> list[tuple]:
    """(player, list date, FIDE rating): the list's FIDE ratings count as approved from its date."""
    return list(
        OpeningEntry.objects.filter(fide_rating__isnull=False).values_list(
            "player_id", "opening__effective", "fide_rating"
        )
    )


def players_from(key: Key) -> set[int]:
    """Players of the lists at or after `key`: their standings are rebuilt by the walk."""
    lists = [o.pk for o in openings_at_or_after(key)]
    return set(OpeningEntry.objects.filter(opening_id__in=lists).values_list("player_id", flat=True))


def earlier(system: str, players: set[int], key: Key) -> dict[int, tuple[Key, dict | None]]:
    """Per player, his standing in the latest list before `key` (None: none in this system)."""
    found: dict[int, tuple[Key, dict | None]] = {}
    lists = [o for o in OpeningList.objects.order_by("effective") if opening_key(o.effective) < key]
    for opening in lists:
        rows = OpeningEntry.objects.filter(opening=opening, player_id__in=players).values_list("player_id", "states")
        for player_id, states in rows:
            # Just before the place of that day's decisions, as the walk orders them: a decision
            # of the list's own day still applies on top of the list when restoring.
            place = opening_key(opening.effective)
            found[player_id] = (Key(place.instant, place.rank, -1), states.get(system))
    return found
