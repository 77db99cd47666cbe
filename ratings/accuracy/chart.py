"""The calibration chart as SVG drawn on the server: each system's mean actual score against its
mean expected score, bin by bin, beside the diagonal of a perfect prediction.

A square viewBox (the chart is a square by nature: both axes run from 0 to 1) that scales with the
width. Every number is made into text here with a dot: Django would localise a float in the
template, and SVG reads "0,5" as two numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

SIZE = 300  # viewBox units
PAD_LEFT, PAD_BOTTOM, PAD_TOP, PAD_RIGHT = 34, 30, 8, 8
# One colour and one marker shape per system, so the chart reads without colour too.
STYLE = {"orr": ("#1f6feb", "circle"), "mchess": ("#c2410c", "square"), "playchess": ("#15803d", "diamond"),
         "gcr": ("#7c3aed", "triangle")}  # fmt: skip


@dataclass
class Series:
    system: str
    label: str
    colour: str
    marker: str
    points: list[tuple[str, str, str]]  # x, y, title
    line: str  # the polyline's points


def _x(value: float) -> float:
    return PAD_LEFT + value * (SIZE - PAD_LEFT - PAD_RIGHT)


def _y(value: float) -> float:
    return SIZE - PAD_BOTTOM - value * (SIZE - PAD_BOTTOM - PAD_TOP)


def _text(number: float) -> str:
    return f"{number:.1f}"


def calibration_chart(systems: list[dict], labels: dict[str, str]) -> dict:
    """The chart's geometry from each system's calibration table ("all" games)."""
    series = []
    for entry in systems:
        colour, marker = STYLE[entry["system"]]
        points = []
        for row in entry["all"]["calibration"]:
            if not row["games"]:
                continue
            x, y = _x(row["mean_expected"]), _y(row["mean_actual"])
            title = f"{labels[entry['system']]}: {row['mean_expected']:.3f} → {row['mean_actual']:.3f} ({row['games']})"
            points.append((_text(x), _text(y), title))
        series.append(
            Series(
                entry["system"],
                labels[entry["system"]],
                colour,
                marker,
                points,
                " ".join(f"{x},{y}" for x, y, _ in points),
            )
        )
    ticks = [(f"{k / 5:.1f}", _text(_x(k / 5)), _text(_y(k / 5))) for k in range(6)]
    return {
        "size": SIZE,
        "series": series,
        "ticks": ticks,
        "left": _text(_x(0)),
        "right": _text(_x(1)),
        "top": _text(_y(1)),
        "bottom": _text(_y(0)),
        "label_x": _text((_x(0) + _x(1)) / 2),
        "label_y": _text(SIZE - 4),
    }
