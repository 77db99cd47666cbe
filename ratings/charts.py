"""Rating history charts drawn on the server as SVG: no JavaScript, no CDN, a table alternative.

Every number that goes into the SVG is made into text here, never by the template: Django
localises floats, and Russian writes "150,5", which SVG reads as two numbers (the lines then
collapse and the dots vanish).

The chart keeps its text and dots the same size on a phone and on a desktop: across, positions
are percentages of the chart's width (SVG allows them in x, cx, x1...), down, pixels of a fixed
height. A viewBox would scale everything with the width, and a chart small enough for a phone
would carry 5-pixel labels on a desktop card, or the reverse. Lines are drawn as segments
(a path takes no percentages) and markers other than dots are `<use>`d (which does).
"""

from __future__ import annotations

import datetime
import itertools
from dataclasses import dataclass, field

HEIGHT = 220
TOP, BOTTOM = 14, 34  # pixels above the highest rating and below the lowest (the dates go there)
LEFT, RIGHT = 3.0, 97.0  # per cent of the width the points stay within

TOURNAMENT = "tournament"
IMPORT = "import"  # an approved FIDE-rating import (a RatingOverride)
PENALTY = "penalty"  # an Mchess inactivity penalty


@dataclass(frozen=True)
class Event:
    """One point of a player's history in one system."""

    date: datetime.date
    rating: int | None
    label: str  # what happened, as the reader sees it: a tournament's name, "FIDE rating imported: 2150"
    kind: str = TOURNAMENT
    url: str = ""  # where the table links the event (a tournament's calculation)


@dataclass
class Point:
    x: str  # "37.5%"
    y: str  # "120.3"
    title: str
    kind: str


@dataclass
class Row:
    """A line of the table alternative."""

    date: datetime.date
    label: str
    kind: str
    rating: int
    delta: int | None
    url: str


@dataclass
class Chart:
    height: int
    points: list[Point]
    segments: list[tuple[str, str, str, str]]  # x1, y1, x2, y2
    y_ticks: list[tuple[str, str]]  # y, label
    x_ticks: list[tuple[str, str, str, bool]]  # x, label, text-anchor, minor (left out on a phone)
    baseline: str  # y of the dates' line
    minimum: int
    maximum: int
    description: str
    rows: list[Row] = field(default_factory=list)  # newest first

    @property
    def kinds(self) -> set[str]:
        return {point.kind for point in self.points}


def rating_chart(history: list[Event], height: int = HEIGHT) -> Chart | None:
    """history: the events in date order. None when there is no rating to draw."""
    history = [event for event in history if event.rating is not None]
    if not history:
        return None
    ratings = [event.rating for event in history]
    low, high = min(ratings), max(ratings)
    span = max(high - low, 40)
    low, high = low - span * 0.12, high + span * 0.12
    first, last = history[0].date.toordinal(), history[-1].date.toordinal()
    bottom = height - BOTTOM

    def x(day: datetime.date) -> float:
        if last == first:
            return 50.0
        return LEFT + (day.toordinal() - first) / (last - first) * (RIGHT - LEFT)

    def y(rating: float) -> float:
        return TOP + (high - rating) / (high - low) * (bottom - TOP)

    points = [Point(_percent(x(event.date)), _number(y(event.rating)), _title(event), event.kind) for event in history]
    segments = [(a.x, a.y, b.x, b.y) for a, b in itertools.pairwise(points)]
    step = _nice_step((high - low) / 5)
    start = int(low // step + 1) * step
    y_ticks = [(_number(y(value)), str(value)) for value in range(start, int(high) + 1, step)]
    x_ticks = []
    for day, label in _date_ticks(history[0].date, history[-1].date):
        # Centred under its date even at the edges: the plot keeps a margin and lets text overflow
        # into it, and a label pushed sideways runs into its neighbour on a phone.
        x_ticks.append((_percent(x(day)), label, "middle"))
    # A phone's chart is some 300 pixels wide: it has room for five months ("2025-11") or three
    # days ("2025-11-03"); beyond that it shows every other date.
    room = 3 if any(len(label) > 7 for _, label, _ in x_ticks) else 5
    crowded = len(x_ticks) > room
    x_ticks = [(px, label, anchor, crowded and i % 2 == 1) for i, (px, label, anchor) in enumerate(x_ticks)]
    description = ", ".join(f"{event.date:%Y-%m-%d} {event.rating}" for event in history[-12:])
    rows = []
    previous = None
    for event in history:
        rows.append(
            Row(
                event.date,
                event.label,
                event.kind,
                event.rating,
                None if previous is None else event.rating - previous,
                event.url,
            )
        )
        previous = event.rating
    rows.reverse()
    return Chart(
        height=height,
        points=points,
        segments=segments,
        y_ticks=y_ticks,
        x_ticks=x_ticks,
        baseline=_number(height - 10),
        minimum=min(ratings),
        maximum=max(ratings),
        description=description,
        rows=rows,
    )


def _title(event: Event) -> str:
    """The tooltip of a point: date, what happened, the rating after it."""
    return f"{event.date:%Y-%m-%d} · {event.label} · {event.rating}"


def _number(value: float) -> str:
    """SVG's number syntax whatever the language: a dot, no grouping."""
    return f"{value:.1f}"


def _percent(value: float) -> str:
    return f"{value:.2f}%"


MONTH_STEPS = (1, 2, 3, 6, 12, 24, 36, 60, 120)
MAX_DATE_TICKS = 6


def _date_ticks(first: datetime.date, last: datetime.date) -> list[tuple[datetime.date, str]]:
    """Dates to label along the bottom: whole months or years, at most six, or the days of a short history."""
    if (last - first).days < 62:
        days = sorted({first, last})
        return [(day, day.isoformat()) for day in days]
    for step in MONTH_STEPS:
        ticks = []
        index = first.year * 12 + first.month - 1
        if first.day != 1:
            index += 1  # the first whole month inside the history
        stop = last.year * 12 + last.month - 1
        while index <= stop:
            if index % step == 0:
                day = datetime.date(index // 12, index % 12 + 1, 1)
                ticks.append((day, str(day.year) if step >= 12 else f"{day:%Y-%m}"))
            index += 1
        if len(ticks) <= MAX_DATE_TICKS:
            return ticks or [(first, f"{first:%Y-%m}")]
    return [(first, str(first.year)), (last, str(last.year))]


def _nice_step(raw: float) -> int:
    for step in (10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000):
        if raw <= step:
            return step
    return 10000
