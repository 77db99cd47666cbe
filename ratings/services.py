"""Writes of rating data: rating runs, re-ratings, the monthly Mchess penalty, published lists, GCR.

Every run takes the rating lock (a PostgreSQL advisory lock held to the end of its
transaction), so runs never overlap, and is one transaction: it applies completely
or not at all. A run that fails leaves the previous ratings as they were and marks
the tournament failed with the reason, for the arbiter and the admins to see.
"""

from __future__ import annotations

import datetime
import logging
import threading
import uuid
from decimal import Decimal

from django.conf import settings
from django.db import DatabaseError, connection, connections, transaction
from django.db.models import F, Q, Window
from django.db.models.functions import Rank
from django.utils import timezone

from players.models import Player
from ratings import signals
from ratings.engines import gcr
from ratings.forked import ChildFailed
from ratings.models import (
    GcrRun,
    PenaltyMonth,
    PlayerRating,
    RatingList,
    RatingListEntry,
    RatingRequest,
    System,
)
from ratings.replay import Key, Summary, penalty_key, replay_from, since_key
from ratings.timeline import sources
from ratings.timeline.keys import local_date
from toolkit import pagecache, queueing
from toolkit.bulk import copy_stream

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
        with signals.run_timed("tournament"), transaction.atomic():
            _lock()
            key = sources.tournaments().key_of(tournament_id, lock=True)
            if key is None:
                logger.info("rating run for tournament %s skipped: it is not in the rated history", tournament_id)
                return None
            summary = replay_from(key)
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
    return sources.tournaments().unannounced(tournament_ids)


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
        sources.tournaments().mark_failed(tournament_id, reason)
    except DatabaseError:
        logger.exception("could not even mark tournament %s as failed", tournament_id)


def rerate_since(*, since: datetime.date | datetime.datetime | None = None) -> Summary:
    """An admin's re-rating of everything from a date or an instant (or the whole history); failed
    tournaments are retried."""
    with signals.run_timed("since"), transaction.atomic():
        _lock()
        sources.tournaments().requeue_failed(_since_date(since))
        return replay_from(since_key(since))


def _since_date(since: datetime.date | datetime.datetime | None) -> datetime.date | None:
    """The federation's day of a "since" (the day of an instant): where date-based filters start."""
    if isinstance(since, datetime.datetime):
        return local_date(since)
    return since


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
            pagecache.bump_on_commit(warm=True)  # the first visitors of the new lists find them rendered
    return published


# --- GCR -----------------------------------------------------------------------------------------


def gcr_request() -> GcrRun:
    """Ask for a GCR recomputation; a burst of requests is served by one computation."""
    run, _ = GcrRun.objects.get_or_create(pk=1, defaults={"requested_at": timezone.now()})
    GcrRun.objects.filter(pk=run.pk).update(requested_at=timezone.now())
    run.refresh_from_db()
    return run


GCR_COLUMNS = ("player_id", "system", "rating", "games", "gcr1", "gcr2", "accuracy", "last_played", "state")


def _gcr_write(players, last_played: dict) -> None:
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
                        last_played.get(p.id),
                        {"wins": p.wins, "opponents": p.opponents},
                    )
                )
            return
        tail = stream.line_end
        system = System.GCR.value
        stream.raw(
            "".join(
                f"{p.id}\t{system}\t{max(0, p.display)}\t{p.games}\t{p.gcr1:.2f}\t{p.gcr2:.2f}\t{p.accuracy:.2f}"
                f"\t{last_played[p.id].isoformat()}"
                f'\t{{"wins": {p.wins}, "opponents": {p.opponents}}}{tail}'
                for p in players
            ).encode()
        )


def _gcr_games(rows, computers: set, last_played: dict):
    """The games GCR counts, as the engine takes them, noting on the way each player's last one
    (the end of his latest tournament with a game GCR counted: the lists' "last played" and
    their "active" filter need it, and GCR, recomputed as a whole, keeps no dates of its own)."""
    for white, black, half_points, end in rows:
        if computers and (white in computers or black in computers):
            continue
        if last_played.get(white, end) <= end:
            last_played[white] = end
        if last_played.get(black, end) <= end:
            last_played[black] = end
        yield white, black, half_points


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
        played = sources.tournaments().gcr_games()
        last_played: dict = {}
        result = gcr.rate(_gcr_games(played, computers, last_played), fork_from=settings.RATING_PARALLEL_MIN_GAMES)
        PlayerRating.objects.filter(system=System.GCR).delete()
        _gcr_write(result.players.values(), last_played)
        run.started_at = started
        run.computed_at = timezone.now()
        run.games = result.games
        run.players = len(result.players)
        run.accuracy = Decimal(f"{result.accuracy:.2f}") if result.accuracy is not None else None
        run.save()
        pagecache.bump_on_commit(warm=True, changed=Summary(systems={System.GCR}))
    return True


