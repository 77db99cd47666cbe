"""/api/systems/accuracy/: which rating system predicts best, the figures of /ratings/accuracy/.

A ninja Router that api/endpoints.py adds to the API: GET only, rate limited and kept in the page
cache like every endpoint (one entry for every language: numbers only).
"""

from __future__ import annotations

import datetime

from django.http import HttpResponse
from ninja import Field, Router, Schema
from ninja.decorators import decorate_view

from api.limits import rate_limited
from api.schemas import TooManyRequests
from ratings.accuracy import selectors
from toolkit.pagecache import cache_public_page

router = Router()


def public_json(view):
    """As api.endpoints.public_json: the rate limit outside the page cache (imported from there, it
    would be a circle: endpoints adds this router)."""
    return rate_limited(cache_public_page(per_language=False)(view))


class Bin(Schema):
    low: float
    high: float
    games: int
    mean_expected: float | None
    mean_actual: float | None


class Figures(Schema):
    games: int = Field(description="Player-games: each game counts once for each of its players")
    brier: float | None
    log_loss: float | None = Field(description="Natural logarithm, E and 1 - E at least 1e-15")
    mae: float | None
    calibration: list[Bin] = Field(description="Expected scores in bins of 0.1; the last bin includes 1")


class SystemAccuracy(Schema):
    system: str = Field(description="orr, mchess, playchess, gcr")
    all: Figures
    newcomers: Figures = Field(description="Without a rating or provisional before the game (GCR: before 10 games)")
    established: Figures
    age_groups: dict[str, Figures] = Field(description="u8 … u18, adults, unknown: at the game's date")
    years: dict[int, Figures]


class Accuracy(Schema):
    computed_at: datetime.datetime
    systems: list[SystemAccuracy]


@router.get(
    "/accuracy/",
    response={200: Accuracy, 429: TooManyRequests},
    url_name="accuracy",
    summary="Which system predicts best",
    description="For every rated game, each system's expected score against the result: Brier score, log "
    "loss, mean absolute error and a calibration table, for all games, newcomers and established players, "
    "by age group and by year. Recomputed after every rating run.",
)
@decorate_view(public_json)
def accuracy(request, response: HttpResponse):
    response["Access-Control-Allow-Origin"] = "*"  # public data, read-only
    return selectors.report()
