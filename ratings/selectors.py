"""Reads of rating data for pages and exports."""

from __future__ import annotations

from django.db.models import F, QuerySet, Window
from django.db.models.functions import Rank

from ratings.models import PlayerRating, RatingChange


def rating_list(*, system: str) -> QuerySet[PlayerRating]:
    """The live list of one system, highest first, with the rank of each player (ties share a rank)."""
    return (
        PlayerRating.objects.filter(system=system, rating__isnull=False, player__merged_into__isnull=True)
        .select_related("player", "player__club", "player__region")
        .annotate(rank=Window(Rank(), order_by=F("rating").desc()))
        .order_by("-rating", "player__family_name", "player__given_names", "player_id")
    )


def player_ratings(*, player) -> dict[str, PlayerRating]:
    return {r.system: r for r in PlayerRating.objects.filter(player=player, rating__isnull=False)}


def player_history(*, player) -> QuerySet[RatingChange]:
    """The player's rating changes in every system, newest tournament first."""
    return (
        RatingChange.objects.filter(player=player)
        .select_related("tournament")
        .order_by("-tournament__end_date", "-tournament__start_date", "-tournament_id", "system")
    )


def list_export_rows(*, system: str) -> list[dict]:
    """The current list of one system as plain rows, in list order (one query)."""
    rows = []
    for rating in rating_list(system=system):
        player = rating.player
        rows.append(
            {
                "rank": rating.rank,
                "federation_id": player.federation_id,
                "name": player.full_name,
                "birth_year": player.birth_year,
                "sex": player.sex or None,
                "fide_id": player.fide_id,
                "club": player.club.name if player.club_id else None,
                "region": player.region.name if player.region_id else None,
                "rating": rating.rating,
                "provisional": rating.provisional,
                "games": rating.games,
                "last_played": rating.last_played.isoformat() if rating.last_played else None,
            }
        )
    return rows
