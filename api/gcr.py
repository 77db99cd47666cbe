"""/api/gcr/: GCR computed on request over the games that pass the filters, with the parameters of
the GCR filter page (ratings.gcrquery). GET only; a bad parameter is answered 400, named."""

from __future__ import annotations

from django.http import HttpResponse
from ninja import Field, Query, Router, Schema, Status
from ninja.decorators import decorate_view

from api import schemas
from api.limits import rate_limited
from ratings.gcrquery.forms import GcrFilterForm
from ratings.gcrquery.selectors import gcr_over_json

router = Router()


class GcrFilters(Schema):
    """The filters; read from the query by the page's own form (repeat `tournament` or `kind`)."""

    tournament: str | None = Field(None, description="Tournament ids, separated by commas or repeated")
    since: str | None = Field(None, description="Games since this date (YYYY-MM-DD; a tournament's end date)")
    until: str | None = Field(None, description="Games until this date (YYYY-MM-DD)")
    days: str | None = Field(None, description="Or games of the last N days")
    club: str | None = Field(None, description="A club's id: both players of the game in it")
    region: str | None = Field(None, description="A region's id: both players of the game in it")
    age_group: str | None = Field(None, description="u8, u10, u12, u14, u16, u18, adults: both players in it this year")
    born_from: str | None = Field(None, description="Both players born in this year or later")
    born_until: str | None = Field(None, description="Both players born in this year or earlier")
    kind: str | None = Field(None, description="board (default), mobile, computer; repeat for several")
    rated: str | None = Field(None, description="rated (default) or all")


class GcrRow(Schema):
    federation_id: int
    name: str
    rating: int = Field(description="GCR, truncated to whole points")
    games: int


class GcrAnswer(Schema):
    games: int = Field(description="Games that passed the filters")
    accuracy: float | None = Field(description="% : how well the ratings predict those games; null without games")
    results: list[GcrRow]


@router.get(
    "/",
    response={200: GcrAnswer, 400: schemas.Errors, 429: schemas.TooManyRequests},
    url_name="gcr",
    summary="GCR over a filter of games",
    description="Game Courier Ratings computed from the games that pass the filters (as /ratings/gcr/filter/), "
    "ordered by rating. No game passed: games 0, accuracy null, no results.",
)
@decorate_view(rate_limited)
def gcr(request, response: HttpResponse, filters: Query[GcrFilters]):
    response["Access-Control-Allow-Origin"] = "*"  # public data, read-only
    form = GcrFilterForm(request.GET)
    if not form.is_valid():
        return Status(400, {"errors": form.errors.get_json_data()})
    # The cached JSON text as it is: GcrAnswer documents it (validating 10,000 rows cost a second).
    answer = HttpResponse(gcr_over_json(form.query()), content_type="application/json")
    answer["Access-Control-Allow-Origin"] = "*"
    return answer
