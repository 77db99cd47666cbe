"""HTML crosstables: chess-results pages saved from a browser, its "Excel" downloads that are HTML
inside, and Vega's crosstable pages.

The page is parsed with lxml (a real HTML parser: saved pages are rarely well-formed) and turned
into the same rows of cells a spreadsheet gives, so that one reader (chessresults.parse) knows the
headers and the cell grammar for Excel and HTML alike. Vega writes its cells differently: vega.py
rewrites them into that grammar first.
"""

from __future__ import annotations

import re

import lxml.etree
import lxml.html
from django.utils.translation import gettext_noop

from tournaments.importers import chessresults, crheader, vega
from tournaments.importers.base import WARNING, ParsedFile, Place, Problem, Text, at_round, refusal
from tournaments.importers.spreadsheets import MAX_COLUMNS, MAX_ROWS, TOO_LARGE, Grid

HTML_STARTS = (b"<!doctype html", b"<html", b"<table", b"<?xml", b"<head", b"<meta", b"<body", b"<!--")
# The page's title lines: the tournament's name, then the view ("Starting rank crosstable").
TITLE_TAGS = ("h1", "h2")
UNPLAYED = gettext_noop(
    "%(count)s games of round %(rounds)s are paired but have no result yet: they are left out, not counted as "
    "losses; import the page again when the results are in, or confirm the earlier rounds only"
)

NO_TABLE = gettext_noop(
    "this web page (HTML) has no table with a 'Name' column and a rank, number, rating, points or "
    "round column; save the crosstable page of chess-results or Vega"
)
VEGA_NO_GAMES = gettext_noop(
    "this page is Vega's %(view)s: it holds no games, so it is read as a list of players only; "
    "to import the results, save Vega's 'Cross table' page (for a round robin, 'Cross table by score') instead"
)
DOUBLE_LOSS = gettext_noop(
    "Vega shows the game %(number)s – %(other)s as lost by both (0-0): it is read as a game not played, "
    "no point for either and not rated"
)


