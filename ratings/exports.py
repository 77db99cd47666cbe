"""Rating lists as files: CSV, JSON and XLSX, from the same rows."""

from __future__ import annotations

import csv
import io
import json

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


def to_csv(rows: list[dict]) -> bytes:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({**row, "provisional": "1" if row["provisional"] else "0"})
    # A BOM so that spreadsheet programs open the Cyrillic names as UTF-8.
    return ("\ufeff" + buffer.getvalue()).encode()


def to_json(rows: list[dict]) -> bytes:
    return json.dumps(rows, ensure_ascii=False, indent=1).encode()


def to_xlsx(rows: list[dict], title: str = "Rating list") -> bytes:
    import openpyxl

    workbook = openpyxl.Workbook(write_only=True)
    sheet = workbook.create_sheet(title[:31])
    sheet.append(COLUMNS)
    for row in rows:
        sheet.append([row[column] for column in COLUMNS])
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


WRITERS = {"csv": to_csv, "json": to_json, "xlsx": to_xlsx}
