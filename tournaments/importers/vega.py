"""Vega's HTML crosstable, rewritten into the rows of cells chessresults.parse reads.

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


def is_vega(document) -> bool:
    authors = document.xpath("//meta[@name='author']/@content")
    if any("vegachess" in a.lower() for a in authors):
        return True
    return bool(document.xpath("//td/div[@class='res']/following-sibling::div[@class='cw' or @class='cb']"))


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


def grid(document, file_name: str) -> Grid:
    table = _first(document, "//table[.//div[@class='res']]")
    if table is None:
        raise refusal(
            gettext_noop("this Vega page has no crosstable; save Vega's 'Cross Table' page"),
            Place(file_name),
            "no_table",
        )
    result = Grid(file_name, None)
    title = _text(_first(document, "//h1")) or _text(_first(document, "//title"))
    if title:
        result.rows.append((None, [title]))
    for heading in document.xpath("//h5|//h4"):
        dates = DATES.findall(_text(heading))
        if dates:
            result.rows.append((None, [f"Date: {' - '.join(dates)}"]))
            break
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
