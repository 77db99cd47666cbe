"""Writes of rating data: rating runs, re-ratings, the monthly Mchess penalty, published lists, GCR.

Every run takes the rating lock (a PostgreSQL advisory lock held to the end of its
transaction), so runs never overlap, and is one transaction: it applies completely
or not at all. A run that fails leaves the previous ratings as they were and marks
the tournament failed with the reason, for the arbiter and the admins to see.
"""

from __future__ import annotations

import datetime
import logging
from decimal import Decimal

from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.db.models import Case, F, When, Window
from django.db.models.functions import Rank
from django.utils import timezone

from federation import pagecache
from federation.bulk import copy_stream, raw_rows
from players.models import Player
from ratings.engines import gcr
from ratings.models import GcrRun, PenaltyMonth, PlayerRating, RatingList, RatingListEntry, System
from ratings.replay import HISTORY, START, Summary, penalty_key, replay_from, tournament_key
from tournaments.models import Game, Tournament

logger = logging.getLogger(__name__)

RATING_LOCK = 7_370_001  # the advisory lock id of rating runs (any constant unique to this application)
GCR_LOCK = 7_370_002


def _lock(lock_id: int = RATING_LOCK) -> None:
    """Serialise rating runs. SQLite has a single writer anyway; PostgreSQL needs the lock."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [lock_id])


class TransientError(Exception):
    """A failure worth retrying (the database went away for a moment)."""


def rating_run(*, tournament_id: int) -> Summary | None:
    """Rate a confirmed tournament, and re-rate everything after it in the rating order."""
    try:
        with transaction.atomic():
            _lock()
            tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
            if tournament is None:
                logger.warning("rating run for tournament %s: it no longer exists", tournament_id)
                return None
            if tournament.status not in HISTORY:
                logger.info("rating run for %s skipped: its status is %s", tournament, tournament.status)
                return None
            summary = replay_from(tournament_key(tournament))
    except DatabaseError as exc:
        if _is_transient(exc):
            raise TransientError(str(exc)) from exc
        _mark_failed(tournament_id, exc)
        raise
    except Exception as exc:
        _mark_failed(tournament_id, exc)
        raise
    logger.info(
        "rated tournament %s: %s tournaments, %s changes, %s penalties",
        tournament_id,
        len(summary.tournaments),
        summary.changes,
        summary.penalties,
    )
    return summary


def unannounced(tournament_ids: list[int]) -> list[int]:
    """Those of the tournaments just rated whose players' followers were not told yet."""
    return list(
        Tournament.objects.filter(
            pk__in=tournament_ids, status=Tournament.Status.RATED, followers_notified_at__isnull=True
        ).values_list("pk", flat=True)
    )


def _is_transient(exc: DatabaseError) -> bool:
    from django.db import InterfaceError, OperationalError

    if isinstance(exc, InterfaceError):
        return True
    if isinstance(exc, OperationalError):
        text = str(exc).lower()
        return any(word in text for word in ("connection", "terminat", "timeout", "could not connect", "locked"))
    return False


def _mark_failed(tournament_id: int, exc: Exception) -> None:
    reason = f"{type(exc).__name__}: {exc}"[:2000]
    logger.error("rating run for tournament %s failed: %s", tournament_id, reason)
    try:
        Tournament.objects.filter(pk=tournament_id).update(status=Tournament.Status.FAILED, status_detail=reason)
        pagecache.bump_on_commit()  # it leaves the public tournament list
    except DatabaseError:
        logger.exception("could not even mark tournament %s as failed", tournament_id)


def rerate_since(*, since: datetime.date | None = None) -> Summary:
    """An admin's re-rating of everything from a date (or the whole history); failed tournaments are retried."""
    key = START if since is None else (since, datetime.date.min, 0)
    with transaction.atomic():
        _lock()
        failed = Tournament.objects.filter(status=Tournament.Status.FAILED)
        if since is not None:
            failed = failed.filter(end_date__gte=since)
        failed.update(status=Tournament.Status.QUEUED, status_detail="")
        return replay_from(key)


def mchess_penalty(*, month: datetime.date) -> bool:
    """The month's inactivity penalty, once: False if it had been applied already."""
    month = month.replace(day=1)
    with transaction.atomic():
        _lock()
        _, created = PenaltyMonth.objects.get_or_create(month=month)
        if not created:
            return False
        # Tournaments ending on or after the 1st may have been rated before the job ran: replaying from
        # the month's place puts the penalty before them.
        replay_from(penalty_key(month))
    return True


