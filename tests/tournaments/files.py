"""Builders of result files for tests: TRF lines at their exact columns, xlsx workbooks."""

from __future__ import annotations

import io
from pathlib import Path

import openpyxl

EXAMPLES = Path(__file__).resolve().parents[3] / "shared" / "examples"


def example(name: str) -> bytes:
    """A real file of ../shared/examples, exactly as it is."""
    return (EXAMPLES / name).read_bytes()


def trf_player(
    start: int,
    name: str,
    rating: int | str = "",
    fed: str = "",
    fide_id: int | str = "",
    birth: str = "",
    points: str = "",
    rank: int | str = "",
    rounds=(),
    sex: str = " ",
    title: str = "",
) -> str:
    line = f"001 {start:>4} {sex:1}{title:>3} {name:<33} {rating!s:>4} {fed:>3} {fide_id!s:>11} {birth:>10} "
    line += f"{points:>4} {rank!s:>4}  "
    for opponent, colour, result in rounds:
        line += f"{opponent!s:>4} {colour:1} {result:1}  "  # 10 columns a round, from column 92
    return line.rstrip()


def trf(lines: list[str], newline: str = "\n", header: list[str] | None = None) -> bytes:
    header = header if header is not None else ["012 Test Cup", "022 Kazan", "042 2026/03/01", "052 2026/03/03"]
    return newline.join([*header, *lines, ""]).encode()


def xlsx(rows: list[list], sheet: str = "Sheet1") -> bytes:
    workbook = openpyxl.Workbook()
    worksheet = workbook.active
    worksheet.title = sheet
    for row in rows:
        worksheet.append(row)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()
