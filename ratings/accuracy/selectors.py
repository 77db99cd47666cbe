"""The rated games of each system as observations for ratings.engines.accuracy, in few queries.

ORR, Mchess and PlayChess: every game is in its players' RatingChange rows, each line with the
numbers the system used (details["games"]), so one query a system reads them all; the events'
dates come from their sources (one query per 5,000 events) and the birth dates in one query.
GCR: the games GCR counts, and the final ratings of its list (gcr.md, 7).
"""

from __future__ import annotations

import datetime
from collections import Counter
from itertools import groupby
from operator import itemgetter

from django.core.cache import cache
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from players.models import Player
from ratings.engines import accuracy, agegroups
from ratings.engines.accuracy import Observation
from ratings.engines.playchess import ESTABLISHED_GAMES
from ratings.filters import AGE_GROUPS
from ratings.models import PlayerRating, RatingChange, System
from ratings.timeline import sources
from ratings.timeline.keys import zone
from toolkit import pagecache

# The lists' age groups, and the players whose birth date the federation does not know.
AGE_LABELS = [*AGE_GROUPS, (agegroups.UNKNOWN, _("Birth date unknown"))]
CACHE_PREFIX = "accuracy"
CACHE_SECONDS = 24 * 3600  # the data version moves with every run long before this
# GCR has no provisional status: a player is a GCR newcomer before his 10th game counted (in
# tournaments that ended earlier), PlayChess's threshold of an established rating.
GCR_NEWCOMER_GAMES = ESTABLISHED_GAMES


def _birth_dates() -> dict[int, datetime.date]:
    return dict(Player.objects.filter(birth_date__isnull=False).values_list("id", "birth_date"))


def _event_dates(rows) -> dict[tuple[str, int], datetime.date]:
    """(anchor, event id) -> the event's local date: a tournament's end, a mobile game's finish."""
    wanted: dict[str, set[int]] = {}
    for row in rows:
        anchor, event = _anchor(row)
        wanted.setdefault(anchor, set()).add(event)
    local = zone()
    dates = {}
    for source in sources.registered():
        ids = wanted.get(source.anchor)
        if ids:
            for event, key in source.keys(ids).items():
                dates[source.anchor, event] = key.instant.astimezone(local).date()
    return dates


def _anchor(row) -> tuple[str, int]:
    return ("tournament_id", row[1]) if row[1] is not None else ("mobile_game_id", row[2])


def _line_reader(system: str, rows):
    """(row, line) -> (expected, half points), or None for a line this system's figures leave out."""
    if system == System.ORR:
        # (round, opponent, opponent's rating, half points, PD, stored). The PD ORR itself used is not
        # taken: for a newcomer or a provisional player it comes from a rating estimated from this very
        # tournament. PD is recomputed with both players' ratings from before the tournament, and a game
        # with a player who had none (a newcomer) is left out; stored lines are earlier games, the
        # fictitious draw has no opponent.
        before = {(row[0], row[1]): row[3] for row in rows}

        def orr(row, line):
            if line[1] is None or line[5] or row[3] is None:
                return None
            opponent = before.get((line[1], row[1]))
            if opponent is None:
                return None
            return accuracy.orr_expected(row[3], opponent), line[3]

        return orr
    if system == System.MCHESS:
        # (round, opponent, own rating before the round, opponent's, half points, change)
        def mchess(row, line):
            return accuracy.mchess_expected(line[2], line[3]), line[4]

        return mchess

    # PlayChess: (round, opponent, opponent's rating as used, half points) and the own entry rating.
    def playchess(row, line):
        own = row[6]
        if own is None:
            return None
        return accuracy.playchess_expected(own, line[2]), line[3]

    return playchess


def observations(system: str, births: dict | None = None) -> list[Observation]:
    """Every player's side of every game rated in ORR, Mchess or PlayChess."""
    births = _birth_dates() if births is None else births
    # Only the games (and PlayChess's entry rating) out of the details: the rest (the engine's state
    # snapshot, most of the document) is never sent, nor decoded.
    entry = "details__entry_rating" if system == System.PLAYCHESS else "rating_before"
    rows = list(
        RatingChange.objects.filter(system=system).values_list(
            "player_id",
            "tournament_id",
            "mobile_game_id",
            "rating_before",
            "provisional_before",
            "details__games",
            entry,
        )
    )
    dates = _event_dates(rows)
    read = _line_reader(system, rows)
    out = []
    new = tuple.__new__
    for row in rows:
        player, _t, _m, before, provisional, games, _entry = row
        day = dates.get(_anchor(row))
        if day is None:
            continue  # an event no longer on the timeline (its changes go at the next run)
        newcomer = before is None or provisional
        group = agegroups.age_group(births.get(player), day.year)
        for line in games or ():
            seen = read(row, line)
            if seen is not None:
                out.append(new(Observation, (seen[0], seen[1] / 2, newcomer, group, day.year)))
    return out


def gcr_observations(births: dict | None = None) -> list[Observation]:
    """Both sides of every game GCR counts, expected from the final ratings of the list."""
    births = _birth_dates() if births is None else births
    final = {
        player: (float(gcr1) + float(gcr2)) / 2
        for player, gcr1, gcr2 in PlayerRating.objects.filter(system=System.GCR).values_list(
            "player_id", "gcr1", "gcr2"
        )
    }
    games = sorted(
        (
            (end, white, black, half_points)
            for white, black, half_points, end in sources.tournaments().gcr_games()
            if white in final and black in final  # computers, and games after the last GCR run
        ),
        key=itemgetter(0),
    )
    played: Counter = Counter()
    out = []
    new = tuple.__new__
    for end, same_day in groupby(games, key=itemgetter(0)):
        same_day = list(same_day)
        for _end, white, black, half_points in same_day:
            expected = accuracy.gcr_expected(final[white], final[black])
            for player, e, score in ((white, expected, half_points / 2), (black, 1 - expected, 1 - half_points / 2)):
                newcomer = played[player] < GCR_NEWCOMER_GAMES
                out.append(
                    new(Observation, (e, score, newcomer, agegroups.age_group(births.get(player), end.year), end.year))
                )
        for _end, white, black, _hp in same_day:
            played[white] += 1
            played[black] += 1
    return out


def compute() -> dict:
    """Every system's figures, as the page and the API show them."""
    births = _birth_dates()
    systems = []
    for system in (System.ORR, System.MCHESS, System.PLAYCHESS, System.GCR):
        seen = gcr_observations(births) if system == System.GCR else observations(system, births)
        systems.append({"system": system.value, **accuracy.summarize(seen)})
    return {"computed_at": timezone.now(), "systems": systems}


def cache_key() -> str:
    return f"{CACHE_PREFIX}:{pagecache.version()}"


def report() -> dict:
    """The figures of the current data version: computed after every GCR run by the worker
    (ratings.accuracy.services.refresh), or else on the first request after a change of the data,
    and kept in the cache under the page cache's data version until the next change."""
    result = cache.get(cache_key())
    if result is None:
        result = compute()
        cache.set(cache_key(), result, CACHE_SECONDS)
    return result
