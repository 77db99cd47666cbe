"""Reads of rating data for pages and exports."""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Sequence

from django.db.models import F, QuerySet, Window
from django.db.models.functions import Rank

from ratings.models import PlayerRating, RatingChange, RatingList, RatingListEntry


def rating_list(*, system: str) -> QuerySet[PlayerRating]:
    """The live list of one system, highest first, with the rank of each player (ties share a rank)."""
    return ranked(live_list(system=system))


def live_list(*, system: str) -> QuerySet[PlayerRating]:
    """The live list before ranking: filters go here, then `ranked`.

    Merged duplicates are left out with an anti-join on the (few) merged ids rather than a join
    on every row, so counting a 100,000-player list stays cheap.
    """
    from players.models import Player

    merged = Player.objects.filter(merged_into__isnull=False).values("pk")
    return (
        PlayerRating.objects.filter(system=system, rating__isnull=False)
        .exclude(player__in=merged)
        .select_related("player", "player__club", "player__region")
        .defer("state")  # the engine's state (stored games) is for rating runs, not lists
    )


def published_list(*, rating_list: RatingList) -> QuerySet[RatingListEntry]:
    return RatingListEntry.objects.filter(rating_list=rating_list).select_related(
        "player", "player__club", "player__region"
    )


def published_months(*, system: str) -> list:
    return list(RatingList.objects.filter(system=system).order_by("-month").values_list("month", flat=True))


# Up to this many rows, a filtered list is ranked in Python rather than read off the list's index.
FEW = 5000


def ranked(queryset):
    """Rank within what the filters left (ties share a rank), highest rating first."""
    # "place", not "rank": a published list's entries keep the rank they were published with.
    # Ordered as the (system, -rating, player) index is, so PostgreSQL reads the first page of
    # a 100,000-player list straight from the index instead of sorting all of it.
    return queryset.annotate(place=Window(Rank(), order_by=F("rating").desc())).order_by("-rating", "player_id")


class _Ranked(Sequence):
    """Rows in rank order, read a page at a time: a subclass gives the page's (pk, place) pairs."""

    _queryset: QuerySet

    def _page(self, index: slice) -> list[tuple[int, int]]:
        raise NotImplementedError

    def __getitem__(self, index):
        if isinstance(index, slice):
            # The page's rows, in its order, each told its place.
            chosen = self._page(index)
            found = self._queryset.in_bulk([pk for pk, _ in chosen])
            page = []
            for pk, place in chosen:
                row = found[pk]
                row.place = place
                page.append(row)
            return page
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        return self[index : index + 1][0]


class RankedFew(_Ranked):
    """A list that filters cut to a few rows, ranked in Python, its pages read by primary key.

    Asked for the first page ordered by rating, PostgreSQL walks the list's index from the top
    and checks each row's player: the under-8s, at the bottom of the list, are 30,000 rows in.
    Asked for the set alone, in no order, it finds them through the birth-date index in a few
    milliseconds; sorting a few thousand (id, rating) pairs here is nothing.
    """

    def __init__(self, queryset, rows=None):
        self._queryset = queryset.order_by()
        if rows is None:
            rows = self._queryset.values_list("pk", "rating", "player_id")
        rows = sorted(rows, key=lambda row: (-row[1], row[2]))
        self._rows: list[tuple[int, int]] = []
        place, previous = 0, None
        for position, (pk, rating, _) in enumerate(rows, start=1):
            if rating != previous:
                place, previous = position, rating
            self._rows.append((pk, place))

    @classmethod
    def at_most(cls, queryset, limit: int | None = None) -> RankedFew | None:
        """The list ranked here if it has at most `limit` (FEW) rows, else None: one query either way,
        and the length of a short list without counting it apart."""
        limit = FEW if limit is None else limit
        rows = list(queryset.order_by().values_list("pk", "rating", "player_id")[: limit + 1])
        return None if len(rows) > limit else cls(queryset, rows)

    def __len__(self) -> int:
        return len(self._rows)

    def _page(self, index: slice) -> list[tuple[int, int]]:
        return self._rows[index]


class RankedPage(_Ranked):
    """A long list ranked by the database, a page at a time: the page's (id, place) pairs read off
    the list's index alone, then those rows with their players.

    Ranking and skipping with the players joined in joins every skipped row to its player, club
    and region: 96 ms for page 200 of a filtered 100,000-player list, 23 ms without them.
    """

    def __init__(self, queryset, total: int):
        self._queryset = queryset.order_by()
        self._total = total

    def __len__(self) -> int:
        return self._total

    def _page(self, index: slice) -> list[tuple[int, int]]:
        return list(ranked(self._queryset).values_list("pk", "place")[index])


def list_rows(queryset, *, by_rating: bool = True) -> tuple[Sequence | QuerySet, int]:
    """The rows of a (filtered) list page and how many there are.

    In rating order, a short list is ranked here and a long one a page at a time by the database;
    sorted otherwise (by name, say), it is the ranked queryset for the table to order.
    """
    if by_rating:
        few = RankedFew.at_most(queryset)
        if few is not None:
            return few, len(few)
    # Counted without the ranking window: the same number, far less work.
    total = queryset.count()
    if not by_rating:
        return ranked(queryset), total
    return RankedPage(queryset, total), total


def player_ratings(*, player) -> dict[str, PlayerRating]:
    return {r.system: r for r in PlayerRating.objects.filter(player=player, rating__isnull=False)}


def player_history(*, player) -> QuerySet[RatingChange]:
    """The player's rating changes in every system, newest tournament first."""
    return (
        RatingChange.objects.filter(player=player)
        .select_related("tournament")
        .order_by("-tournament__end_date", "-tournament__start_date", "-tournament_id", "system")
    )


