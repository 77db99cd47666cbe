"""chess-results / Swiss-Manager exports (.xlsx and .xls): crosstables and starting-rank lists.

A sheet has, from the top: an optional header block (site name, tournament name,
"Label : value" details, "Last update ...", the title of the view), the table with
its header row, and an optional annotation block. Columns are found by patterns
of their headers in English, German, Portuguese and Russian, never by position.

In a *ranking* crosstable the number in a round cell is the opponent's row position
in the table (even where a tied rank is left blank); in a *starting-rank* crosstable
it is his start number. Cells: ' 17b1', '5w½', '32b+', '7w-', '17s0' (German
schwarz), byes '-1', '-½', '-0' (also as the numbers -1 and 0), and '17w' for a
pairing without a result yet. A round-robin crosstable has a column per opponent instead
(headed 1..n, '*' on the diagonal): it is rewritten into rounds by the Berger tables.

Views without games: ranking lists and alphabetical or starting-rank lists are read as lists of
players (a ranking with a warning naming the export to save); a round's pairings and a team
composition are refused, naming the export to save instead.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from django.utils.translation import gettext_noop

from players.names import strip_invisible
from tournaments.importers import crheader, roundrobin
from tournaments.importers.base import (
    ERROR,
    PLAYER_LIST,
    ParsedFile,
    ParsedPlayer,
    Place,
    Problem,
    at_round,
    refusal,
)
from tournaments.importers.crheader import cell_text as _text
from tournaments.importers.dates import parse_date
from tournaments.importers.naming import split_name, warn_guessed
from tournaments.importers.pairing import UNFINISHED, Cell, build_games, check_unique_start_numbers
from tournaments.importers.spreadsheets import MAX_COLUMNS, TOO_LARGE, Grid, column_letter

COLUMNS = (
    ("rank", r"rk|rank|rg|rang|platz|pl|place|место|мес|pos|cl|clas|colocação|col"),
    (
        "start",
        r"no|nr|snr|sno|start ?no|start-?nr|ст ?ном|ст ?№|стартовый номер|№|n°|nº|num|número|ном"
        # Portuguese and Spanish chess-results: "Nº.Inic.", "N.Inic." (número inicial)
        r"|n[º°o]? ?inic|nr ?inic",
    ),
    ("family", r"фамилия|surname|family name|last name|nachname|apellido|apellidos|sobrenome|nom de famille"),
    ("patronymic", r"отчество|patronymic"),
    ("name", r"name|nome|nombre|имя|фамилия,? имя|фамилия и имя|игрок|spieler|player|participant|участник"),
    ("title", r"title|titel|титул|título|tit"),
    ("fide_id", r"fide-?id|fide ?no|fide-?nr|id ?fide|фиде ?id|id ?фиде|фиде ?№"),
    ("national_id", r"id|nat-?id|idn|ид|national id|id ?nat"),
    ("rating", r"rtg|elo|rating|рейт|рейтинг|rtgi|ирт|rtg int|elo fide|fide-?elo|фиде|eloi|elo int|рейт ?м|рейтм"),
    ("national_rating", r"rtgn|nrtg|нрт|dwz|нац ?рейт|рейт ?нац|national rating|elon|elo nac|рейт ?н|рейтн"),
    ("federation", r"fed|федерация|фед|land|country|país|pais|страна"),
    ("club", r"club|клуб|клуб/город|club/city|verein|verein/ort|clube|clube/cidade|город|ort|cidade|club/ciudad"),
    ("birth", r"b-?day|born|birth|г ?р|год|год рождения|дата рождения|geb|jg|jahrg|jahrgang|nasc|ano|year"),
    ("sex", r"sex|пол|sexo|geschl|geschlecht"),
    ("points", r"pts|pkt|punkte|очки|pontos|points|pt|pnts|punti"),
)
COLUMN_PATTERNS = [(key, re.compile(rf"^(?:{pattern})$")) for key, pattern in COLUMNS]
ROUND_PATTERNS = (
    re.compile(r"^(\d+)\s*\.?\s*(?:rd|runde|rnd|тур|rodada|round|ronda|r)$"),
    re.compile(r"^(?:rd|runde|тур|rodada|round|r)\s*\.?\s*(\d+)$"),
)
TITLES = {"GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM", "AGM", "AIM", "AFM", "ACM", "NM", "WNM"}

NO_GAMES = gettext_noop(
    "this file is chess-results' %(view)s: it holds no games, so it is read as a list of players only; to import "
    "the results, save the 'Starting rank crosstable' or the 'Ranking crosstable' as Excel instead"
)
NO_GAMES_PAGE = gettext_noop(
    "this page is chess-results' %(view)s: it holds no games, so it is read as a list of players only; "
    "to import the results, save the 'Starting rank crosstable' page (or the 'Final Ranking crosstable') instead"
)
BERGER = gettext_noop(
    "a round-robin crosstable shows no rounds or colours: they are taken from the FIDE Berger tables by start number"
)
CYCLES = gettext_noop(
    "each pair of players met %(cycles)s times: the first result in a cell is taken as the game of rounds "
    "1 to %(per_cycle)s, the next one as the game of the next %(per_cycle)s rounds (the same Berger tables, "
    "colours reversed in every second cycle)"
)

CELL = re.compile(r"^(\d+)\s*([wbsWBSбчБЧ])\s*(1/2|0[.,]5|[10½=+\-])?$")
BYE = re.compile(r"^[-–]\s*(1/2|0[.,]5|[10½=])$")
RESULT_CODES = {"1": "1", "0": "0", "½": "=", "=": "=", "1/2": "=", "0.5": "=", "0,5": "=", "+": "+", "-": "-"}
BYE_CODES = {"1": "F", "½": "H", "=": "H", "1/2": "H", "0.5": "H", "0,5": "H", "0": "Z"}


def _header(value) -> str:
    # A zero-width space in a header cell must not hide the column.
    text = re.sub(r"\s+", " ", strip_invisible(str(value or ""))[0]).strip().lower()
    return text.rstrip(".:").replace(".", " ").strip()


def find_columns(values: list) -> dict:
    """Column indexes by meaning; rounds as {round: index}."""
    found: dict = {"rounds": {}}
    for index, value in enumerate(values):
        header = _header(value)
        if not header:
            continue
        for pattern in ROUND_PATTERNS:
            match = pattern.match(header)
            if match:
                found["rounds"][int(match.group(1))] = index
                break
        else:
            for key, pattern in COLUMN_PATTERNS:
                if key not in found and pattern.match(header):
                    found[key] = index
                    break
    return found


def _header_row(grid: Grid) -> tuple[int, dict] | None:
    for position, (_, values) in enumerate(grid.rows[:60]):
        columns = find_columns(values)
        others = {"rank", "start", "rating", "points", "fide_id", "federation"} & set(columns)
        if "name" in columns and (others or columns["rounds"]):
            return position, columns
    return None


def parse(grids: list[Grid], file_name: str, file_format: str) -> ParsedFile:
    for grid in grids:
        if grid.is_empty:
            continue
        crheader.refuse_view_without_games(grid)
        found = _header_row(grid)
        if found is not None:
            grid, columns, cycles = _round_robin(grid, found[0], found[1])
            parsed = _parse_sheet(grid, found[0], columns, file_name, file_format)
            if cycles:
                parsed.note(BERGER)
            if cycles > 1:
                parsed.note(CYCLES, cycles=cycles, per_cycle=len(roundrobin.berger(len(parsed.players))))
            return parsed
    if all(grid.is_empty for grid in grids):
        raise refusal(gettext_noop("the sheet is empty"), grids[0].place() if grids else Place(file_name), "empty")
    sheet = next(grid for grid in grids if not grid.is_empty)
    raise refusal(
        gettext_noop(
            "no table with a 'Name' column and a rank, number, rating, points or round column was found; "
            "is this a chess-results or Swiss-Manager export?"
        ),
        sheet.place(),
        "no_table",
    )


def _players_of(grid: Grid, header_position: int, name_index: int) -> list[int]:
    """The positions (in grid.rows) of the table's rows: from below the header to the first row
    without a name after at least one player."""
    positions = []
    for position in range(header_position + 1, len(grid.rows)):
        if _text(_value(grid.rows[position][1], name_index)):
            positions.append(position)
        elif positions:
            break
    return positions


def _round_robin(grid: Grid, header_position: int, columns: dict) -> tuple[Grid, dict, int]:
    """A round-robin crosstable (one column per opponent headed 1..n, `*` on the diagonal) rewritten
    into round cells by the Berger tables, with the number of cycles (2 for a double round robin);
    any other table as it is, with 0."""
    header = grid.rows[header_position][1]
    body = _players_of(grid, header_position, columns["name"])
    opponents = roundrobin.opponent_columns([_text(v) for v in header], len(body))
    if opponents is None or columns["rounds"]:
        return grid, columns, 0
    width = max(len(header), opponents[-1] + 1)
    rows = []
    for position in body:
        values = grid.rows[position][1]
        row = list(values) + [None] * (width - len(values))
        for index in opponents:
            row[index] = _text(row[index])  # the cells as text, as the HTML page gives them
        rows.append(row)
    if not roundrobin.is_round_robin(rows, opponents):
        return grid, columns, 0
    cycles = roundrobin.cycles(rows, opponents)
    if cycles * len(roundrobin.berger(len(rows))) > MAX_COLUMNS:
        # Cells of many results would make as many rounds: no tournament is that long.
        raise refusal(TOO_LARGE, grid.place(), "too_large")
    starts = [_text(_value(row, columns["start"])) for row in rows] if "start" in columns else []
    starts = [int(n) for n in starts] if starts and all(n.isdigit() for n in starts) else None
    new_header, new_rows = roundrobin.to_rounds(list(header) + [None] * (width - len(header)), rows, opponents, starts)
    converted = Grid(grid.file_name, grid.sheet, list(grid.rows))
    converted.rows[header_position] = (grid.rows[header_position][0], new_header)
    for position, row in zip(body, new_rows, strict=True):
        converted.rows[position] = (grid.rows[position][0], row)
    return converted, find_columns(new_header), cycles


def _parse_sheet(grid: Grid, header_position: int, columns: dict, file_name: str, file_format: str) -> ParsedFile:
    parsed = ParsedFile(file_name, file_format)
    parsed.columns = {
        attribute: column_letter(columns[key])
        for attribute, key in (
            ("family_name", "family" if "family" in columns else "name"),
            ("given_names", "name"),
            ("club", "club"),
            ("country", "federation"),
            ("title", "title"),
            ("national_id", "national_id"),
        )
        if key in columns
    }
    crheader.header_block(parsed, grid, grid.rows[:header_position])
    rounds = columns["rounds"]
    if not parsed.view:
        _view_below(parsed, grid, header_position, columns["name"])
    if not parsed.view:
        parsed.view = _guess_view(columns)
    crosstable = bool(rounds)
    if not crosstable:
        parsed.content = PLAYER_LIST
        if "crosstable" in parsed.view:
            parsed.view = "starting-rank list"
        if parsed.view.startswith("ranking"):
            # A ranking is what an arbiter may take for the results: say that it is not, and what to save.
            parsed.warn(
                NO_GAMES_PAGE if file_format == "html" else NO_GAMES,
                parsed.places.get("view", grid.place()),
                "no_games",
                view=parsed.details.get("view title") or parsed.view,
            )
    by_rank = parsed.view.startswith("ranking")

    # The table: one row per player, until the first empty row after at least one player.
    positions: dict[int, int] = {}  # row position in the table -> start number
    cells_by_row = []
    previous_rank = None
    guessed: list[str] = []
    for position, (row_number, values) in enumerate((item for item in grid.rows[header_position + 1 :]), start=1):
        name = _text(_value(values, columns.get("name")))
        if not name:
            if any(_text(v) for v in values) and not parsed.players:
                continue  # stray lines between the header and the first player
            break
        player = _player(parsed, grid, row_number, values, columns, name, len(parsed.players) + 1, guessed)
        if player is None:
            continue
        if player.rank is None and by_rank:
            player.rank = previous_rank  # a blank rank is a tie with the row above
        previous_rank = player.rank
        positions[len(parsed.players) + 1] = player.start_number
        parsed.players.append(player)
        if crosstable:
            cells_by_row.append((player, row_number, values))
        del position
    if not parsed.players:
        raise refusal(gettext_noop("the table has a header but no player rows"), grid.place(), "empty")
    warn_guessed(parsed, guessed)
    check_unique_start_numbers(parsed)
    if not crosstable:
        parsed.rounds = 0
        return parsed
    parsed.rounds = max(parsed.rounds, max(rounds))
    cells: dict[tuple[int, int], Cell] = {}
    references = positions if by_rank else {n: n for n in positions.values()}
    table_size = len(positions)
    for player, row_number, values in cells_by_row:
        for rnd, index in sorted(rounds.items()):
            place = grid.place(row_number, index, at_round(rnd))
            cell = _cell(parsed, _value(values, index), place, rnd)
            if cell is None:
                continue
            if cell.opponent is not None:
                if cell.opponent not in references:
                    if by_rank:
                        msgid = gettext_noop(
                            "the opponent at row position %(number)s is not in the table (it has %(count)s players)"
                        )
                    else:
                        msgid = gettext_noop(
                            "the opponent at start number %(number)s is not in the table (it has %(count)s players)"
                        )
                    parsed.error(msgid, place, "missing_opponent", number=cell.opponent, count=table_size)
                    continue
                cell.opponent = references[cell.opponent]
            cells[(player.start_number, rnd)] = cell
    _summarise_missing(parsed, grid, table_size)
    if not parsed.errors:
        build_games(parsed, cells)
    return parsed


def _summarise_missing(parsed: ParsedFile, grid: Grid, table_size: int) -> None:
    """Many missing opponents mean a cut table: say that first, then every cell."""
    missing = [p for p in parsed.problems if p.code == "missing_opponent"]
    if len(missing) < 5:
        return
    highest = max(dict(p.params)["number"] for p in missing)
    summary = Problem.of(
        ERROR,
        gettext_noop(
            "%(count)s round cells name opponents who are not in the table (up to %(highest)s; the table has "
            "%(size)s players): the crosstable seems cut; export it complete"
        ),
        grid.place(),
        "missing_opponents",
        count=len(missing),
        highest=highest,
        size=table_size,
    )
    parsed.problems.insert(parsed.problems.index(missing[0]), summary)


def _value(values: list, index: int | None):
    if index is None or index >= len(values):
        return None
    return values[index]


def _guess_view(columns: dict) -> str:
    """Without a title line: a table led by a rank column is a ranking, by a number column a starting rank."""
    rank, start = columns.get("rank"), columns.get("start")
    if rank is not None and (start is None or rank < start):
        return "ranking crosstable" if columns["rounds"] else "ranking list"
    return "starting-rank crosstable" if columns["rounds"] else "starting-rank list"


def _view_below(parsed: ParsedFile, grid: Grid, header_position: int, name_index: int) -> None:
    """Some exports put the view's title under the table, in the annotation block ("Starting rank crosstable")."""
    table = _players_of(grid, header_position, name_index)
    after = table[-1] + 1 if table else header_position + 1
    for row_number, line in crheader.title_lines(grid.rows[after : after + 10]):
        view = crheader.view_of(line)
        if view:
            parsed.view = view
            parsed.details["view title"] = line
            parsed.places["view"] = grid.place(row_number)
            return


