"""The read-only JSON API: rating lists (with the pages' filters), players, tournament reports.

Served with django-ninja: each endpoint names its answers' schemas (api/schemas.py), from which
ninja writes the OpenAPI 3 schema (/api/openapi.json) and the interactive documentation
(/api/docs, Swagger UI from ninja's own static files, no CDN). What each endpoint answers is what
the API answered before ninja (tests/api/test_golden.py): the same JSON, statuses and headers, the
rate limit and the page cache around each endpoint in the same order, Django's own 404 page for an
unknown player or tournament.
"""

from __future__ import annotations

from decimal import Decimal

from django.core.paginator import InvalidPage
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET
from ninja import NinjaAPI, Query, Status
from ninja.decorators import decorate_view
from ninja.errors import set_default_exc_handlers

from api import accuracy, gcr, schemas
from api.limits import describe_rate, rate_limited
from players.models import Player
from players.selectors import may_see_birth_date, player_by_federation_id
from ratings import selectors as rating_selectors
from ratings.models import System
from ratings.views import CountedPaginator, list_queryset
from toolkit.pagecache import cache_public_page
from tournaments import selectors as tournament_selectors

PAGE_SIZE = 100


class FederationAPI(NinjaAPI):
    """NinjaAPI as the site's API has always answered: "application/json" without a charset (as
    Django's JsonResponse says it), Django's own 404 page for an unknown id and Django's own error
    handling (ninja's JSON 404 and its DEBUG traceback handler are not installed)."""

    def get_content_type(self) -> str:
        return "application/json"

    def set_default_exception_handlers(self) -> None:
        set_default_exc_handlers(self)
        self._exception_handlers.pop(Http404, None)
        self._exception_handlers.pop(Exception, None)

    def get_root_path(self, path_params) -> str:
        return reverse("api:index")  # the OpenAPI paths start here: /api/


api = FederationAPI(
    title="Chess Federation Ratings API",
    version="1",
    description="Read-only, without a key: rating lists with the list pages' filters, players, tournament "
    "reports. Dates are YYYY-MM-DD. Every JSON answer tells the rate limit in X-RateLimit-Limit, "
    "X-RateLimit-Remaining and X-RateLimit-Reset; past it the answer is 429 with Retry-After. See /api/.",
    urls_namespace="api",
    openapi_url="/openapi.json",
    docs_url="/docs",
)
api.add_router("/gcr/", gcr.router)  # GCR over a filter of games (api/gcr.py)
api.add_router("/systems/", accuracy.router)


def public_json(view):
    """The rate limit outside the page cache (an answer from the cache counts too); one cache entry
    for every language (numbers and names, no translated text; a translated error is never stored)."""
    return rate_limited(cache_public_page(per_language=False)(view))


def _cors(response: HttpResponse) -> None:
    response["Access-Control-Allow-Origin"] = "*"  # public data, read-only


def _number(value):
    return str(value) if isinstance(value, Decimal) else value


@require_GET
@cache_public_page
def index(request):
    return render(request, "api.html", {"rate": describe_rate()})


def _list_not_found(request, system: str):
    """An unknown system, or a well-formed month without a published list: said in JSON."""
    if system not in System.values:
        field, message = "system", _("There is no rating system %(system)s.") % {"system": system[:20]}
    else:
        values = {"system": System(system).label, "month": request.GET.get("month", "")[:7]}
        field, message = "month", _("No %(system)s list was published for %(month)s.") % values
    return Status(404, {"errors": {field: [{"message": message, "code": "not_found"}]}})


@api.get(
    "/lists/{slug:system}/",
    response={200: schemas.RatingList, 400: schemas.Errors, 404: schemas.Errors, 429: schemas.TooManyRequests},
    url_name="list",
    exclude_unset=True,
    summary="A rating list",
    description="The live list of a system (orr, mchess, playchess, gcr) or a published month, filtered "
    "like the list page; 100 rows a page, by rating.",
)
@decorate_view(public_json)
def rating_list(request, response: HttpResponse, system: str, filters: Query[schemas.ListFilters]):
    # The filters are read from the query by the list page's own filter set; `filters` documents them.
    _cors(response)
    try:
        filterset, queryset, rating_list_ = list_queryset(request, system)
    except Http404:
        return _list_not_found(request, system)
    if filterset.is_bound and not filterset.is_valid():
        return Status(400, {"errors": filterset.errors.get_json_data()})
    ranked, total = rating_selectors.list_rows(queryset)
    paginator = CountedPaginator(ranked, PAGE_SIZE, total=total)
    try:
        # Not get_page(): a program asking for page 0 or 10**30 should hear so, not get page 1.
        page = paginator.page(request.GET.get("page") or 1)
    except InvalidPage:
        message = _("There is no page %(page)s: pages go from 1 to %(pages)s.") % {
            "page": request.GET.get("page")[:20],
            "pages": paginator.num_pages,
        }
        return Status(400, {"errors": {"page": [{"message": message, "code": "invalid"}]}})
    results = []
    for row in page.object_list:
        results.append(
            {
                **rating_selectors.list_row(row),
                "latin_name": row.player.latin_name,
                "url": request.build_absolute_uri(row.player.get_absolute_url()),
            }
        )
    return {
        "system": system,
        "month": rating_list_.month.strftime("%Y-%m") if rating_list_ else None,
        "count": page.paginator.count,
        "page": page.number,
        "pages": page.paginator.num_pages,
        "results": results,
    }


