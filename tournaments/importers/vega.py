"""Vega's HTML pages, rewritten into the rows of cells chessresults.parse reads.

Vega's web export is a set of pages. Three kinds are read, told apart by their content:

- the Swiss crosstable ("Cross table"): round cells, made into chess-results' cell grammar here;
- the round-robin crosstable ("Cross table by score"): one column per opponent, the diagonal a
  `hole` cell, one result a cycle in each cell (`½1`: a draw then a win in a double round robin);
  made into chess-results' round-robin layout, which roundrobin.py schedules by the Berger tables;
- a table of players without games (the "Standings", the registered players): read as a player
  list, the way chess-results' final ranking is.

Vega prints a round cell as the result then the opponent's start number (`153`: won against 53,
`½7`: drew with 7), in two parts: `<div class="res">1</div><div class="cw">53</div>`, where the
class gives the colour (cw white, cb black) or none (cf: a forfeit, or the bye when the number is
`BYE`). The first column holds the start number, the title and the name together.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext_noop

from tournaments.importers.base import Place, refusal
from tournaments.importers.spreadsheets import Grid

HEADER = ["No.", "Title", "Name", "Rtg", "FED", "Pts"]
RESULTS = {"1": "1", "0": "0", "½": "½", "=": "½"}
FORFEITS = {"1": "+", "0": "-"}
# Vega marks a withdrawn player by "(W)" after the name (cut to 20 characters, sometimes without a space).
WITHDRAWN = re.compile(r"\s*\(W\)$")
DATES = re.compile(r"\d{1,2}/\d{1,2}/\d{4}")
# The name column of the standings, players and round-robin pages ("Pairings" has "White Player").
PLAYER_HEADINGS = {"player", "name"}
# Vega's headings that chessresults.find_columns would not know.
HEADINGS = {"#": "No.", "n": "No.", "player": "Name", "name": "Name"}


def is_vega(document) -> bool:
    authors = document.xpath("//meta[@name='author']/@content")
    # Older Vega templates sign the page <meta name="Vega" content="Windows"> instead.
    if any("vegachess" in a.lower() for a in authors) or document.xpath("//meta[@name='Vega']"):
        return True
    return bool(document.xpath("//td/div[@class='res']/following-sibling::div[@class='cw' or @class='cb']"))


def page_kind(document) -> str | None:
    """ "crosstable", "round robin", "players" (a table of players without games) or None."""
    if document.xpath("//table[.//div[@class='res']]"):
        return "crosstable"
    if document.xpath("//table[.//td[@class='hole']]"):
        return "round robin"
    if _players_table(document) is not None:
        return "players"
    return None


def _heading(cell) -> str:
    # "↕ Player": the sort arrows of the players page are no part of the name.
    return re.sub(r"[^\w#]+", " ", _text(cell)).strip()


def _players_table(document):
    for table in document.xpath("//table"):
        header = table.xpath(".//tr[th][1]")
        if header and any(_heading(c).lower() in PLAYER_HEADINGS for c in header[0].xpath("th|td")):
            return table
    return None


def _text(element) -> str:
    return re.sub(r"\s+", " ", element.text_content()).strip() if element is not None else ""


def _first(element, path: str):
    found = element.xpath(path)
    return found[0] if found else None


def _cell(td) -> str:
    """The cell in chess-results' grammar: `53w1`, `7b½`, `-½` for a bye, `37w+` for a forfeit."""
    result = _text(_first(td, "div[@class='res']"))
    other = _first(td, "div[@class='cw' or @class='cb' or @class='cf']")
    if other is None:
        return _text(td)  # an empty cell (absent), or a cell chessresults will name as unreadable
    opponent = _text(other)
    if opponent.upper() == "BYE":
        return f"-{result}"
    if other.get("class") == "cf":
        # A forfeit has no colour; build_games ignores the colour of forfeits, "w" only fills the grammar.
        return f"{opponent}w{FORFEITS.get(result, result)}"
    colour = "w" if other.get("class") == "cw" else "b"
    return f"{opponent}{colour}{RESULTS.get(result, result)}"


