"""Reads of rating data for pages and exports."""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Sequence

from django.db.models import F, Max, Q, QuerySet, Window
from django.db.models.functions import Rank

from ratings.models import PlayerRating, RatingChange, RatingList, RatingListEntry, RatingRequest


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


def latest_published_months() -> dict[str, datetime.date]:
    """The month of each system's latest published list (the systems that have one), in one query."""
    rows = RatingList.objects.values("system").annotate(latest=Max("month")).order_by()
    return {row["system"]: row["latest"] for row in rows}


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


def player_history(*, player) -> list[RatingChange]:
    """The player's rating changes in every system (tournaments and mobile games), newest first on
    the rating timeline."""
    changes = list(
        RatingChange.objects.filter(player=player).select_related(
            "tournament", "mobile_game", "mobile_game__white", "mobile_game__black"
        )
    )
    changes.sort(key=lambda change: change.system)  # within an event, by system (stable below)
    changes.sort(key=change_key, reverse=True)
    return changes


def change_key(change: RatingChange):
    """The timeline key of a change's event (ratings/timeline/keys.py)."""
    from ratings.timeline.keys import mobile_key, tournament_key

    if change.tournament_id is not None:
        return tournament_key(change.tournament)
    return mobile_key(change.mobile_game.finished_at, change.mobile_game_id)


def mobile_label(game) -> str:
    from django.utils.translation import gettext as _

    return _("Mobile game %(white)s – %(black)s") % {"white": game.white.full_name, "black": game.black.full_name}


def mobile_url(game) -> str:
    return f"/play/games/{game.code}/"


def player_page(*, player) -> dict:
    """Everything the player page shows, in a fixed number of queries (whatever his history)."""
    from ratings.charts import rating_chart
    from ratings.models import System

    current = player_ratings(player=player)
    changes = player_history(player=player)
    imports = fide_imports(player=player)
    events = player_events(player=player, changes=changes, imports=imports)
    ratings = []
    for value, label in System.choices:
        rating = current.get(value)
        chart = rating_chart(events[value]) if value != System.GCR else None
        counts = provisional_counts(rating, value)
        ratings.append(
            {
                "system": value,
                "label": label,
                "rating": rating,
                "left": provisional_left(counts),
                "left_counts": counts,
                "chart": chart,
            }
        )
    return {
        "ratings": ratings,
        "tournaments": history_rows(changes=changes, imports=imports),
        "changes": changes,
        "fide_import": imports,
    }


def provisional_counts(rating, system: str) -> tuple[int, int] | None:
    """What a provisional rating still needs to be established: (games, tournaments), or None when
    the rating is established or its system has no such count (Mchess, GCR)."""
    from ratings.engines.orr import ESTABLISHED_GAMES, ESTABLISHED_TOURNAMENTS
    from ratings.engines.playchess import ESTABLISHED_GAMES as PLAYCHESS_GAMES
    from ratings.models import System

    if rating is None or not rating.provisional:
        return None
    if system == System.ORR:
        games = max(0, ESTABLISHED_GAMES - len(rating.state.get("stored", [])))
        return games, max(0, ESTABLISHED_TOURNAMENTS - rating.tournaments)
    if system == System.PLAYCHESS:
        return max(0, PLAYCHESS_GAMES - rating.games), 0
    return None


def provisional_left(counts: tuple[int, int] | None) -> str:
    """The counts of provisional_counts() in words ("4 more games and 1 more tournament until
    established"), or "" when nothing is left to say."""
    from django.utils.translation import gettext as _
    from django.utils.translation import ngettext

    if not counts:
        return ""
    games, tournaments = counts
    parts = []
    if games:
        parts.append(ngettext("%(n)s more game", "%(n)s more games", games) % {"n": games})
    if tournaments:
        parts.append(ngettext("%(n)s more tournament", "%(n)s more tournaments", tournaments) % {"n": tournaments})
    if not parts:
        return ""
    if len(parts) == 2:
        return _("%(games)s and %(tournaments)s until established") % {"games": parts[0], "tournaments": parts[1]}
    return _("%(left)s until established") % {"left": parts[0]}


