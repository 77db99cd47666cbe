"""Builders of result files for tests: TRF lines at their exact columns, xlsx workbooks."""

from __future__ import annotations

import io
from pathlib import Path

import openpyxl

from tournaments.importers.trf import format_player_line

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def example(name: str) -> bytes:
    """A real file of examples/ (this repository), exactly as it is."""
    return (EXAMPLES / name).read_bytes()


trf_player = format_player_line


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