def _int(parsed: ParsedFile, value, place, msgid: str) -> int | None:
    """The number in the cell; `msgid` says it is not one ("the rating '%(text)s' is not a number")."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, bool):
        value = int(value)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, int):
        return value
    text = str(value).strip()
    if text.isdigit():
        return int(text)
    parsed.error(msgid, place, "bad_number", text=text)
    return None


def _points(parsed: ParsedFile, value, place) -> Decimal | None:
    text = _text(value).replace("½", ".5").replace(",", ".")
    if not text:
        return None
    if text.startswith("."):
        text = "0" + text
    try:
        return Decimal(text)
    except InvalidOperation:
        parsed.error(gettext_noop("the points '%(text)s' are not a number"), place, "bad_number", text=_text(value))
        return None


def _player(parsed, grid, row_number, values, columns, name, position, guessed) -> ParsedPlayer | None:
    def at(key):
        return grid.place(row_number, columns.get(key))

    start = _int(
        parsed,
        _value(values, columns.get("start")),
        at("start"),
        gettext_noop("the start number '%(text)s' is not a number"),
    )
    if start is None:
        start = position
    if "family" in columns:
        # Russian lists: Фамилия, Имя, Отчество in three columns; the name column holds the given name.
        family = _text(_value(values, columns["family"]))
        given = " ".join(filter(None, (_text(_value(values, columns.get(k))) for k in ("name", "patronymic"))))
    else:
        # The raw cell, not the tidied text: two spaces separate family and given names.
        family, given = split_name(str(_value(values, columns["name"])), guessed)
    birth_value = _value(values, columns.get("birth"))
    birth, precision = parse_date(_text(birth_value)) if birth_value not in (None, "", 0) else (None, "unknown")
    title = ""
    if "title" in columns:
        title = _text(_value(values, columns["title"])).upper()
    else:
        # chess-results leaves the title column without a header: look left of the name.
        for index in range(columns["name"]):
            if _text(_value(values, index)).upper() in TITLES:
                title = _text(_value(values, index)).upper()
    sex = _text(_value(values, columns.get("sex"))).lower()
    return ParsedPlayer(
        start_number=start,
        family_name=family,
        given_names=given,
        fide_id=_int(
            parsed,
            _value(values, columns.get("fide_id")),
            at("fide_id"),
            gettext_noop("the FIDE id '%(text)s' is not a number"),
        )
        or None,
        national_id=_text(_value(values, columns.get("national_id"))) or None,
        rating=_int(
            parsed,
            _value(values, columns.get("rating")),
            at("rating"),
            gettext_noop("the rating '%(text)s' is not a number"),
        )
        or None,
        national_rating=_int(
            parsed,
            _value(values, columns.get("national_rating")),
            at("national_rating"),
            gettext_noop("the national rating '%(text)s' is not a number"),
        )
        or None,
        country=_text(_value(values, columns.get("federation"))).upper()[:3],
        club=_text(_value(values, columns.get("club"))),
        birth_date=birth,
        birth_precision=precision,
        sex={"w": "F", "f": "F", "ж": "F", "m": "M", "м": "M"}.get(sex, ""),
        title=title,
        points=_points(parsed, _value(values, columns.get("points")), at("points")),
        rank=_int(
            parsed, _value(values, columns.get("rank")), at("rank"), gettext_noop("the rank '%(text)s' is not a number")
        ),
        place=grid.place(row_number),
    )


def _cell(parsed: ParsedFile, value, place, rnd: int) -> Cell | None:
    if value is None:
        return None
    if isinstance(value, bool):
        value = int(value)
    if isinstance(value, int | float):
        # Byes exported as numbers: -1 is "-1", 0 is "-0", -0.5 is "-½".
        code = {-1: "F", 0: "Z", -0.5: "H"}.get(value)
        if code is None:
            parsed.error(gettext_noop("the number %(number)s is not a result"), place, "bad_cell", number=value)
            return None
        return Cell(None, None, code, place)
    text = "".join(str(value).split())
    if not text:
        return None
    if text in ("+", "-"):
        return Cell(None, None, "F" if text == "+" else "Z", place)
    match = BYE.match(text)
    if match:
        return Cell(None, None, BYE_CODES[match.group(1)], place)
    match = CELL.match(text)
    if match:
        colour = {"w": "w", "б": "w", "b": "b", "s": "b", "ч": "b"}[match.group(2).lower()]
        code = RESULT_CODES[match.group(3)] if match.group(3) else UNFINISHED
        return Cell(int(match.group(1)), colour, code, place)
    parsed.error(gettext_noop("the cell '%(text)s' cannot be read"), place, "bad_cell", text=str(value).strip())
    return None