def fide_imports(*, player) -> dict:
    """The player's approved FIDE-rating imports (the ratings they set, with the FIDE rating and list
    month of the application approved) and whether an application waits: two queries."""
    from django.utils import timezone

    from players.models import FideImportApplication
    from ratings.models import RatingOverride

    overrides = list(RatingOverride.objects.filter(player=player).order_by("effective", "id"))
    applications = list(
        FideImportApplication.objects.filter(
            player=player,
            status__in=[FideImportApplication.Status.APPROVED, FideImportApplication.Status.PENDING],
        )
        .only("status", "fide_rating", "rating_list_month", "decided_at")
        .order_by("decided_at", "id")
    )
    approved = [a for a in applications if a.status == FideImportApplication.Status.APPROVED]
    imports = []
    for override in overrides:
        # An override keeps no link to its application: the one approved on its date set it.
        application = next(
            (a for a in approved if a.decided_at and timezone.localdate(a.decided_at) == override.effective), None
        )
        fide = application.fide_rating if application else override.orr or override.playchess
        month = application.rating_list_month if application else None
        imports.append({"override": override, "fide_rating": fide, "list_month": month})
    return {
        "imports": imports,
        "approved": bool(approved or overrides),
        "pending": any(a.status == FideImportApplication.Status.PENDING for a in applications),
    }


def import_label(item: dict) -> str:
    from django.utils.translation import gettext as _

    if item["list_month"]:
        return _("FIDE rating imported: %(rating)s (list %(month)s)") % {
            "rating": item["fide_rating"],
            "month": f"{item['list_month']:%Y-%m}",
        }
    return _("FIDE rating imported: %(rating)s") % {"rating": item["fide_rating"]}


# Events in the order a re-rating applies them: the timeline's keys (ratings/timeline/keys.py).


def player_events(*, player, changes, imports) -> dict[str, list]:
    """Each system's history as chart events, oldest first: tournaments, FIDE imports, Mchess
    inactivity penalties (one query, the penalties)."""
    from django.urls import reverse
    from django.utils.translation import gettext as _

    from ratings.charts import IMPORT, PENALTY, TOURNAMENT, Event
    from ratings.models import InactivityPenalty, System
    from ratings.timeline.keys import local_date, override_key, penalty_key

    keyed: dict[str, list] = {system: [] for system in System.values}
    for change in changes:
        if change.tournament_id is not None:
            tournament = change.tournament
            url = reverse("tournaments:player_calculation", args=[tournament.pk, player.pk])
            event = Event(tournament.end_date, change.rating_after, tournament.name, TOURNAMENT, url)
        else:  # a mobile game: a point like a tournament's, linked to the game's page
            game = change.mobile_game
            day = local_date(game.finished_at)
            event = Event(day, change.rating_after, mobile_label(game), TOURNAMENT, mobile_url(game))
        keyed[change.system].append(((change_key(change), 0), event))
    for item in imports["imports"]:
        override = item["override"]
        for system in (System.ORR, System.MCHESS, System.PLAYCHESS):
            value = getattr(override, system)
            if value is not None:
                event = Event(override.effective, value, import_label(item), IMPORT)
                keyed[system].append(((override_key(override.effective), override.pk), event))
    for penalty in InactivityPenalty.objects.filter(player=player).order_by("month"):
        event = Event(penalty.month, penalty.rating_after, _("Inactivity penalty"), PENALTY)
        keyed[System.MCHESS].append(((penalty_key(penalty.month), penalty.pk), event))
    return {system: [event for _key, event in sorted(items, key=lambda i: i[0])] for system, items in keyed.items()}


