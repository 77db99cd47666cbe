"""Vega's HTML pages, rewritten into the rows of cells chessresults.parse reads.

Vega's web export is a set of pages. Three kinds are read, told apart by their content:

- the Swiss crosstable ("Cross table", crosstable.html, in start order; "Cross table by score",
  crosstablescore.html, in rank order with the opponents named by their row): round cells, made into
  chess-results' cell grammar here, the columns found by their headings (they differ between Vega's
  versions, see grid);
- the round-robin crosstable ("Cross table by score"): one column per opponent, the diagonal a
  `hole` cell, one result a cycle in each cell (`½1`: a draw then a win in a double round robin);
  made into chess-results' round-robin layout, which roundrobin.py schedules by the Berger tables;
- a table of players without games (the "Standings", the registered players): read as a player
  list, the way chess-results' final ranking is.

Vega prints a round cell as the result then the opponent's start number (`153`: won against 53,
`½7`: drew with 7), in two parts: `<div class="res">1</div><div class="cw">53</div>`, where the
class gives the colour (cw white, cb black) or none (cf: a forfeit, or the bye when the number is
`BYE`: `½ BYE`, `1 BYE`, `0 BYE`). Where the player's cell holds the start number, the title and
the name together, they are taken apart. A team event's crosstables are refused (they hold match
points, no games of players).
"""

from __future__ import annotations

import re

from django.utils.translation import gettext_noop

from tournaments.importers.base import Place, refusal
from tournaments.importers.spreadsheets import MAX_COLUMNS, Grid

HEADER = ["No.", "Title", "Name", "Sex", "Rtg", "FED", "Club", "Pts"]
# The Swiss crosstable's headings by meaning, in every Vega version seen ("Origin" is Vega's club or town).
CROSS_COLUMNS = {
    "pos": "rank",
    "rk": "rank",
    "#": "number",
    "n": "number",
    "no": "number",
    "player": "player",
    "name": "player",
    "t": "title",
    "rtg": "rating",
    "elo": "rating",
    "fed": "federation",
    "origin": "club",
    "pts": "points",
    "team": "team",
}
TEAMS = gettext_noop(
    "this is Vega's team crosstable: it holds the teams' match points, not the players' games; upload the "
    "tournament's FIDE report (TRF) exported from Vega instead"
)
RESULTS = {"1": "1", "0": "0", "½": "½", "=": "½"}
FORFEITS = {"1": "+", "0": "-"}
# Vega marks a withdrawn player by "(W)" after the name (cut to 20 characters, sometimes without a space).
WITHDRAWN = re.compile(r"\s*\(W\)$")
DATES = re.compile(r"\d{1,2}/\d{1,2}/\d{4}")
# The name column of the standings, players and round-robin pages ("Pairings" has "White Player").
PLAYER_HEADINGS = {"player", "name"}
# Vega's headings that chessresults.find_columns would not know.
HEADINGS = {"#": "No.", "n": "No.", "player": "Name", "name": "Name", "origin": "Club"}


def is_vega(document) -> bool:
    authors = document.xpath("//meta[@name='author']/@content")
    # Older Vega templates sign the page <meta name="Vega" content="Windows"> instead.
    if any(site in a.lower() for a in authors for site in ("vegachess", "vegaresult")) or document.xpath(
        "//meta[@name='Vega']"
    ):
        return True
    return bool(document.xpath("//td/div[@class='res']/following-sibling::div[@class='cw' or @class='cb']"))