def _utf16(data: bytes) -> bytes:
    """A page saved as UTF-16 (some Windows programs do), as UTF-8; other bytes as they are."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16").encode("utf-8")
        except UnicodeDecodeError:
            return data
    return data


def looks_like_html(data: bytes) -> bool:
    head = _utf16(data[:8192])[:4096].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    return head.startswith(HTML_STARTS) or b"<html" in head or b"<table" in head


def _document(data: bytes, file_name: str):
    data = _utf16(data)
    try:
        data.decode("utf-8")
        parser = lxml.html.HTMLParser(encoding="utf-8")
    except UnicodeDecodeError:
        parser = lxml.html.HTMLParser()  # the page's own <meta charset>, else Latin-1
    try:
        document = lxml.html.document_fromstring(data, parser=parser)
    except (lxml.etree.ParserError, ValueError):
        raise refusal(gettext_noop("the web page (HTML) cannot be read"), Place(file_name), "damaged") from None
    # Scripts and styles hold no result text, and comments are not shown by a browser either.
    for element in document.xpath("//script|//style|//noscript|//comment()"):
        element.drop_tree()
    return document


def text_of(element) -> str:
    return " ".join(element.text_content().split())


def table_rows(table) -> list[list[str]]:
    """The rows of one table as texts, leaving out rows of tables nested in it; a cell spanning
    several columns is followed by empty ones, so that the columns stay aligned with the header."""
    rows = []
    for row in table.iter("tr"):
        if next(row.iterancestors("table"), None) is not table:
            continue  # a row of a table nested in this one
        values: list[str] = []
        for cell in row:
            if not isinstance(cell.tag, str) or cell.tag not in ("td", "th"):
                continue
            span = cell.get("colspan", "1")
            span = min(int(span), MAX_COLUMNS) if span.isdigit() and int(span) > 0 else 1
            values.extend([text_of(cell)] + [""] * (span - 1))
        rows.append(values)
    return rows


def tables(document, file_name: str) -> list[tuple[object, list[list[str]]]]:
    found = [(table, table_rows(table)) for table in document.iter("table")]
    if sum(len(rows) for _, rows in found) > MAX_ROWS or any(len(r) > MAX_COLUMNS for _, rows in found for r in rows):
        raise refusal(TOO_LARGE, Place(file_name), "too_large")
    return found


def _is_crosstable(rows: list[list[str]]) -> bool:
    for values in rows[:60]:
        columns = chessresults.find_columns(values)
        if "name" in columns and ({"rank", "start", "rating", "points", "fide_id", "federation"} & set(columns)):
            return True
    return False


def _header_lines(document, data_table) -> tuple[str, list[str]]:
    """The tournament's name (the first title that is not a view's name), then the other titles
    and the "Label: value" rows of the details table, in that order.

    Only rows with a label are taken: the navigation rows list the names of every other view
    ("Final Ranking crosstable after 9 Rounds, Starting rank crosstable") and would be taken for
    this page's view. The name is kept apart: a name may hold a colon ("Championships: Open").
    """
    name, lines = "", []
    for heading in document.iter(*TITLE_TAGS):
        text = text_of(heading)
        if not text:
            continue
        is_view = any(re.search(pattern, text.lower()) for _, pattern in crheader.VIEWS)
        if name or is_view:
            lines.append(text)
        else:
            name = text
    for _, rows in tables_before(document, data_table):
        for values in rows:
            texts = [v for v in values if v]
            if len(values) >= 2 and values[0] and values[1] and len(texts) == 2:
                lines.append(f"{values[0].rstrip(':')}: {values[1]}")
    return name, lines


def tables_before(document, data_table):
    for table in document.iter("table"):
        if table is data_table:
            return
        if table.xpath(".//table"):
            continue  # a layout table around others: its rows are theirs
        yield table, table_rows(table)


def read_html(data: bytes, file_name: str) -> ParsedFile:
    document = _document(data, file_name)
    if vega.is_vega(document):
        return _read_vega(document, file_name)
    found = next(((table, rows) for table, rows in tables(document, file_name) if _is_crosstable(rows)), None)
    if found is None:
        _refuse_view_without_games(document, file_name)
        raise refusal(NO_TABLE, Place(file_name), "no_table")
    table, rows = found
    name, header = _header_lines(document, table)
    # A ranking without games is warned about by chessresults.parse, naming the page to save.
    return _read_table(file_name, name, header, rows)


def _refuse_view_without_games(document, file_name: str) -> None:
    """A page whose title names a view without the tournament's games (a round's pairings, the
    players not paired) is refused naming the page to save, not as "no table"."""
    for heading in document.xpath("//h1|//h2|//h3"):
        text = " ".join(heading.text_content().split())
        view = crheader.view_of(text)
        if view in crheader.REFUSED_VIEWS:
            raise refusal(crheader.REFUSED_VIEWS[view], Place(file_name), "no_games", view=text)


def _read_vega(document, file_name: str) -> ParsedFile:
    kind = vega.page_kind(document)
    if kind in ("round robin", "players"):
        name, lines, view_title = vega.title_lines(document)
        rows = vega.table_rows(document, kind)
        if len(rows) > MAX_ROWS or any(len(values) > MAX_COLUMNS for values in rows):
            raise refusal(TOO_LARGE, Place(file_name), "too_large")
        parsed = _read_table(file_name, name, lines, rows)
        if view_title:
            parsed.details["view title"] = view_title
        if any(problem.code == "no_games" for problem in parsed.problems):
            # The standings (ranked by Pos) look like results and are not: Vega's own page to save, not
            # chess-results' (a list of registered players is what it says, and is not warned about).
            parsed.problems = [problem for problem in parsed.problems if problem.code != "no_games"]
            parsed.warn(VEGA_NO_GAMES, Place(file_name), "no_games", view=view_title or parsed.view)
        return parsed
    if kind == "team":
        raise refusal(vega.TEAMS, Place(file_name), "team_crosstable")
    if kind == "crosstable" and not vega.has_headings(document):
        raise refusal(NO_TABLE, Place(file_name), "no_table")
    grid, lost_by_both = vega.grid(document, file_name)  # the Swiss crosstable; any other page is refused there
    if len(grid.rows) > MAX_ROWS or any(len(values) > MAX_COLUMNS for _, values in grid.rows):
        raise refusal(TOO_LARGE, Place(file_name), "too_large")
    parsed = chessresults.parse([grid], file_name, "html")
    parsed.view = parsed.view or "starting-rank crosstable"
    parsed.tiebreaks = vega.tiebreak_order(document)
    for row, rnd, number, other in lost_by_both:
        parsed.warn(
            DOUBLE_LOSS, Place(file_name, row=row, detail=at_round(rnd)), "double_loss", number=number, other=other
        )
    return parsed


def _read_table(file_name: str, name: str, header: list[str], rows: list[list[str]]) -> ParsedFile:
    """The rows of the page's table (its header row among them) and the lines above it, read by
    chessresults.parse; a round-robin table is first turned into rounds by the Berger tables."""
    grid = Grid(file_name, None)
    # Header lines carry no row number: a row number names a row of the table (1 is its header).
    grid.rows = [(None, [line]) for line in header]
    first = next((i for i, values in enumerate(rows) if _is_crosstable([values])), None)
    if first is None:
        raise refusal(NO_TABLE, Place(file_name), "no_table")
    # chess-results' "Excel" download (HTML named .xls) has its header block in the table itself, one line a row.
    grid.rows += [(None, values) for values in rows[:first]]
    # Round-robin tables (one column per opponent) are turned into rounds by chessresults.parse, as for Excel.
    grid.rows += [(number, values) for number, values in enumerate(rows[first:], start=1)]
    parsed = chessresults.parse([grid], file_name, "html")
    if name:
        parsed.name, parsed.places["name"] = name, Place(file_name)
    _summarise_unfinished(parsed)
    return parsed


def _summarise_unfinished(parsed: ParsedFile) -> None:
    """A round paired without results yet: one warning that says what happens, before the games."""
    unfinished = [p for p in parsed.problems if p.code == "unfinished"]
    if not unfinished:
        return
    rounds = sorted({dict(p.place.detail.params)["round"] for p in unfinished if isinstance(p.place.detail, Text)})
    summary = Problem.of(
        WARNING,
        UNPLAYED,
        Place(parsed.file_name),
        "unplayed_rounds",
        count=len(unfinished),
        rounds=", ".join(str(r) for r in rounds),
    )
    parsed.problems.insert(parsed.problems.index(unfinished[0]), summary)
