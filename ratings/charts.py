"""Rating history charts drawn on the server as SVG: no JavaScript, no CDN, a text alternative."""

from __future__ import annotations

import datetime
from dataclasses import dataclass


@dataclass
class Chart:
    width: int
    height: int
    path: str
    points: list[tuple[float, float, str]]  # x, y, label
    y_ticks: list[tuple[float, int]]
    x_ticks: list[tuple[float, str]]
    minimum: int
    maximum: int
    description: str


def rating_chart(history: list[tuple[datetime.date, int, str]], width: int = 640, height: int = 220) -> Chart | None:
    """history: (date, rating, label) in order. None when there is nothing to draw."""
    history = [item for item in history if item[1] is not None]
    if not history:
        return None
    left, right, top, bottom = 48, 12, 12, 28
    ratings = [rating for _, rating, _ in history]
    low, high = min(ratings), max(ratings)
    span = max(high - low, 50)
    low, high = low - span * 0.1, high + span * 0.1
    first = history[0][0].toordinal()
    last = history[-1][0].toordinal()
    days = max(last - first, 1)

    def x(day: datetime.date) -> float:
        if last == first:
            return left + (width - left - right) / 2
        return round(left + (day.toordinal() - first) / days * (width - left - right), 1)

    def y(rating: float) -> float:
        return round(top + (high - rating) / (high - low) * (height - top - bottom), 1)

    points = [(x(day), y(rating), f"{label}: {rating}") for day, rating, label in history]
    path = "M" + " L".join(f"{px},{py}" for px, py, _ in points)
    step = _nice_step((high - low) / 4)
    start = int(low // step + 1) * step
    y_ticks = [(y(value), value) for value in range(start, int(high) + 1, step)]
    years = sorted({day.year for day, _, _ in history})
    x_ticks = [
        (x(datetime.date(year, 1, 1)), str(year)) for year in years if datetime.date(year, 1, 1) >= history[0][0]
    ]
    if not x_ticks:
        x_ticks = [(x(history[0][0]), history[0][0].strftime("%Y-%m"))]
    description = ", ".join(f"{day:%Y-%m-%d} {rating}" for day, rating, _ in history[-12:])
    return Chart(width, height, path, points, y_ticks, x_ticks, min(ratings), max(ratings), description)


def _nice_step(raw: float) -> int:
    for step in (10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000):
        if raw <= step:
            return step
    return 10000