# --- Rating requests: the durable "re-rate from here" ---------------------------------------------

REPUBLISH_AFTER = datetime.timedelta(minutes=5)  # a pending request published this long ago: the message may be lost
ORPHAN_AFTER = datetime.timedelta(minutes=10)  # a queued tournament without any request (older versions, by hand)
OPEN = (RatingRequest.State.PENDING, RatingRequest.State.RUNNING)


def rating_request(
    *, reason: str, tournament=None, since: datetime.date | datetime.datetime | None = None
) -> RatingRequest:
    """Ask for a re-rating from a tournament's place, from a date or an instant, or (neither) of the
    whole history.

    An instant (a timezone-aware datetime, e.g. a mobile game's finishing moment) re-rates from
    that second on the timeline: every event at or after it, the game itself included.

    The one call for every change that needs a re-rating: make it inside the transaction of the
    change, so the change and the request commit together. The request is sent to the queue after
    the commit; if the broker is down the request waits in the database and the sweeper (or the
    next worker to start, or the next successful publish) sends it. It never raises for the queue.
    """
    if isinstance(since, datetime.datetime):
        request = RatingRequest.objects.create(
            reason=reason, tournament=tournament, since=_since_date(since), since_at=since
        )
    else:
        request = RatingRequest.objects.create(reason=reason, tournament=tournament, since=since)
    transaction.on_commit(publish_requests)
    return request


def publish_requests() -> bool:
    """Send one wake-up message for every pending request not sent yet (one run serves them all).

    Never raises: with the broker down the requests stay pending, unsent, and the caller tells the
    user that the run waits. False when the message could not be sent.
    """
    now = timezone.now()
    due = list(
        RatingRequest.objects.filter(state=RatingRequest.State.PENDING)
        .filter(Q(published_at__isnull=True) | Q(published_at__lt=now - REPUBLISH_AFTER))
        .values_list("pk", flat=True)
    )
    if not due:
        return True
    # Marked first: with eager tasks (development) the run happens inside apply_async and closes them.
    RatingRequest.objects.filter(pk__in=due, state=RatingRequest.State.PENDING).update(published_at=now)
    try:
        queueing.send(
            "ratings.tasks.run_rating_requests", retry=True, retry_policy={"max_retries": 1, "interval_start": 0.2}
        )
    except Exception:  # the broker is down (or an eager run failed, and recorded it): never the user's 500
        logger.warning(
            "rating requests %s could not be sent to the queue; they wait for the sweeper", due, exc_info=True
        )
        RatingRequest.objects.filter(pk__in=due, state=RatingRequest.State.PENDING, published_at=now).update(
            published_at=None
        )
        return False
    return True


def recover_requests(*, worker: str = "", started: datetime.datetime | None = None) -> int:
    """Put back the runs whose worker is gone: heartbeat silent for RATING_RUN_STALE_SECONDS, or (told
    by a worker that started at `started`) claimed before then by a worker of that very name, which
    cannot be alive any more."""
    limit = timezone.now() - datetime.timedelta(seconds=settings.RATING_RUN_STALE_SECONDS)
    lost = Q(heartbeat_at__lt=limit) | Q(heartbeat_at__isnull=True)
    if worker and started is not None:
        lost |= Q(worker=worker, started_at__lt=started)
    with transaction.atomic():
        rows = list(
            RatingRequest.objects.select_for_update(skip_locked=True)
            .filter(lost, state=RatingRequest.State.RUNNING)
            .values_list("pk", "worker", "attempts", "tournament_id")
        )
        for pk, gone, attempts, tournament_id in rows:
            error = f"the worker {gone or '?'} stopped during the run"
            if attempts < settings.RATING_RUN_MAX_ATTEMPTS:
                logger.warning("rating request %s: %s; it is queued again", pk, error)
                RatingRequest.objects.filter(pk=pk).update(
                    state=RatingRequest.State.PENDING, published_at=None, run_token="", error=error
                )
                continue
            # Killed every time (the hard time limit, memory): failed, for staff to look at and retry.
            error = f"{error}, {attempts} times"
            logger.error("rating request %s failed: %s", pk, error)
            RatingRequest.objects.filter(pk=pk).update(
                state=RatingRequest.State.FAILED, run_token="", error=error, finished_at=timezone.now()
            )
            if tournament_id is not None:
                _mark_failed(tournament_id, RuntimeError(error))
    return len(rows)


