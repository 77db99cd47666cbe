"""Swiss Perfect 98: its tab-separated crosstable export ("text dump").

    No<TAB>Name<TAB>Loc Id<TAB>Total<TAB> 1  <TAB> 2 ...
    1 <TAB>Power, Shane<TAB>1794<TAB>3<TAB>27:W<TAB>39:W<TAB>29:L ...

A round cell is "opponent:result": W D L for played games, + - for forfeits, and opponent 0 for
byes ("0:=" half point, "0:+" or "0:W" full point, "0:-" none); "  : " is a round not played.
The export keeps no colours: the lower start number is taken as white, and the preview says so.
Which columns stand there is the arbiter's choice in Swiss Perfect, so columns are found by their
headers; Swiss Perfect's own are Feder, Intl Id, Loc Id, Rtg (FIDE rating), Loc (local rating),
Title and Total. The export carries no birth dates, sex or club: the native files do.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from django.utils.translation import gettext_noop

from tournaments.importers.base import ParsedFile, ParsedPlayer, Place, at_round, refusal
from tournaments.importers.pairing import Cell, build_games, check_unique_start_numbers
from tournaments.importers.trf import LINE_BREAKS, decode

HEADER = re.compile(r"^\s*no\s*\tname\s*\t", re.I)
CELL = re.compile(r"^\s*(\d*)\s*:\s*(\S?)\s*$")
# Swiss Perfect's result letters (its default WinChar/DrawChar/LossChar) as TRF codes.
CODES = {"W": "1", "D": "=", "L": "0", "=": "=", "+": "+", "-": "-", "1": "1", "0": "0", "½": "="}
BYES = {"=": "H", "D": "H", "½": "H", "+": "F", "W": "F", "1": "F", "-": "Z", "L": "Z", "0": "Z", "": "Z"}
COLUMNS = {
    "start": r"no|no\.|#",
    "name": r"name",
    "points": r"total|pts|points|score",
    "local_id": r"loc id|local id",
    "fide_id": r"intl id|fide id",
    "rating": r"rating intl|intl rating|rtg intl|rating|rtg",
    "national_rating": r"rating local|local rating|rtg local|loc|loc rtg",
    "club": r"club",
    "country": r"fed|feder|federation",
    "title": r"title",
}
TITLES = {"GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM"}


def column_of(header: str) -> str | None:
    """Which player field a column header names (None for the others)."""
    return next((key for key, pattern in COLUMNS.items() if re.fullmatch(pattern, header.strip().lower())), None)


def looks_like_export(text: str) -> bool:
    first = next((line for line in LINE_BREAKS.split(text[:4000]) if line.strip()), "")
    return bool(HEADER.match(first)) and re.search(r"\t\s*1\s*\t", first) is not None


def parse(data: bytes, file_name: str) -> ParsedFile:
    text = decode(data)
    parsed = ParsedFile(file_name, "sp", view="Swiss Perfect export")
    lines = LINE_BREAKS.split(text)
    header_at = next((n for n, line in enumerate(lines) if line.strip()), 0)
    headers = [cell.strip().lower() for cell in lines[header_at].split("\t")]
    columns: dict[str, int] = {}
    rounds: dict[int, int] = {}
    for index, header in enumerate(headers):
        if header.isdigit():
            rounds[int(header)] = index
            continue
        key = column_of(header)
        if key is not None and key not in columns:
            columns[key] = index
    if "start" not in columns or "name" not in columns or not rounds:
        raise refusal(
            gettext_noop("the first line must name the columns No, Name and the rounds 1, 2, …"),
            Place(file_name, line=header_at + 1),
            "no_table",
        )
    cells: dict[tuple[int, int], Cell] = {}
    for number, line in enumerate(lines[header_at + 1 :], start=header_at + 2):
        if not line.strip():
            continue
        values = line.split("\t")
        place = Place(file_name, line=number)
        _player(parsed, values, columns, rounds, place, cells)
    if not parsed.players:
        raise refusal(gettext_noop("the table has a header but no player rows"), Place(file_name), "empty")
    parsed.rounds = max(rounds)
    check_unique_start_numbers(parsed)
    if not parsed.errors:
        build_games(parsed, cells)
    # No colours in the export: one note instead of a warning for every game.
    missing = [p for p in parsed.problems if p.code == "colour_missing"]
    if missing:
        parsed.problems = [p for p in parsed.problems if p.code != "colour_missing"]
        parsed.note(
            gettext_noop(
                "The Swiss Perfect export has no colours: in every game the lower start number is shown as white."
            )
        )
    return parsed


def _value(values: list[str], index: int | None) -> str:
    return values[index].strip() if index is not None and index < len(values) else ""


def _player(parsed: ParsedFile, values, columns, rounds, place: Place, cells) -> None:
    start_text = _value(values, columns["start"])
    if not start_text.isdigit():
        parsed.error(gettext_noop("the start number '%(text)s' is not a number"), place, "bad_number", text=start_text)
        return
    start = int(start_text)
    # Runs of spaces inside a name ("Keogh   N M") are one space.
    family, _, given = " ".join(_value(values, columns["name"]).split()).partition(",")
    points = None
    points_text = _value(values, columns.get("points")).replace("½", ".5").replace(",", ".")
    if points_text:
        try:
            points = Decimal(points_text)
        except InvalidOperation:
            parsed.error(gettext_noop("the points '%(text)s' are not a number"), place, "bad_number", text=points_text)

    def number(key):
        text = _value(values, columns.get(key))
        return int(text) if text.isdigit() and int(text) > 0 else None

    player = ParsedPlayer(
        start_number=start,
        family_name=family.strip(),
        given_names=given.strip(),
        fide_id=number("fide_id"),
        # Another federation's id (see swissperfect_native): kept, never matched as this site's.
        local_id=_value(values, columns.get("local_id")),
        rating=number("rating"),
        national_rating=number("national_rating"),
        club=_value(values, columns.get("club")),
        country=_value(values, columns.get("country")).upper()[:3],
        title=title if (title := _value(values, columns.get("title")).upper()) in TITLES else "",
        points=points,
        place=place,
    )
    if not player.family_name:
        parsed.error(gettext_noop("the name is empty"), place, "no_name")
    parsed.players.append(player)
    for rnd, index in sorted(rounds.items()):
        raw = values[index] if index < len(values) else ""
        cell_place = Place(place.file, line=place.line, detail=at_round(rnd))
        if not raw.strip() or raw.strip() == ":":
            continue  # not paired that round
        match = CELL.match(raw)
        if not match or (match.group(2) and match.group(2) not in CODES):
            parsed.error(gettext_noop("the round cell '%(text)s' cannot be read"), cell_place, "bad_cell", text=raw)
            continue
        opponent, letter = int(match.group(1) or 0), match.group(2)
        if opponent == 0:
            cells[(start, rnd)] = Cell(None, None, BYES[letter], cell_place)
        elif not letter:
            parsed.error(gettext_noop("the round cell '%(text)s' has no result"), cell_place, "bad_cell", text=raw)
        else:
            cells[(start, rnd)] = Cell(opponent, None, CODES[letter], cell_place)
