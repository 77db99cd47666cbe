"""The rating-history chart's geometry: numbers SVG can read in any language, legible axes."""

import datetime
import itertools
import re

from django.utils import translation

from ratings.charts import IMPORT, TOURNAMENT, Event, rating_chart

D = datetime.date
NUMBER = re.compile(r"^-?\d+(\.\d+)?%?$")


def history():
    ratings = [1210, 1185, 1250, 1302, 1290, 1344, 1401, 1388]
    # Every three months from April 2024 to January 2026.
    events = [
        Event(D(2024 + (3 + 3 * n) // 12, (3 + 3 * n) % 12 + 1, 10), r, f"Cup {n}", TOURNAMENT)
        for n, r in enumerate(ratings)
    ]
    return [*events, Event(D(2026, 8, 1), 2150, "FIDE rating imported: 2150 (list 2026-07)", IMPORT)]


def test_it_writes_every_coordinate_as_svg_reads_it_whatever_the_language():
    with translation.override("ru"):
        chart = rating_chart(history())
    values = [v for p in chart.points for v in (p.x, p.y)]
    values += [v for segment in chart.segments for v in segment]
    values += [y for y, _ in chart.y_ticks] + [x for x, *_ in chart.x_ticks] + [chart.baseline]
    assert values and all(NUMBER.match(value) for value in values), values


def test_it_labels_several_dates_and_round_ratings():
    chart = rating_chart(history())
    labels = [label for _, label, _, _ in chart.x_ticks]
    assert 3 <= len(labels) <= 6
    assert labels == sorted(labels)
    ratings = [int(label) for _, label in chart.y_ticks]
    assert len(ratings) >= 3
    step = ratings[1] - ratings[0]
    assert step in (100, 200, 250) and all(r % step == 0 for r in ratings)
    assert all(b - a == step for a, b in itertools.pairwise(ratings))


def test_it_titles_each_point_with_its_date_event_and_rating():
    chart = rating_chart(history())
    assert chart.points[0].title == "2024-04-10 · Cup 0 · 1210"
    assert chart.points[-1].kind == IMPORT
    assert "FIDE rating imported: 2150 (list 2026-07)" in chart.points[-1].title
    # Distinct dates, distinct places: left to right in date order.
    xs = [float(p.x.rstrip("%")) for p in chart.points]
    assert xs == sorted(xs) and len(set(xs)) == len(xs)


def test_it_tables_the_history_newest_first_with_each_change():
    chart = rating_chart(history())
    assert [row.rating for row in chart.rows[:2]] == [2150, 1388]
    assert chart.rows[0].delta == 2150 - 1388
    assert chart.rows[-1].delta is None


def test_it_draws_a_single_event_in_the_middle_and_nothing_without_a_rating():
    chart = rating_chart([Event(D(2025, 5, 3), 1400, "Cup")])
    assert chart.points[0].x == "50.00%"
    assert [label for _, label, _, _ in chart.x_ticks] == ["2025-05-03"]
    assert rating_chart([Event(D(2025, 5, 3), None, "Cup")]) is None
