"""The uploaded tournaments as a source of rating events (ratings.timeline.sources.EventSource).

Wired in settings.RATING_SOURCES; `ratings` never imports this module. Everything is returned as
plain data, read before the replay streams its results into the database.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Iterable

from django.db.models import Case, Q, When

from ratings.engines.common import Game as EngineGame
from ratings.gcrquery.games import against_computer, group
from ratings.gcrquery.query import BOARD, GcrQuery
from ratings.timeline.keys import EPOCH, TOURNAMENT, Key, local_date, local_end_of_day, tournament_key
from ratings.timeline.sources import Batch, Entrant, Facts, TournamentEvent
from toolkit import pagecache
from toolkit.bulk import raw_rows
from tournaments.models import Game, Participant, Tournament

HISTORY = (Tournament.Status.CONFIRMED, Tournament.Status.QUEUED, Tournament.Status.RATED)
FIELDS = ("id", "end_date", "start_date", "fide_rated", "rate_mchess", "rate_playchess", "mchess_weight")


def at_or_after(key: Key, prefix: str = "") -> Q:
    """Tournaments whose place on the timeline is at or after `key` (end date 23:59:59 local)."""
    if key.instant == EPOCH:
        return Q()
    day = local_date(key.instant)
    end_of_day = local_end_of_day(day)
    same_instant_later = key.rank < TOURNAMENT
    if key.instant < end_of_day or (key.instant == end_of_day and same_instant_later):
        return Q(**{f"{prefix}end_date__gte": day})
    if key.instant > end_of_day or key.rank > TOURNAMENT:
        return Q(**{f"{prefix}end_date__gt": day})
    start = datetime.date.fromordinal(key.tiebreak)
    return (
        Q(**{f"{prefix}end_date__gt": day})
        | Q(**{f"{prefix}end_date": day, f"{prefix}start_date__gt": start})
        | Q(**{f"{prefix}end_date": day, f"{prefix}start_date": start, f"{prefix}id__gte": key.id})
    )


class TournamentSource:
    kind = "tournament"
    anchor = "tournament_id"
    stamps = (("tournaments.Tournament", "rated_at"), ("tournaments.Tournament", "updated_at"))

    def batch(self, since: Key) -> Batch:
        rows = (
            Tournament.objects.filter(at_or_after(since), status__in=HISTORY)
            .order_by("end_date", "start_date", "id")
            .values_list(*FIELDS)
        )
        events = [TournamentEvent(*row) for row in rows]
        facts = _fill(events)
        return Batch(events, facts)

    def later(self, since: Key):
        return Tournament.objects.filter(at_or_after(since)).values("pk")

    def keys(self, ids: Iterable[int]) -> dict[int, Key]:
        ids = list(ids)
        keys = {}
        for start in range(0, len(ids), 5000):
            rows = Tournament.objects.filter(pk__in=ids[start : start + 5000]).values_list(
                "end_date", "start_date", "pk"
            )
            for end, begin, pk in rows:
                keys[pk] = tournament_key(_Place(end, begin, pk))
        return keys

    def rated(self, ids: list[int]) -> None:
        from django.utils import timezone

        Tournament.objects.filter(pk__in=ids).update(
            status=Tournament.Status.RATED, status_detail="", rated_at=timezone.now()
        )

    # --- What rating runs and requests need of tournaments ------------------------------------

    def key_of(self, tournament_id: int, *, lock: bool = False) -> Key | None:
        tournaments = Tournament.objects.select_for_update() if lock else Tournament.objects
        tournament = tournaments.filter(pk=tournament_id).only("end_date", "start_date", "status").first()
        if tournament is None or tournament.status not in HISTORY:
            return None
        return tournament_key(tournament)

    def mark_failed(self, tournament_id: int, reason: str) -> None:
        Tournament.objects.filter(pk=tournament_id).update(status=Tournament.Status.FAILED, status_detail=reason)
        pagecache.bump_on_commit()  # it leaves the public tournament list

    def requeue_failed(self, since: datetime.date | None) -> None:
        failed = Tournament.objects.filter(status=Tournament.Status.FAILED)
        if since is not None:
            failed = failed.filter(end_date__gte=since)
        failed.update(status=Tournament.Status.QUEUED, status_detail="")

    def requeue(self, tournament_id: int) -> tuple[str, str]:
        """Staff's retry: a failed tournament is queued again. Its status before and after (locked)."""
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        before = tournament.status
        if before == Tournament.Status.FAILED:
            tournament.status, tournament.status_detail = Tournament.Status.QUEUED, ""
            tournament.save(update_fields=["status", "status_detail", "updated_at"])
        return before, tournament.status

    def orphans(self, *, updated_before: datetime.datetime, requested: list[str]) -> list[int]:
        """Queued tournaments with no request in these states (queued before requests existed, or by hand)."""
        return list(
            Tournament.objects.filter(
                status__in=[Tournament.Status.QUEUED, Tournament.Status.CONFIRMED], updated_at__lt=updated_before
            )
            .exclude(rating_requests__state__in=requested)
            .values_list("pk", flat=True)
        )

    def unannounced(self, tournament_ids: list[int]) -> list[int]:
        return list(
            Tournament.objects.filter(
                pk__in=tournament_ids, status=Tournament.Status.RATED, followers_notified_at__isnull=True
            ).values_list("pk", flat=True)
        )

    def gcr_games(self):
        played = (
            Game.objects.filter(
                kind=Game.Kind.PLAYED, tournament__status=Tournament.Status.RATED, tournament__rate_gcr=True
            )
            .annotate(half_points=Case(When(result="1-0", then=2), When(result="1/2-1/2", then=1), default=0))
            .values_list("white_id", "black_id", "half_points", "tournament__end_date")
        )
        return raw_rows(played)

    def gcr_filtered_games(self, query: GcrQuery) -> list[tuple[int, int, int]]:
        """(white, black, white's half points) of the played games over the board that pass the
        filter, in one query; the period is the tournament's end date, as GCR dates its games."""
        if BOARD not in query.kinds:
            return []
        played = Game.objects.filter(kind=Game.Kind.PLAYED, result__in=["1-0", "1/2-1/2", "0-1"])
        if query.rated_only:
            played = played.filter(tournament__rate_gcr=True, tournament__status=Tournament.Status.RATED)
        if query.tournaments:
            played = played.filter(tournament_id__in=query.tournaments)
        if query.since is not None:
            played = played.filter(tournament__end_date__gte=query.since)
        if query.until is not None:
            played = played.filter(tournament__end_date__lte=query.until)
        played = played.filter(group(query)).exclude(against_computer())
        half_points = Case(When(result="1-0", then=2), When(result="1/2-1/2", then=1), default=0)
        return list(
            raw_rows(played.annotate(half_points=half_points).values_list("white_id", "black_id", "half_points"))
        )


