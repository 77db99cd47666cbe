"""Reading an opening list (CSV or xlsx) into entries, with errors by row and column. Pure: no
Django, so it is tested without the database. Messages are English templates the callers translate."""

from __future__ import annotations

import csv
import datetime
import io
from dataclasses import dataclass, field

from ratings.opening.columns import FIELDS, SYSTEMS, field_of, stored_parse


def gettext_noop(message: str) -> str:
    """Marks a message for the catalogue (the callers translate it); no Django here."""
    return message


TRUE = {"1", "yes", "y", "true", "*", "да", "д"}
FALSE = {"0", "no", "n", "false", "", "нет", "н"}
SEXES = {"m": "M", "f": "F", "м": "M", "ж": "F", "": ""}


@dataclass
class Problem:
    row: int  # 1 = the heading row
    column: str
    message: str
    value: str = ""
    params: dict = field(default_factory=dict)

    def __str__(self) -> str:
        text = self.message % self.params if self.params else self.message
        return f"row {self.row}, column {self.column}: {text}" + (f" ({self.value!r})" if self.value else "")


@dataclass
class Entry:
    row: int
    federation_id: int | None
    family_name: str
    given_names: str
    birth_date: datetime.date | None
    birth_precision: str  # day, year, unknown
    sex: str
    club: str
    region: str
    fide_id: int | None
    fide_rating: int | None
    states: dict[str, dict | None] = field(default_factory=dict)  # system -> Standing snapshot or None


@dataclass
class Sheet:
    entries: list[Entry] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)  # headings that need a mapping
    mapping: dict[str, str] = field(default_factory=dict)  # heading -> field


def rows_of(name: str, data: bytes) -> list[list[str]]:
    """The file's rows as text cells: xlsx by openpyxl, anything else as CSV (UTF-8, BOM or not,
    comma or semicolon)."""
    if name.lower().endswith(".xlsx"):
        import openpyxl

        book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
        sheet = book.worksheets[0]
        rows = [["" if cell is None else _cell(cell) for cell in row] for row in sheet.iter_rows(values_only=True)]
        book.close()
        return rows
    text = data.decode("utf-8-sig")
    dialect = csv.excel
    first = text.split("\n", 1)[0]
    if first.count(";") > first.count(","):
        return list(csv.reader(io.StringIO(text), delimiter=";"))
    return list(csv.reader(io.StringIO(text), dialect))


def _cell(value) -> str:
    if isinstance(value, datetime.datetime):
        return value.date().isoformat()
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def read(rows: list[list[str]], mapping: dict[str, str] | None = None) -> Sheet:
    """Entries of the rows; a heading neither known nor mapped stops the reading (the caller asks
    for a mapping), as does a field given twice."""
    sheet = Sheet()
    mapping = dict(mapping or {})
    if not rows:
        sheet.problems.append(Problem(1, "-", gettext_noop("the file is empty")))
        return sheet
    headings = [str(h).strip() for h in rows[0]]
    columns: dict[str, int] = {}
    for index, heading in enumerate(headings):
        if not heading:
            continue
        target = mapping.get(heading) or field_of(heading)
        if target == "ignore":
            continue
        if target not in FIELDS:
            sheet.unknown.append(heading)
            continue
        if target in columns:
            sheet.problems.append(Problem(1, heading, gettext_noop("a second column for the same field"), target))
            continue
        columns[target] = index
        sheet.mapping[heading] = target
    if "family_name" not in columns:
        sheet.problems.append(Problem(1, "family_name", gettext_noop("no column of family names")))
    if sheet.unknown or sheet.problems:
        return sheet
    for number, row in enumerate(rows[1:], start=2):
        if not any(str(cell).strip() for cell in row):
            continue
        values = {name: (str(row[i]).strip() if i < len(row) else "") for name, i in columns.items()}
        entry = _entry(number, values, headings, columns, sheet.problems)
        if entry is not None:
            sheet.entries.append(entry)
    _duplicates(sheet, headings, columns)
    return sheet