def _adopt_orphans() -> int:
    """Queued tournaments with no request at all (queued before requests existed, or set by hand)."""
    orphans = sources.tournaments().orphans(
        updated_before=timezone.now() - ORPHAN_AFTER, requested=[*OPEN, RatingRequest.State.FAILED]
    )
    created = RatingRequest.objects.bulk_create(
        RatingRequest(tournament_id=pk, reason=RatingRequest.Reason.RECOVERY) for pk in orphans
    )
    return len(created)


def sweep_requests(*, worker: str = "", started: datetime.datetime | None = None) -> bool:
    """The safety net, every minute and at each worker's start: lost runs back, pending ones sent,
    requests done a month ago forgotten."""
    recover_requests(worker=worker, started=started)
    _adopt_orphans()
    RatingRequest.objects.filter(
        state=RatingRequest.State.DONE, finished_at__lt=timezone.now() - datetime.timedelta(days=30)
    ).delete()
    return publish_requests()


def retry_request(*, tournament, admin) -> int:
    """Staff's retry of a failed run reaching this tournament: its failed requests wait again, in their
    places, and a failed tournament is queued again. Returns how many requests wait now."""
    from accounts import audit

    with transaction.atomic():
        before_status, after_status = sources.tournaments().requeue(tournament.pk)
        failed = RatingRequest.objects.filter(state=RatingRequest.State.FAILED).filter(
            Q(tournament=tournament)
            | Q(tournament__isnull=True, since__lte=tournament.end_date)
            | Q(tournament__isnull=True, since__isnull=True)
        )
        count = failed.update(
            state=RatingRequest.State.PENDING, attempts=0, error="", published_at=None, run_token="", finished_at=None
        )
        if after_status != before_status:  # a failed tournament waits for its run again
            tournament.status, tournament.status_detail = after_status, ""
            rating_request(reason=RatingRequest.Reason.ADMIN, tournament=tournament)
            count += 1
        audit.record(
            actor=admin,
            action="rating_retried",
            target=tournament,
            summary=f"retried the rating run of {tournament}",
            before={"status": before_status},
            after={"status": after_status, "requests": count},
            reason="",
        )
        transaction.on_commit(publish_requests)
    return count


def _request_key(request: RatingRequest) -> Key | None:
    """Where a request's run starts; None when there is nothing to rate (its tournament left the history)."""
    if request.tournament_id is not None:
        return sources.tournaments().key_of(request.tournament_id)
    return since_key(request.since_at or request.since)


class _Heartbeat(threading.Thread):
    """Beats the claimed requests' heartbeat in its own connection: the run is one long transaction
    whose writes nobody sees before it ends, and a worker killed whole stops beating at once."""

    def __init__(self, token: str):
        super().__init__(name=f"rating-heartbeat-{token[:6]}", daemon=True)
        self.token = token
        self.halt = threading.Event()

    def run(self) -> None:
        try:
            while not self.halt.wait(settings.RATING_HEARTBEAT_SECONDS):
                try:
                    RatingRequest.objects.filter(run_token=self.token, state=RatingRequest.State.RUNNING).update(
                        heartbeat_at=timezone.now()
                    )
                except DatabaseError:
                    logger.warning("the rating run's heartbeat could not be written", exc_info=True)
        finally:
            connections.close_all()  # this thread's own connections

    def stop(self) -> None:
        self.halt.set()
        self.join(timeout=30)