def page_kind(document) -> str | None:
    """ "crosstable", "round robin", "team" (the crosstables of a team event), "players" (a table of
    players without games) or None."""
    games = document.xpath("//table[.//div[@class='res'] or .//td[@class='hole']]")
    if games and is_team_table(games[0]):
        return "team"
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
    player cell of the standings (`<span class="idn">1</span> <span class="title male">IM</span> <a>Name</a>`)
    becomes the start number, title, name and sex columns; "Origin" (Vega's club or town) the club."""
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
        header[name_index : name_index + 1] = ["No.", "Title", "Name", "Sex"]
    result.append(header)
    for cells in body:
        values = [_plain_cell(td) for td in cells]
        if split and len(cells) > name_index:
            player = cells[name_index]
            title = _first(player, ".//span[contains(@class, 'title')]")
            # The title box's class says the sex ("title female"), as in the crosstable.
            classes = (title.get("class") or "").split() if title is not None else []
            values[name_index : name_index + 1] = [
                _text(_first(player, ".//span[@class='idn']")),
                _text(title),
                WITHDRAWN.sub("", _text(_first(player, ".//a")) or _text(player)),
                "f" if "female" in classes else "m" if "male" in classes else "",
            ]
        elif len(cells) > name_index:
            values[name_index] = WITHDRAWN.sub("", values[name_index])
        result.append(values)
    return result


def _span(cell) -> int:
    span = cell.get("colspan", "1")
    return min(int(span), MAX_COLUMNS) if span.isdigit() and int(span) > 0 else 1


def _spread(cells) -> list:
    """The cells of a row by column: a cell spanning two columns stands in both. Past MAX_COLUMNS the
    row is cut (one more, for the caller to refuse it as too large)."""
    spread: list = []
    for cell in cells:
        spread += [cell] * _span(cell)
        if len(spread) > MAX_COLUMNS:
            return spread[: MAX_COLUMNS + 1]
    return spread


def crosstable_columns(table) -> tuple[dict[str, int], list[tuple[int, int]]]:
    """{meaning: column} and [(round, column)] from the crosstable's headings."""
    header = _first(table, ".//tr[th]")
    columns: dict[str, int] = {}
    rounds = []
    for index, cell in enumerate(_spread(header.xpath("th|td")) if header is not None else []):
        text = _heading(cell).lower()
        if text.isdigit():
            if int(text) not in {r for r, _ in rounds}:  # a round heading spanning two columns counts once
                rounds.append((int(text), index))
        elif text in CROSS_COLUMNS:
            columns.setdefault(CROSS_COLUMNS[text], index)
    return columns, rounds


# Vega's tie-break headings and the C.07 codes (tournaments.tiebreaks.rules.NAMES) they stand for.
TIEBREAK_HEADINGS = {
    "bh": "BH",
    "bh-c1": "BH-C1",
    "bh-c2": "BH-C2",
    "bh-m1": "BH-M1",
    "mbh": "BH-M1",
    "sb": "SB",
    "ps": "PS",
    "cum": "PS",
    "de": "DE",
    "win": "WIN",
    "won": "WON",
    "bpg": "BPG",
    "bwg": "BWG",
    "ks": "KS",
    "aro": "ARO",
    "tpr": "TPR",
    "perf": "TPR",
}


def tiebreak_order(document) -> list[str]:
    """The tie-breaks the crosstable prints after the points, in their order (BH, BH-C1, SB, ...)."""
    table = _first(document, "//table[.//div[@class='res']]")
    header = _first(table, ".//tr[th]") if table is not None else None
    codes = []
    for cell in header.xpath("th|td") if header is not None else []:
        code = TIEBREAK_HEADINGS.get(_text(cell).strip().lower())
        if code and code not in codes:
            codes.append(code)
    return codes


def has_headings(document) -> bool:
    """The crosstable's headings name the player and at least one round."""
    table = _first(document, "//table[.//div[@class='res']]")
    columns, rounds = crosstable_columns(table) if table is not None else ({}, [])
    return "player" in columns and bool(rounds)


def is_team_table(table) -> bool:
    columns, _ = crosstable_columns(table)
    return "team" in columns and "player" not in columns


def _flag(cell) -> str:
    """The federation of a flag-only cell: the image's alt text, else the flag file's name
    (`./flag/aus.png`, whose alt is only "flag")."""
    for image in cell.xpath(".//img") if cell is not None else []:
        alt = (image.get("alt") or "").strip()
        if alt and alt.lower() != "flag":
            return alt
        stem = (image.get("src") or "").rsplit("/", 1)[-1].split(".")[0]
        if stem:
            return stem.upper()
    return ""


def _start_number(row) -> str:
    """The player's start number, wherever this template prints it: `<span class="idn">`, Vega 2025's
    `<div class="sort-num">`, or only the link to his card (`playercard.html#7`) on the pages sorted by score."""
    number = _first(row, ".//span[@class='idn']|.//div[@class='sort-num']")
    if number is not None:
        return _text(number)
    for link in row.xpath(".//a/@href"):
        if "#" in link and link.split("#", 1)[0].endswith("playercard.html") and link.split("#", 1)[1].isdigit():
            return link.split("#", 1)[1]
    return ""


def _player(cells: list, columns: dict[str, int], row) -> dict[str, str]:
    def column(key):
        return cells[columns[key]] if key in columns and columns[key] < len(cells) else None

    player = column("player")
    found: dict[str, str] = {"start": _start_number(row)}
    title = None
    name = ""
    if player is not None:
        title = _first(player, ".//span[contains(@class, 'title')]|.//div[@class='title-box']/div")
        name_box = _first(player, ".//*[contains(@class, 'player-name')]")
        name = _text(name_box) or _text(_first(player, ".//a"))
        if not name:
            # The cell's text but the start number and the title spans (a tail follows the span, it is no part of it).
            kept = [t for t in player.xpath(".//text()") if t.is_tail or t.getparent().tag != "span"]
            name = " ".join(" ".join(kept).split())
    found["name"] = WITHDRAWN.sub("", name)
    title_text = _text(column("title")) if "title" in columns else _text(title)
    found["title"] = "" if title_text == "-" else title_text
    classes = (title.get("class") or "").split() if title is not None else []
    found["sex"] = "f" if "female" in classes else "m" if "male" in classes else ""
    found["rating"] = _text(column("rating")) if "rating" in columns else _text(_first(row, ".//div[@class='rating']"))
    fed = column("federation")
    found["federation"] = (_text(fed) or _flag(fed)) if fed is not None else _flag(_first(row, ".//div[@class='fed']"))
    found["club"] = _text(column("club"))
    score = column("points") if "points" in columns else _first(row, "td[@class='score']")
    found["points"] = _text(score)
    found["number"] = _text(column("number"))
    found["rank"] = _text(column("rank"))
    return found


def _double_losses(table: list[list], refer) -> list[tuple[int, int, int]]:
    """The games both players lost (Vega's result 0-0: `0` with a colour in both rows): (row, row, round)
    index pairs. `refer` turns a cell's number into the row it names."""
    found = []
    for row, cells in enumerate(table):
        for rnd, td in enumerate(cells):
            if td is None:
                continue
            result, other = _text(_first(td, "div[@class='res']")), _first(td, "div[@class='cw' or @class='cb']")
            if result != "0" or other is None:
                continue
            opposite = refer(_text(other))
            if opposite is None or opposite <= row or rnd >= len(table[opposite]):
                continue
            back = table[opposite][rnd]
            if back is None:
                continue
            back_other = _first(back, "div[@class='cw' or @class='cb']")
            both = _text(_first(back, "div[@class='res']")) == "0" and back_other is not None
            if both and refer(_text(back_other)) == row:
                found.append((row, opposite, rnd))
    return found


def grid(document, file_name: str) -> tuple[Grid, list[tuple[int, int, int, int]]]:
    """The Swiss crosstable as chess-results' rows, and the games both players lost as
    (row, round, start number, opponent's start number), for the caller to tell the arbiter.

    Vega's versions and templates print different columns ("#", "Pos" or "N"; the title in its own
    "T" column or in the player's cell; the rating and federation in their columns or in the player's
    cell; "Origin" or not), so every column is found by its heading. "Cross table by score"
    (crosstablescore.html) is sorted by rank, and its cells name opponents by their row (Pos), not by
    start number: it is passed on with a rank column first, which chess-results' ranking crosstables
    also have, so the row positions are read as such.
    """
    table = _first(document, "//table[.//div[@class='res']]")
    if table is None:
        raise refusal(
            gettext_noop("this Vega page has no crosstable; save Vega's 'Cross Table' page"),
            Place(file_name),
            "no_table",
        )
    columns, rounds = crosstable_columns(table)
    rows = [(_spread(row.xpath("td")), row) for row in table.xpath(".//tr[td]") if row.getparent().tag != "tfoot"]
    rows = [(cells, row) for cells, row in rows if len(cells) > max([*columns.values(), 0])]
    players = [_player(cells, columns, row) for cells, row in rows]
    # "#" holds the start number on the crosstable and the rank on the page sorted by score.
    starts_known = all(p["start"].isdigit() for p in players)
    number_is_rank = starts_known and any(p["number"] and p["number"] != p["start"] for p in players)
    by_rank = "rank" in columns or number_is_rank
    for player in players:
        if number_is_rank and not player["rank"]:
            player["rank"] = player["number"]
        if not player["start"]:
            player["start"] = "" if by_rank else player["number"]
    round_cells = [[cells[index] if index < len(cells) else None for _, index in rounds] for cells, _ in rows]
    row_of = (
        {str(position): position - 1 for position in range(1, len(rows) + 1)}
        if by_rank
        else {p["start"]: position for position, p in enumerate(players)}
    )
    losses = _double_losses(round_cells, row_of.get)
    lost_by_both = {(row, rnd) for a, b, rnd in losses for row in (a, b)}

    result = Grid(file_name, None)
    title, lines, _ = title_lines(document)
    result.rows += [(None, [line]) for line in ([title] if title else []) + lines]
    fields = ["rank"] * by_rank + ["start", "title", "name", "sex", "rating", "federation", "club", "points"]
    header = (["Rk."] * by_rank) + HEADER
    result.rows.append((1, header + [f"{r}.Rd" for r, _ in rounds]))
    for position, (player, cells) in enumerate(zip(players, round_cells, strict=True)):
        values = [player[key] for key in fields]
        for rnd, td in enumerate(cells):
            cell = _cell(td) if td is not None else ""
            if (position, rnd) in lost_by_both:
                cell = cell[:-1] + "-"  # `28w0` -> `28w-`: lost by both, as a double forfeit is
            values.append(cell)
        result.rows.append((position + 2, values))
    start_of = [p["start"] if p["start"].isdigit() else str(position + 1) for position, p in enumerate(players)]
    return result, [(a + 2, rounds[rnd][0], int(start_of[a]), int(start_of[b])) for a, b, rnd in losses]
