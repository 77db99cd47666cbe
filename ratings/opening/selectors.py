"""The current state as an opening list (what export_list --system all writes), and the
difference between two lists."""

from __future__ import annotations

from ratings.models import OpeningEntry, PlayerRating
from ratings.opening.columns import SYSTEMS, stored_text
from ratings.opening.timeline import opening_fide_ratings


def birth_text(player) -> str:
    if player.birth_precision == "day":
        return player.birth_date.isoformat()
    if player.birth_precision == "year":
        return str(player.birth_date.year)
    return ""


def state_cells(system: str, state: dict | None) -> dict:
    if state is None:
        return {
            f"{system}_{name}": ""
            for name in ("rating", "provisional", "games", "tournaments", "last_played", "stored")
        }
    return {
        f"{system}_rating": "" if state.get("rating") is None else state["rating"],
        f"{system}_provisional": "1" if state.get("provisional") else "0",
        f"{system}_games": state.get("games", 0),
        f"{system}_tournaments": state.get("tournaments", 0),
        f"{system}_last_played": state.get("last_played") or "",
        f"{system}_stored": stored_text(state.get("stored", ())),
    }


def current_rows() -> list[dict]:
    """One row per player (merged duplicates left out), by federation id: the import format."""
    from players.models import Player

    states: dict[int, dict[str, dict]] = {}
    ratings = PlayerRating.objects.filter(system__in=list(SYSTEMS)).values_list("player_id", "system", "state")
    for player_id, system, state in ratings.iterator(chunk_size=5000):
        states.setdefault(player_id, {})[system] = state
    fide: dict[int, tuple] = {}
    for player_id, day, rating in _approved_fide():
        if player_id not in fide or day >= fide[player_id][0]:
            fide[player_id] = (day, rating)
    rows = []
    players = Player.objects.filter(merged_into__isnull=True).select_related("club", "region").order_by("federation_id")
    for player in players.iterator(chunk_size=5000):
        row = {
            "federation_id": player.federation_id,
            "family_name": player.family_name,
            "given_names": player.given_names,
            "birth": birth_text(player),
            "sex": player.sex,
            "club": player.club.name if player.club_id else "",
            "region": player.region.name if player.region_id else "",
            "fide_id": player.fide_id or "",
            "fide_rating": fide[player.pk][1] if player.pk in fide else "",
        }
        for system in SYSTEMS:
            row.update(state_cells(system, states.get(player.pk, {}).get(system)))
        rows.append(row)
    return rows


def _approved_fide():
    from django.utils import timezone

    from players.models import FideImportApplication

    approved = FideImportApplication.objects.filter(
        status=FideImportApplication.Status.APPROVED, player__isnull=False, decided_at__isnull=False
    ).values_list("player_id", "decided_at", "fide_rating")
    for player_id, decided_at, rating in approved:
        yield player_id, timezone.localdate(decided_at), rating
    yield from opening_fide_ratings()


def entry_states(opening) -> dict[int, tuple[int | None, dict]]:
    """A stored list's entries: player id -> (FIDE rating, states)."""
    rows = OpeningEntry.objects.filter(opening=opening).values_list("player_id", "fide_rating", "states")
    return {player_id: (fide, states) for player_id, fide, states in rows}


def opening_date():
    """The day the site's history starts from (its opening list), or None."""
    from ratings.models import OpeningList

    return OpeningList.objects.order_by("effective").values_list("effective", flat=True).first()