def _claim(token: str, worker: str) -> list[RatingRequest]:
    now = timezone.now()
    with transaction.atomic():
        ids = list(
            RatingRequest.objects.select_for_update(skip_locked=True)
            .filter(state=RatingRequest.State.PENDING)
            .values_list("pk", flat=True)
        )
        RatingRequest.objects.filter(pk__in=ids).update(
            state=RatingRequest.State.RUNNING,
            run_token=token,
            worker=worker[:200],
            started_at=now,
            heartbeat_at=now,
            attempts=F("attempts") + 1,
        )
    return list(RatingRequest.objects.filter(pk__in=ids, run_token=token))


def run_requests(*, worker: str = "") -> Summary | None:
    """Claim every pending request and rate once from the earliest of their places.

    Idempotent: a duplicate message finds nothing pending, and two runs never overlap (the rating
    lock). None when there was nothing to do.
    """
    token = uuid.uuid4().hex
    claimed = _claim(token, worker)
    if not claimed:
        return None
    beat = _Heartbeat(token) if connection.vendor == "postgresql" else None  # SQLite: one writer at a time
    if beat is not None:
        beat.start()
    try:
        with signals.run_timed("requests"), transaction.atomic():
            _lock()
            requests = list(RatingRequest.objects.filter(pk__in=[r.pk for r in claimed]))
            keys = [key for key in map(_request_key, requests) if key is not None]
            summary = None
            if keys:
                key = min(keys)
                # A re-rating from a date includes the failed tournaments after it, as an admin's re-rating does.
                dated = [r.since for r in requests if r.tournament_id is None]
                if dated:
                    sources.tournaments().requeue_failed(None if None in dated else min(dated))
                summary = replay_from(key)
            # Done in the run's own transaction: the requests read done exactly when the results are
            # visible (the page warming after the commit takes seconds; a request must not read
            # "running" over rated tournaments meanwhile).
            now = timezone.now()
            RatingRequest.objects.filter(run_token=token, state=RatingRequest.State.RUNNING).update(
                state=RatingRequest.State.DONE, finished_at=now, heartbeat_at=now, error=""
            )
            if keys:
                _close_superseded(min(keys), now)
    except Exception as exc:
        _run_failed(token, claimed, exc)
        raise_transient = isinstance(exc, ChildFailed) or (isinstance(exc, DatabaseError) and _is_transient(exc))
        if raise_transient and max(r.attempts for r in claimed) < settings.RATING_RUN_MAX_ATTEMPTS:
            raise TransientError(str(exc)) from exc
        raise
    finally:
        if beat is not None:
            beat.stop()
    logger.info("rating requests %s done by %s", [r.pk for r in claimed], worker or "this process")
    return summary


def _close_superseded(key: tuple, now) -> None:
    """Failed requests whose place this successful run covered are done: their tournaments are rated now."""
    failed = RatingRequest.objects.filter(state=RatingRequest.State.FAILED)
    covered = [r.pk for r in failed if (k := _request_key(r)) is not None and k >= key]
    RatingRequest.objects.filter(pk__in=covered).update(state=RatingRequest.State.DONE, finished_at=now)


def _run_failed(token: str, claimed: list[RatingRequest], exc: Exception) -> None:
    """A passing failure (the database went away, the forked ORR process died or failed) is tried again
    up to RATING_RUN_MAX_ATTEMPTS times; any other failure, or the last attempt, is failed with the reason."""
    reason = f"{type(exc).__name__}: {exc}"[:2000]
    retry = isinstance(exc, ChildFailed) or (isinstance(exc, DatabaseError) and _is_transient(exc))
    now = timezone.now()
    try:
        for request in claimed:
            mine = RatingRequest.objects.filter(pk=request.pk, run_token=token, state=RatingRequest.State.RUNNING)
            if retry and request.attempts < settings.RATING_RUN_MAX_ATTEMPTS:
                logger.warning(
                    "rating request %s failed (attempt %s), tried again: %s", request.pk, request.attempts, reason
                )
                mine.update(state=RatingRequest.State.PENDING, error=reason, published_at=now, run_token="")
            else:
                logger.error("rating request %s failed: %s", request.pk, reason)
                mine.update(state=RatingRequest.State.FAILED, error=reason, finished_at=now)
                if request.tournament_id is not None:
                    _mark_failed(request.tournament_id, exc)
    except DatabaseError:
        logger.exception("could not record the failure of rating requests %s", [r.pk for r in claimed])