def player_page(*, player) -> dict:
    """Everything the player page shows, in a fixed number of queries."""
    from ratings.charts import rating_chart
    from ratings.engines.orr import ESTABLISHED_GAMES, ESTABLISHED_TOURNAMENTS
    from ratings.engines.playchess import ESTABLISHED_GAMES as PLAYCHESS_GAMES
    from ratings.models import InactivityPenalty, System

    current = player_ratings(player=player)
    changes = list(player_history(player=player))
    by_tournament: dict[int, dict] = {}
    series: dict[str, list] = {system: [] for system in System.values}
    for change in reversed(changes):  # oldest first
        row = by_tournament.setdefault(
            change.tournament_id, {"tournament": change.tournament, **dict.fromkeys(System.values)}
        )
        row[change.system] = change
        row.setdefault("games", change.games)
        row.setdefault("score", change.score)
        series[change.system].append((change.tournament.end_date, change.rating_after, change.tournament.name))
    for penalty in InactivityPenalty.objects.filter(player=player).order_by("month"):
        series[System.MCHESS].append((penalty.month, penalty.rating_after, "inactivity"))
    series[System.MCHESS].sort(key=lambda item: item[0])
    ratings = []
    for value, label in System.choices:
        rating = current.get(value)
        left = None
        if rating is not None and rating.provisional:
            if value == System.ORR:
                stored = len(rating.state.get("stored", []))
                left = (max(0, ESTABLISHED_GAMES - stored), max(0, ESTABLISHED_TOURNAMENTS - rating.tournaments))
            elif value == System.PLAYCHESS:
                left = (max(0, PLAYCHESS_GAMES - rating.games), 0)
        chart = rating_chart(series[value]) if value != System.GCR else None
        ratings.append({"system": value, "label": label, "rating": rating, "left": left, "chart": chart})
    tournaments = sorted(
        by_tournament.values(),
        key=lambda row: (row["tournament"].end_date, row["tournament"].start_date, row["tournament"].pk),
        reverse=True,
    )
    return {"ratings": ratings, "tournaments": tournaments}


def list_export_rows(*, system: str, queryset=None) -> list[dict]:
    """A list (by default the whole live list of `system`) as plain rows, in list order (one query)."""
    rows = []
    for rating in ranked(queryset if queryset is not None else live_list(system=system)):
        row = list_row(rating)
        row["last_played"] = row["last_played"].isoformat() if row["last_played"] else None
        rows.append(row)
    return rows


def list_row(rating) -> dict:
    """One ranked row of a list (live or published, its player, club and region selected) as plain
    values: what the downloads and the API give of it."""
    player = rating.player
    return {
        "rank": rating.place,
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
        "last_played": getattr(rating, "last_played", None),  # published lists have none
    }


def home_top_lists(*, size: int = 10, reference=None) -> list[dict]:
    """The ORR top of the whole list, of women and girls, and of every age group."""
    import datetime

    from django.utils.translation import gettext as _

    from ratings.filters import AGE_GROUPS, age_group_bounds
    from ratings.models import System

    year = (reference or datetime.date.today()).year  # noqa: DTZ011 - a calendar year
    base = live_list(system=System.ORR)
    lists = [
        {"key": "all", "title": _("Overall"), "rows": list(ranked(base)[:size])},
        {
            "key": "women",
            "title": _("Women and girls"),
            "rows": list(ranked(base.filter(player__sex="F"))[:size]),
        },
    ]
    for key, label in AGE_GROUPS[:-1]:
        rows = list(ranked(base.filter(age_group_bounds(key, year)))[:5])
        lists.append({"key": key, "title": str(label), "rows": rows})
    return [entry for entry in lists if entry["rows"] or entry["key"] == "all"]


def ratings_version() -> str:
    """The database's stamp of what the public pages show, in one query: the latest rating run and
    tournament edit, penalty month, decided rating, published list, GCR run and player edit.

    `federation.pagecache.version()` reads it at most every PAGE_CACHE_DB_SECONDS; writers also bump
    the cache's own counter, so a change shows at once.
    """
    from django.db import connection

    from players.models import Player
    from ratings.models import GcrRun, PenaltyMonth, RatingOverride
    from tournaments.models import Tournament

    latest = [
        (Tournament, "rated_at"),
        (Tournament, "updated_at"),
        (PenaltyMonth, "id"),
        (RatingOverride, "id"),
        (RatingList, "id"),
        (GcrRun, "computed_at"),
        (Player, "updated_at"),
    ]
    # Table and column names from the models, never from input.
    query = "SELECT " + ", ".join(f"(SELECT max({c}) FROM {m._meta.db_table})" for m, c in latest)  # noqa: S608
    with connection.cursor() as cursor:
        cursor.execute(query)
        return "|".join(str(value) for value in cursor.fetchone())


def home_top_lists_cached(*, size: int = 10) -> list[dict]:
    """home_top_lists, kept until the ratings change (or ten minutes, for renamed players and clubs).

    Eight ranked queries, 100 ms at 100,000 players, for a page everyone opens first.
    """
    from django.core.cache import cache
    from django.utils.translation import get_language

    from federation import pagecache

    version = f"{pagecache.version()}|{datetime.date.today()}"  # noqa: DTZ011 - age groups turn with the year
    key = f"home-top-lists:{get_language()}:{size}:{hashlib.sha256(version.encode()).hexdigest()[:20]}"
    return cache.get_or_set(key, lambda: home_top_lists(size=size), timeout=600)