def publish_lists(*, month: datetime.date) -> list[RatingList]:
    """Freeze the current lists of every system as the month's published lists (once per month)."""
    month = month.replace(day=1)
    published = []
    with transaction.atomic():
        _lock()
        for system in System.values:
            rating_list, created = RatingList.objects.get_or_create(system=system, month=month)
            if not created:
                continue
            rows = (
                PlayerRating.objects.filter(system=system, rating__isnull=False, player__merged_into__isnull=True)
                .annotate(rank=Window(Rank(), order_by=F("rating").desc()))
                .values_list("player_id", "rank", "rating", "provisional", "games")
            )
            RatingListEntry.objects.bulk_create(
                (
                    RatingListEntry(
                        rating_list=rating_list,
                        player_id=player_id,
                        rank=rank,
                        rating=rating,
                        provisional=provisional,
                        games=games,
                    )
                    for player_id, rank, rating, provisional, games in rows.iterator(chunk_size=5000)
                ),
                batch_size=5000,
            )
            published.append(rating_list)
        if published:
            pagecache.bump_on_commit()
    return published


def stalled_tournaments(*, older_than: datetime.timedelta) -> list[int]:
    """Tournaments queued (or confirmed) for longer than `older_than` without being rated."""
    limit = timezone.now() - older_than
    return list(
        Tournament.objects.filter(
            status__in=[Tournament.Status.QUEUED, Tournament.Status.CONFIRMED], updated_at__lt=limit
        ).values_list("pk", flat=True)
    )


# --- GCR -----------------------------------------------------------------------------------------


def gcr_request() -> GcrRun:
    """Ask for a GCR recomputation; a burst of requests is served by one computation."""
    run, _ = GcrRun.objects.get_or_create(pk=1, defaults={"requested_at": timezone.now()})
    GcrRun.objects.filter(pk=run.pk).update(requested_at=timezone.now())
    run.refresh_from_db()
    return run


GCR_COLUMNS = ("player_id", "system", "rating", "games", "gcr1", "gcr2", "accuracy", "state")


def _gcr_write(players) -> None:
    """Write GCR's rows: on PostgreSQL as COPY text made with one format string a row (the
    generic row writer took 1.3 s for 75,000 players, most of it adapting Decimals)."""
    with copy_stream(PlayerRating, GCR_COLUMNS) as stream:
        if stream.raw is None:
            for p in players:
                stream.write(
                    (
                        p.id,
                        System.GCR,
                        max(0, p.display),
                        p.games,
                        Decimal(f"{p.gcr1:.2f}"),
                        Decimal(f"{p.gcr2:.2f}"),
                        Decimal(f"{p.accuracy:.2f}"),
                        {"wins": p.wins, "opponents": p.opponents},
                    )
                )
            return
        tail = stream.line_end
        system = System.GCR.value
        stream.raw(
            "".join(
                f"{p.id}\t{system}\t{max(0, p.display)}\t{p.games}\t{p.gcr1:.2f}\t{p.gcr2:.2f}\t{p.accuracy:.2f}"
                f'\t{{"wins": {p.wins}, "opponents": {p.opponents}}}{tail}'
                for p in players
            ).encode()
        )


def gcr_recompute(*, force: bool = False) -> bool:
    """Recompute GCR over every rated played game, unless nothing was asked since the last time."""
    with transaction.atomic():
        _lock(GCR_LOCK)
        run = GcrRun.objects.select_for_update().filter(pk=1).first()
        if run is None:
            run = GcrRun.objects.create(pk=1, requested_at=timezone.now())
        if not force and run.started_at is not None and run.started_at >= run.requested_at:
            return False
        started = timezone.now()
        # Computers play in Mchess only. They are few: leaving them out here is cheaper than
        # joining every game to both its players.
        computers = set(Player.objects.filter(kind=Player.Kind.COMPUTER).values_list("id", flat=True))
        played = (
            Game.objects.filter(
                kind=Game.Kind.PLAYED, tournament__status=Tournament.Status.RATED, tournament__rate_gcr=True
            )
            .annotate(half_points=Case(When(result="1-0", then=2), When(result="1/2-1/2", then=1), default=0))
            .values_list("white_id", "black_id", "half_points")
        )
        result = gcr.rate(
            (
                game
                for game in raw_rows(played)
                if not computers or (game[0] not in computers and game[1] not in computers)
            ),
            fork_from=settings.RATING_PARALLEL_MIN_GAMES,
        )
        PlayerRating.objects.filter(system=System.GCR).delete()
        _gcr_write(result.players.values())
        run.started_at = started
        run.computed_at = timezone.now()
        run.games = result.games
        run.players = len(result.players)
        run.accuracy = Decimal(f"{result.accuracy:.2f}") if result.accuracy is not None else None
        run.save()
        pagecache.bump_on_commit()
    return True
