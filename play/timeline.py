"""Finished mobile games as a source of rating events (ratings.timeline.sources.EventSource).

Wired in settings.RATING_SOURCES; `ratings` never imports this module. A game is on the timeline
at its finishing moment (mobile-chess.md, "Rating"); it is rated, with its weight W, when it is
finished (not annulled) with a result and each player made at least one move (MobileGame.rated).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable

from django.db.models import Case, Q, When

from play.models import MobileGame
from ratings.gcrquery.games import against_computer, group
from ratings.gcrquery.query import COMPUTER, GcrQuery
from ratings.gcrquery.query import MOBILE as BETWEEN_PEOPLE
from ratings.timeline.keys import EPOCH, MOBILE, Key, mobile_key
from ratings.timeline.sources import Batch, Facts, MobileResult
from toolkit.bulk import raw_rows

WHITE_SCORE = {"1-0": 1, "1/2-1/2": 0.5, "0-1": 0}
_ONE_SECOND = datetime.timedelta(seconds=1)


def at_or_after(key: Key) -> Q:
    """Games whose place (finishing second, then id) is at or after `key`."""
    if key.instant == EPOCH:
        return Q(finished_at__isnull=False)
    second = key.instant.replace(microsecond=0)
    if key[1:] <= (MOBILE, 0, 0):  # before every game of that second
        return Q(finished_at__gte=second)
    later_seconds = Q(finished_at__gte=second + _ONE_SECOND)
    if key.rank > MOBILE:
        return later_seconds
    return later_seconds | Q(finished_at__gte=second, finished_at__lt=second + _ONE_SECOND, id__gte=key.id)


def _rated() -> Q:
    """MobileGame.rated as a filter: finished, a moment and a result, a move of each player."""
    return Q(status=MobileGame.Status.FINISHED, finished_at__isnull=False, plies__gte=2, result__in=list(WHITE_SCORE))


class MobileSource:
    kind = "mobile"
    anchor = "mobile_game_id"
    stamps = (("play.MobileGame", "finished_at"),)

    def batch(self, since: Key) -> Batch:
        rows = (
            MobileGame.objects.filter(_rated(), at_or_after(since))
            .values_list(
                "pk",
                "finished_at",
                "white_id",
                "black_id",
                "result",
                "weight",
                "white__kind",
                "white__birth_date",
                "white__birth_precision",
                "black__kind",
                "black__birth_date",
                "black__birth_precision",
            )
            .order_by("finished_at", "pk")
        )
        events, facts = [], {}
        for pk, finished_at, white, black, result, weight, *people in rows:
            events.append(MobileResult(pk, finished_at, white, black, WHITE_SCORE[result], weight))
            facts.setdefault(white, Facts(*people[:3]))
            facts.setdefault(black, Facts(*people[3:]))
        # Truncated to the second, games of one second go by id (the query orders by the full moment).
        events.sort(key=lambda event: event.key)
        return Batch(events, facts)

    def later(self, since: Key):
        # Every game at or after the key, rated or not any more, and any game with no finish at all:
        # a game reopened or annulled after it was rated loses its changes here.
        return MobileGame.objects.filter(at_or_after(since) | Q(finished_at__isnull=True)).values("pk")

    def keys(self, ids: Iterable[int]) -> dict[int, Key]:
        ids = list(ids)
        keys = {}
        for start in range(0, len(ids), 5000):
            rows = MobileGame.objects.filter(pk__in=ids[start : start + 5000], finished_at__isnull=False)
            for pk, finished_at in rows.values_list("pk", "finished_at"):
                keys[pk] = mobile_key(finished_at, pk)
        return keys

    def rated(self, ids: list[int]) -> None:
        """Nothing to mark: a game's rating changes are its record of being rated."""

    def gcr_filtered_games(self, query: GcrQuery) -> list[tuple[int, int, int]]:
        """(white, black, white's half points) of the finished mobile games that pass the filter, in
        one query: between people (kind "mobile") and against a computer (kind "computer"). Mobile
        games belong to no tournament: a tournament filter lets none through. The period is the
        finishing day (local time). Rated: as MobileGame.rated; all: every finished game with a result."""
        wanted = {BETWEEN_PEOPLE, COMPUTER} & set(query.kinds)
        if not wanted or query.tournaments:
            return []
        if query.rated_only:
            games = MobileGame.objects.filter(_rated())
        else:
            games = MobileGame.objects.filter(
                status=MobileGame.Status.FINISHED, finished_at__isnull=False, result__in=list(WHITE_SCORE)
            )
        if wanted == {BETWEEN_PEOPLE}:
            games = games.exclude(against_computer())
        elif wanted == {COMPUTER}:
            games = games.filter(against_computer())
        if query.since is not None:
            games = games.filter(finished_at__date__gte=query.since)
        if query.until is not None:
            games = games.filter(finished_at__date__lte=query.until)
        half_points = Case(When(result="1-0", then=2), When(result="1/2-1/2", then=1), default=0)
        games = games.filter(group(query)).annotate(half_points=half_points)
        return list(raw_rows(games.values_list("white_id", "black_id", "half_points")))