def _entry(number, values, headings, columns, problems) -> Entry | None:
    before = len(problems)

    def fail(name, message, **params):
        problems.append(Problem(number, headings[columns[name]], message, values.get(name, ""), params))

    def integer(name):
        text = values.get(name, "")
        if not text:
            return None
        if not text.isdigit():
            fail(name, gettext_noop("not a whole number"))
            return None
        return int(text)

    family = values.get("family_name", "")
    if not family:
        fail("family_name", gettext_noop("the family name is missing"))
    birth_date, precision = _birth(values.get("birth", ""))
    if precision is None:
        fail("birth", gettext_noop("not a date (YYYY-MM-DD, DD.MM.YYYY) or a year (YYYY)"))
        precision = "unknown"
    sex = SEXES.get(values.get("sex", "").lower())
    if sex is None:
        fail("sex", gettext_noop("not M or F"))
    entry = Entry(
        row=number,
        federation_id=integer("federation_id"),
        family_name=family,
        given_names=values.get("given_names", ""),
        birth_date=birth_date,
        birth_precision=precision,
        sex=sex or "",
        club=values.get("club", ""),
        region=values.get("region", ""),
        fide_id=integer("fide_id"),
        fide_rating=integer("fide_rating"),
    )
    for system in SYSTEMS:
        entry.states[system] = _state(system, values, integer, fail)
    return entry if len(problems) == before else None


def _state(system, values, integer, fail) -> dict | None:
    """A system's standing, or None when the player has none there (every column empty)."""
    names = [f"{system}_{n}" for n in ("rating", "provisional", "games", "tournaments", "last_played", "stored")]
    if not any(values.get(name, "") for name in names):
        return None
    rating, _, games, tournaments, last, stored = names
    provisional_text = values.get(f"{system}_provisional", "").lower()
    if provisional_text not in TRUE | FALSE:
        fail(f"{system}_provisional", gettext_noop("not 1 or 0 (yes or no)"))
    last_played = None
    if values.get(last, ""):
        try:
            last_played = datetime.date.fromisoformat(values[last])
        except ValueError:
            fail(last, gettext_noop("not a date (YYYY-MM-DD)"))
    try:
        games_stored = stored_parse(values.get(stored, ""))
    except ValueError as exc:
        fail(stored, gettext_noop("not stored games (rating:half points;...), at %(at)s"), at=str(exc))
        games_stored = ()
    value = integer(rating)
    if value is not None and value > 20000:
        fail(rating, gettext_noop("above 20000"))
    return {
        "rating": value,
        "provisional": provisional_text in TRUE and provisional_text != "",
        "games": integer(games) or 0,
        "tournaments": integer(tournaments) or 0,
        "last_played": last_played.isoformat() if last_played else None,
        "stored": [list(g) for g in games_stored],
    }


def _birth(text: str) -> tuple[datetime.date | None, str | None]:
    """A birth date or year; a year alone is kept as 1 July of it (ORR's convention)."""
    if not text:
        return None, "unknown"
    if text.isdigit() and len(text) == 4:
        return datetime.date(int(text), 7, 1), "year"
    for form in ("%Y-%m-%d", "%d.%m.%Y"):
        try:
            return datetime.datetime.strptime(text, form).date(), "day"  # noqa: DTZ007 - a calendar date
        except ValueError:
            continue
    return None, None


def _duplicates(sheet: Sheet, headings, columns) -> None:
    for name in ("federation_id", "fide_id"):
        seen: dict[int, int] = {}
        for entry in sheet.entries:
            value = getattr(entry, name)
            if value is None:
                continue
            if value in seen:
                sheet.problems.append(
                    Problem(
                        entry.row,
                        headings[columns[name]],
                        gettext_noop("the same as row %(row)s"),
                        str(value),
                        {"row": seen[value]},
                    )
                )
            seen.setdefault(value, entry.row)