@api.get(
    "/players/{int:federation_id}/",
    response={200: schemas.Player, 429: schemas.TooManyRequests},
    url_name="player",
    exclude_unset=True,
    summary="A player",
    description="A player's ratings and rated tournaments and games. An unknown id is answered 404 (HTML).",
)
@decorate_view(public_json)
def player(request, response: HttpResponse, federation_id: int):
    player = player_by_federation_id(federation_id)
    data = rating_selectors.player_page(player=player)
    _cors(response)
    return {
        "federation_id": player.federation_id,
        "name": player.full_name,
        "latin_name": player.latin_name,
        # The year for everyone (most players are children); the day for the staff and linked accounts.
        "birth_year": player.birth_year,
        **({"birth_date": player.birth_display or None} if may_see_birth_date(request.user, player) else {}),
        "sex": player.sex or None,
        "fide_id": player.fide_id,
        "country": player.country or None,
        "club": player.club.name if player.club_id else None,
        "region": player.region.name if player.region_id else None,
        "merged_into": player.merged_into.federation_id if player.merged_into_id else None,
        "ratings": {
            item["system"]: {
                "rating": item["rating"].rating,
                "provisional": item["rating"].provisional,
                "games": item["rating"].games,
                "last_played": item["rating"].last_played,
                # Counts, the same in every language (the page shows them in words).
                "until_established": {"games": item["left_counts"][0], "tournaments": item["left_counts"][1]}
                if item["left_counts"]
                else None,
            }
            for item in data["ratings"]
            if item["rating"] is not None
        },
        "tournaments": [
            {
                "id": row["tournament"].pk,
                "name": row["tournament"].name,
                "end_date": row["tournament"].end_date,
                "changes": {
                    system: {
                        "before": row[system].rating_before,
                        "after": row[system].rating_after,
                        "provisional_after": row[system].provisional_after,
                    }
                    for system in ("orr", "mchess", "playchess")
                    if row[system] is not None
                },
            }
            for row in data["tournaments"]
            if row["kind"] == "tournament"
        ],
        "mobile_games": [
            {
                "url": row["url"],
                "name": row["label"],
                "date": row["date"],
                "changes": {
                    system: {
                        "before": row[system].rating_before,
                        "after": row[system].rating_after,
                        "provisional_after": row[system].provisional_after,
                    }
                    for system in ("mchess", "playchess")
                    if row[system] is not None
                },
            }
            for row in data["tournaments"]
            if row["kind"] == "mobile"
        ],
    }


def _federation_ids(rows, game_lines) -> dict:
    """Player id -> federation id for every opponent in the report's game lines: the participants,
    and in one more query the opponents of earlier games a provisional ORR rating still counts."""
    known = {row["player"].pk: row["player"].federation_id for row in rows}
    others = {line[1] for lines in game_lines for line in lines if line[1] is not None and line[1] not in known}
    if others:
        known.update(Player.objects.filter(pk__in=others).values_list("pk", "federation_id"))
    return known


@api.get(
    "/tournaments/{int:pk}/",
    response={200: schemas.Tournament, 429: schemas.TooManyRequests},
    url_name="tournament",
    exclude_unset=True,
    summary="A tournament report",
    description="A rated tournament's crosstable with each player's rating calculations. An unknown or "
    "unpublished tournament is answered 404 (HTML).",
)
@decorate_view(public_json)
def tournament(request, response: HttpResponse, pk: int):
    tournament = tournament_selectors.public_tournament(pk)
    report = tournament_selectors.tournament_report(tournament=tournament)
    game_lines = {
        change.pk: tournament_selectors.stored_game_lines(change) or []
        for row in report["rows"]
        for change in (row["orr"], row["mchess"], row["playchess"])
        if change is not None
    }
    federation_ids = _federation_ids(report["rows"], game_lines.values())
    rows = []
    for row in report["rows"]:
        entry = {
            "place": row["place"],
            "start_number": row["participant"].start_number,
            "federation_id": row["player"].federation_id,
            "name": row["player"].full_name,
            "points": _number(row["points"]),
            "rounds": row["cells"],
            "guest": row["participant"].is_guest,
        }
        for system in ("orr", "mchess", "playchess"):
            change = row[system]
            if change is not None:
                details = {k: v for k, v in change.details.items() if k not in ("state", "games")}
                entry[system] = {
                    "before": change.rating_before,
                    "after": change.rating_after,
                    "provisional_before": change.provisional_before,
                    "provisional_after": change.provisional_after,
                    "details": details,
                    "games": [
                        {key: value for key, value in line.items() if key != "result"}
                        for line in tournament_selectors.calculation_lines(
                            system, game_lines[change.pk], federation_ids.get
                        )
                    ],
                }
        rows.append(entry)
    coefficient = report["coefficient"] or {}
    _cors(response)
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "city": tournament.city,
        "start_date": tournament.start_date,
        "end_date": tournament.end_date,
        "rounds": tournament.rounds,
        "time_control": tournament.time_control,
        "fide_rated": tournament.fide_rated,
        "status": tournament.status,
        "kt": {k: coefficient.get(k) for k in ("Kt", "Kt_mean_Ki", "Np", "n", "i", "Kt_lowered")} or None,
        "players": rows,
    }