def history_rows(*, changes, imports) -> list[dict]:
    """The tournaments table: one row a tournament with its change in each system, and a row for
    each approved FIDE import with the ratings it set; newest first."""
    from ratings.models import System
    from ratings.timeline.keys import local_date, override_key

    by_event: dict[tuple, dict] = {}
    for change in reversed(changes):  # oldest first
        if change.tournament_id is not None:
            row = by_event.setdefault(
                ("tournament", change.tournament_id),
                {"kind": "tournament", "tournament": change.tournament, **dict.fromkeys(System.values)},
            )
        else:
            game = change.mobile_game
            row = by_event.setdefault(
                ("mobile", change.mobile_game_id),
                {
                    "kind": "mobile",
                    "label": mobile_label(game),
                    "url": mobile_url(game),
                    "date": local_date(game.finished_at),
                    **dict.fromkeys(System.values),
                },
            )
        row[change.system] = change
        row.setdefault("games", change.games)
        row.setdefault("score", change.score)
        row.setdefault("key", (change_key(change), 0))
    rows = [(row.pop("key"), row) for row in by_event.values()]
    for item in imports["imports"]:
        override = item["override"]
        row = {
            "kind": "import",
            "date": override.effective,
            "label": import_label(item),
            "set": {system: getattr(override, system) for system in (System.ORR, System.MCHESS, System.PLAYCHESS)},
        }
        rows.append(((override_key(override.effective), override.pk), row))
    rows.sort(key=lambda pair: pair[0], reverse=True)
    return [row for _key, row in rows]


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
    event edit (tournaments, mobile games: each source's `stamps`), penalty month, decided rating,
    published list, GCR run and player edit.

    `toolkit.pagecache.version()` reads it at most every PAGE_CACHE_DB_SECONDS; writers also bump
    the cache's own counter, so a change shows at once.
    """
    from django.apps import apps
    from django.db import connection

    from players.models import Player
    from ratings.models import GcrRun, PenaltyMonth, RatingOverride
    from ratings.timeline.sources import registered

    # Each source names the columns whose latest value changes when its events do.
    latest = [(apps.get_model(label), column) for source in registered() for label, column in source.stamps]
    latest += [
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

    from toolkit import pagecache

    version = f"{pagecache.version()}|{datetime.date.today()}"  # noqa: DTZ011 - age groups turn with the year
    key = f"home-top-lists:{get_language()}:{size}:{hashlib.sha256(version.encode()).hexdigest()[:20]}"
    return cache.get_or_set(key, lambda: home_top_lists(size=size), timeout=600)


# --- Rating requests -------------------------------------------------------------------------------


def covering(tournament) -> Q:
    """Requests whose run reaches the tournament: its own, those of earlier tournaments, and those
    from a date on or before its end (or of the whole history)."""
    return (
        Q(tournament=tournament)
        | Q(tournament__end_date__lt=tournament.end_date)
        | Q(tournament__isnull=True, since__isnull=True)
        | Q(tournament__isnull=True, since__lte=tournament.end_date)
    )


def requests_waiting() -> bool:
    """Whether some request could not be sent to the queue (the broker is down): the run waits."""
    return RatingRequest.objects.filter(state=RatingRequest.State.PENDING, published_at__isnull=True).exists()


def tournament_run(*, tournament) -> RatingRequest | None:
    """The rating run the tournament's page reports: running, else waiting, else failed (one query)."""
    order = {RatingRequest.State.RUNNING: 0, RatingRequest.State.PENDING: 1, RatingRequest.State.FAILED: 2}
    rows = (
        # Another tournament's failure is shown on that tournament's page, where its retry is.
        RatingRequest.objects.filter(covering(tournament), state__in=list(order))
        .exclude(~Q(tournament=tournament), tournament__isnull=False, state=RatingRequest.State.FAILED)
        .select_related("tournament")
        .order_by("-created_at", "-id")[:20]
    )
    return min(rows, key=lambda r: order[r.state], default=None)


def runs_ahead() -> int:
    """How many rating runs go before a request that waits now: those running (each claimed every
    request waiting when it started; the next run claims all those waiting now, together)."""
    running = RatingRequest.objects.filter(state=RatingRequest.State.RUNNING)
    return running.values("run_token").distinct().count()


def rating_run_waiting() -> bool:
    """A rating request waits to be run (the page warming gives way to it)."""
    return RatingRequest.objects.filter(state=RatingRequest.State.PENDING).exists()
