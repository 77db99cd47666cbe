"""Rating lists as files: CSV, JSON and XLSX, from the same rows."""

from __future__ import annotations

import csv
import io
import json

from toolkit.cells import safe_cell, safe_row

COLUMNS = [
    "rank",
    "federation_id",
    "name",
    "birth_year",
    "sex",
    "fide_id",
    "club",
    "region",
    "rating",
    "provisional",
    "games",
    "last_played",
]


def to_csv(rows: list[dict], columns: list[str] = COLUMNS) -> bytes:
    buffer = io.StringIO()
    # CRLF as RFC 4180 has it; it also makes the writer quote a text with a lone CR or LF in it,
    # which would otherwise break the row in two.
    writer = csv.DictWriter(buffer, fieldnames=columns, lineterminator="\r\n")
    writer.writeheader()
    for row in rows:
        cells = {column: safe_cell(value) for column, value in row.items()}
        if "provisional" in row:
            cells["provisional"] = "1" if row["provisional"] else "0"
        writer.writerow(cells)
    # A BOM so that spreadsheet programs open the Cyrillic names as UTF-8.
    return ("\ufeff" + buffer.getvalue()).encode()


def to_json(rows: list[dict], columns: list[str] = COLUMNS) -> bytes:
    return json.dumps(rows, ensure_ascii=False, indent=1).encode()


def to_xlsx(rows: list[dict], columns: list[str] = COLUMNS, title: str = "Rating list") -> bytes:
    import openpyxl

    workbook = openpyxl.Workbook(write_only=True)
    sheet = workbook.create_sheet(title[:31])
    sheet.append(safe_row(columns))
    for row in rows:
        # safe_row: openpyxl writes any text starting with "=" as a formula.
        sheet.append(safe_row(row[column] for column in columns))
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


WRITERS = {"csv": to_csv, "json": to_json, "xlsx": to_xlsx}