class _Place:
    __slots__ = ("end_date", "pk", "start_date")

    def __init__(self, end_date, start_date, pk):
        self.end_date, self.start_date, self.pk = end_date, start_date, pk


def _fill(events: list[TournamentEvent]) -> dict[int, Facts]:
    """Participants and games of the tournaments, as plain tuples, in two queries per 2000.

    Everything is read before any result is written: the results stream into the database on the
    same connection, which then runs no other query.
    """
    by_id = {event.id: event for event in events}
    ids = list(by_id)
    facts: dict[int, Facts] = {}
    # One int object per player, shared by his entries and games: the driver makes a new one for
    # every value, 56 bytes per game that the rating run's forked child would hold a second time.
    shared_id = {}.setdefault
    for start in range(0, len(ids), 2000):
        some = ids[start : start + 2000]
        rows = Participant.objects.filter(tournament_id__in=some).values_list(
            "tournament_id",
            "player_id",
            "fide_rating_in_file",
            "is_guest",
            "player__kind",
            "player__birth_date",
            "player__birth_precision",
        )
        for tournament_id, player_id, fide, guest, kind, birth_date, precision in raw_rows(rows):
            player_id = shared_id(player_id, player_id)
            by_id[tournament_id].entrants.append(Entrant(player_id, fide, guest))
            if player_id not in facts:
                facts[player_id] = Facts(kind, birth_date, precision)
        # Single-player rows (byes, absences) are never rated: only pairings are read.
        rows = Game.objects.filter(tournament_id__in=some, black__isnull=False).values_list(
            "tournament_id", "round", "white_id", "black_id", "result", "kind"
        )
        texts: dict[str, str] = {}  # one string object per result and kind, not one per game
        text = texts.setdefault
        new = tuple.__new__  # the named tuple without its Python-level __new__: a million games
        grouped: dict[int, list] = defaultdict(list)
        for tournament_id, rnd, white, black, result, kind in raw_rows(rows):
            game = (rnd, shared_id(white, white), shared_id(black, black), text(result, result), text(kind, kind))
            grouped[tournament_id].append(new(EngineGame, game))
        for tournament_id, games in grouped.items():
            by_id[tournament_id].games = games
    return facts
