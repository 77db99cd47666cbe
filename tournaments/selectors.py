from __future__ import annotations

from decimal import Decimal

from django.db.models import Q, QuerySet
from django.shortcuts import get_object_or_404

from tournaments.models import Game, Tournament, Upload

PUBLIC_STATUSES = (Tournament.Status.RATED, Tournament.Status.QUEUED, Tournament.Status.CONFIRMED)


def public_tournaments() -> QuerySet[Tournament]:
    return Tournament.objects.filter(status__in=PUBLIC_STATUSES).order_by("-end_date", "-start_date", "-id")


def latest_rated_tournaments(*, limit: int) -> QuerySet[Tournament]:
    return Tournament.objects.filter(status=Tournament.Status.RATED).order_by("-end_date", "-start_date", "-id")[:limit]


def public_tournament(pk: int) -> Tournament:
    return get_object_or_404(public_tournaments().select_related("chief_arbiter"), pk=pk)


def standings(*, tournament: Tournament) -> list[dict]:
    """Participants with the points of their games, best first (two queries whatever the size)."""
    participants = list(tournament.participants.select_related("player", "player__club"))
    points = {p.player_id: Decimal(0) for p in participants}
    for game in Game.objects.filter(tournament=tournament).only("white_id", "black_id", "result"):
        points[game.white_id] += game.white_points
        if game.black_id is not None:
            points[game.black_id] += game.black_points
    rows = [{"participant": p, "player": p.player, "points": points[p.player_id]} for p in participants]
    rows.sort(key=lambda row: (-row["points"], row["participant"].rank or 10**6, row["participant"].start_number))
    return rows


def arbiter_tournaments(*, user) -> QuerySet[Tournament]:
    return (
        Tournament.objects.filter(Q(chief_arbiter=user) | Q(co_arbiters=user))
        .distinct()
        .order_by("-end_date", "-start_date", "-id")
    )


def arbiter_uploads(*, user) -> QuerySet[Upload]:
    return Upload.objects.filter(uploaded_by=user).select_related("tournament").order_by("-uploaded_at")