def title_lines(document) -> tuple[str, list[str], str]:
    """The event's name (the page's heading, else its <title>), the dates line and the view's heading
    ("Standings at round 5 (last round)", "Cross Table at round 14")."""
    name = _text(_first(document, "//h1")) or _text(_first(document, "//title"))
    lines = []
    for heading in document.xpath("//h5|//h4"):
        dates = DATES.findall(_text(heading))
        if dates:
            lines.append(f"Date: {' - '.join(dates)}")
            break
    view = _first(document, "//h3[following::table]|//h4[following::table]")
    view_title = _text(view) if view is not None and not DATES.search(_text(view)) else ""
    return name, lines, view_title


def _plain_cell(td) -> str:
    if td.get("class") == "hole":
        return "*"  # the diagonal, as chess-results marks it
    text = _text(td)
    if not text:
        # The federation is often the flag alone: <img src="flag/vic.png" alt="VIC">.
        text = " ".join(td.xpath(".//img/@alt")).strip()
    return text


def table_rows(document, kind: str) -> list[list[str]]:
    """The players or round-robin table as rows of texts under headings chessresults knows: the
    player cell of the standings (`<span class="idn">1</span> <span class="title">IM</span> <a>Name</a>`)
    becomes the start number, title and name columns."""
    table = _first(document, "//table[.//td[@class='hole']]") if kind == "round robin" else _players_table(document)
    # The footer holds the tie-break legend, no player.
    rows = [row for row in table.xpath(".//tr") if row.getparent().tag != "tfoot"]
    header_row = next((row for row in rows if row.xpath("th")), None)
    if header_row is None:
        return []  # no headings: html.py refuses the page as a table without a 'Name' column
    headings = [_heading(c) for c in header_row.xpath("th|td")]
    body = [row.xpath("td") for row in rows if row is not header_row and row.xpath("td")]
    name_index = next((i for i, h in enumerate(headings) if h.lower() in PLAYER_HEADINGS), len(headings))
    split = any(len(cells) > name_index and cells[name_index].xpath(".//span[@class='idn']") for cells in body)
    result = []
    header = [HEADINGS.get(h.lower(), h) for h in headings]
    if split:
        header[name_index : name_index + 1] = ["No.", "Title", "Name"]
    result.append(header)
    for cells in body:
        values = [_plain_cell(td) for td in cells]
        if split and len(cells) > name_index:
            player = cells[name_index]
            values[name_index : name_index + 1] = [
                _text(_first(player, ".//span[@class='idn']")),
                _text(_first(player, ".//span[contains(@class, 'title')]")),
                WITHDRAWN.sub("", _text(_first(player, ".//a")) or _text(player)),
            ]
        elif len(cells) > name_index:
            values[name_index] = WITHDRAWN.sub("", values[name_index])
        result.append(values)
    return result


def grid(document, file_name: str) -> Grid:
    table = _first(document, "//table[.//div[@class='res']]")
    if table is None:
        raise refusal(
            gettext_noop("this Vega page has no crosstable; save Vega's 'Cross Table' page"),
            Place(file_name),
            "no_table",
        )
    result = Grid(file_name, None)
    title, lines, _ = title_lines(document)
    result.rows += [(None, [line]) for line in ([title] if title else []) + lines]
    heading_cells = table.xpath(".//tr[th]")[0].xpath("th") if table.xpath(".//tr[th]") else []
    rounds = [_text(th) for th in heading_cells[5:]]
    result.rows.append((1, HEADER + [f"{r}.Rd" for r in rounds]))
    for number, row in enumerate(table.xpath(".//tr[td]"), start=2):
        cells = row.xpath("td")
        if len(cells) < 5:
            continue
        first = cells[0]
        start = _text(_first(first, ".//span[@class='idn']"))
        title_text = _text(_first(first, ".//span[contains(@class, 'title')]"))
        name = WITHDRAWN.sub("", _text(_first(first, ".//a")) or _text(first))
        values = [start, title_text, name, _text(cells[1]), _text(cells[2]), _text(cells[4])]
        values += [_cell(td) for td in cells[5 : 5 + len(rounds)]]
        result.rows.append((number, values))
    return result
