"""The shapes of the API's answers, for the OpenAPI schema and for ninja to check each answer.

The JSON is what the API gave before it was served with django-ninja (tests/api/test_golden.py
compares): so the types here are the values' own (an `int` stays an int, a `float` a float, a
`date` becomes "YYYY-MM-DD" exactly as Django's JSON encoder writes it), and a field a view leaves
out stays out (the endpoints answer with `exclude_unset`), e.g. the birth date a stranger may not see.
Where a rating engine writes numbers of its own (`details`, a game line's figures) the schema says so
and keeps them as they are.
"""

from __future__ import annotations

import datetime
from typing import Any

from ninja import Field, Schema


class Error(Schema):
    message: str
    code: str = Field(description="not_found, invalid, invalid_choice, …: Django's validation codes")


class Errors(Schema):
    """A client's mistake, by the parameter it concerns (system, month, page, or a filter's name)."""

    errors: dict[str, list[Error]]


class TooManyRequests(Schema):
    error: str
    retry_after: int = Field(description="Seconds to wait, as in the Retry-After header")


class ListRow(Schema):
    rank: int | None
    federation_id: int
    name: str
    birth_year: int | None
    sex: str | None = Field(description="M or F")
    fide_id: int | None
    club: str | None
    region: str | None
    rating: int | None
    provisional: bool
    games: int
    last_played: datetime.date | None = Field(description="None in a published monthly list")
    latin_name: str
    url: str = Field(description="The player's page")


class RatingList(Schema):
    system: str
    month: str | None = Field(description="YYYY-MM of a published list; None for the live list")
    count: int
    page: int
    pages: int
    results: list[ListRow]


class UntilEstablished(Schema):
    """What a provisional rating still needs to be established (0 where nothing of that kind is left).

    Until 2026-11 this answered the first two characters of the phrase the page shows, in the
    visitor's language ("1", "1" of "10 more games and 1 more tournament"); now the counts."""

    games: int = Field(description="More games to play before the rating is established")
    tournaments: int = Field(description="More tournaments to play (ORR only; 0 for PlayChess)")


class PlayerRating(Schema):
    rating: int | None
    provisional: bool
    games: int
    last_played: datetime.date | None
    until_established: UntilEstablished | None = Field(description="What a provisional rating still needs")


class Change(Schema):
    before: int | None
    after: int | None
    provisional_after: bool


class PlayerTournament(Schema):
    id: int
    name: str
    end_date: datetime.date
    changes: dict[str, Change] = Field(description="By system: orr, mchess, playchess")


class PlayerMobileGame(Schema):
    url: str
    name: str
    date: datetime.date | None
    changes: dict[str, Change] = Field(description="By system: mchess, playchess")


class Player(Schema):
    federation_id: int
    name: str
    latin_name: str
    birth_year: int | None
    birth_date: str | None = Field(
        None, description="Only for the staff and the player's own linked accounts; left out otherwise"
    )
    sex: str | None
    fide_id: int | None
    country: str | None
    club: str | None
    region: str | None
    merged_into: int | None = Field(description="The federation id this record was merged into")
    ratings: dict[str, PlayerRating] = Field(description="By system: orr, mchess, playchess, gcr")
    tournaments: list[PlayerTournament]
    mobile_games: list[PlayerMobileGame]


class GameLine(Schema):
    """One game of a rating calculation; the figures after `score` are the system's own."""

    round: int
    opponent: int | None = Field(description="The opponent's federation id")
    opponent_rating: int | None
    score: str
    # ORR
    pd: str | None = None
    dr: str | None = None
    earlier: bool | None = Field(None, description="ORR: a game of an earlier tournament still counted")
    # Mchess
    rating_before: int | None = None
    lrp: str | None = None
    delta: int | float | str | None = None


class Calculation(Schema):
    before: int | None
    after: int | None
    provisional_before: bool
    provisional_after: bool
    details: dict[str, Any] = Field(description="The rating engine's own figures (see /ratings/about/)")
    games: list[GameLine]


class ReportRow(Schema):
    place: int
    start_number: int
    federation_id: int
    name: str
    points: str = Field(description="A decimal number, as text: 6.5")
    rounds: list[str] = Field(description="Each round's cell as the crosstable shows it: 9b½")
    guest: bool
    orr: Calculation | None = None
    mchess: Calculation | None = None
    playchess: Calculation | None = None


class Tournament(Schema):
    id: int
    name: str
    city: str
    start_date: datetime.date
    end_date: datetime.date
    rounds: int
    time_control: str
    fide_rated: bool
    status: str
    kt: dict[str, int | float | bool | None] | None = Field(description="The tournament's ORR coefficient")
    players: list[ReportRow]


class ListFilters(Schema):
    """The list page's filters; a wrong value is answered 400 with the parameter's error."""

    name: str | None = Field(None, description="A name in Cyrillic or Latin letters (either finds the other)")
    age_group: str | None = Field(None, description="u8, u10, u12, u14, u16, u18, adults")
    birth_year: str | None = None
    sex: str | None = Field(None, description="M or F")
    club: str | None = Field(None, description="A club's id")
    region: str | None = Field(None, description="A region's id")
    active: str | None = Field(None, description="on: played in the last 12 months")
    provisional: str | None = Field(None, description="yes or no")
    month: str | None = Field(None, description="YYYY-MM: a published monthly list instead of the live one")
    page: str | None = Field(None, description="1, 2, …: 100 rows a page")
