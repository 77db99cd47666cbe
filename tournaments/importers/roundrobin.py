"""Round-robin crosstables (one column per opponent, `*` on the diagonal) as rows of round cells.

Such a table gives each game's result but neither its round nor its colours. Pairing programs
(Swiss-Manager and Vega among them) schedule a round robin by the FIDE Berger tables on the start
numbers, so the round and the colours are taken from those tables; the preview says so.

In a double (or longer) round robin each cell holds one result a cycle, in the order played:
`½1`, `1 ½`, `10`, or one a line. Cycle k is played in the rounds after cycle k-1, by the same
tables with the colours reversed in every second cycle (Vega's pairing pages of a real double
round robin, examples/vega-bob-grieves-blitz-2024-double-round-robin.html, show exactly that).
"""

from __future__ import annotations

import re

DIAGONAL = {"*", "x", "X", "×"}
RESULT = re.compile(r"1/2|0[.,]5|[10½=+\-]")
RESULTS = {"1": "1", "0": "0", "½": "½", "=": "½", "0,5": "½", "0.5": "½", "1/2": "½", "+": "+", "-": "-"}


def berger(players: int) -> dict[int, list[tuple[int, int]]]:
    """{round: [(white, black), ...]} by the FIDE Berger tables; with an odd number of players
    the highest number stands for the bye and its pairings are left out."""
    n = players + players % 2
    schedule: dict[int, list[tuple[int, int]]] = {}
    for rnd in range(1, n):
        # The player who meets n: 1, n/2+1, 2, n/2+2, ... (round 1: 1-n, round 2: n-(n/2+1), ...).
        p = ((rnd - 1) * (n // 2)) % (n - 1) + 1
        pairs = [(p, n) if rnd % 2 else (n, p)]
        for i in range(1, n // 2):
            pairs.append(((p - 1 + i) % (n - 1) + 1, (p - 1 - i) % (n - 1) + 1))
        schedule[rnd] = [(w, b) for w, b in pairs if max(w, b) <= players]
    return schedule


def opponent_columns(header: list[str], players: int) -> list[int] | None:
    """The indexes of the columns headed 1, 2, ..., players in a row, or None."""
    for start, value in enumerate(header):
        if value.strip() == "1":
            labels = [h.strip() for h in header[start : start + players]]
            if labels == [str(k) for k in range(1, players + 1)]:
                return list(range(start, start + players))
    return None


def is_round_robin(rows: list[list[str]], columns: list[int]) -> bool:
    """The diagonal is marked on every row."""
    return all(k < len(columns) and _clean(row[columns[k]]) in DIAGONAL for k, row in enumerate(rows)) and bool(rows)


def _clean(value: str) -> str:
    return re.sub(r"\s+", "", value or "")


def _results(value: str) -> list[str]:
    """The results of one cell, a cycle each; a cell that is not only results stays one piece, for
    chessresults to name as unreadable."""
    text = _clean(value)
    results = RESULT.findall(text)
    return results if "".join(results) == text else [text]


def cycles(rows: list[list[str]], columns: list[int]) -> int:
    """How many times each pair met: the most results in one cell (a later cycle may be unplayed)."""
    counts = [len(_results(row[c])) for row in rows for c in columns if c < len(row) and _clean(row[c])]
    return max([1, *(n for n in counts if n)])


def to_rounds(
    header: list[str], rows: list[list[str]], columns: list[int], starts: list[int] | None = None
) -> tuple[list[str], list[list[str]]]:
    """The header and rows with the opponent columns replaced by round columns in chess-results'
    cell grammar (`3w1`, `7b½`, `4w` for a game without a result yet). Opponents are named by
    their row, which is what the table's own columns count; the Berger tables are applied to the
    start numbers (`starts`, by row), which differ from the rows in a table sorted by rank."""
    if not starts or sorted(starts) != list(range(1, len(rows) + 1)):
        starts = list(range(1, len(rows) + 1))
    row_of = {start: position for position, start in enumerate(starts, start=1)}
    single = berger(len(rows))
    schedule: dict[int, list[tuple[int, int, int]]] = {}  # round: [(white row, black row, cycle)]
    for cycle in range(cycles(rows, columns)):
        for rnd, pairs in single.items():
            if cycle % 2:
                pairs = [(black, white) for white, black in pairs]
            schedule[cycle * len(single) + rnd] = [(row_of[w], row_of[b], cycle) for w, b in pairs]
    first, last = columns[0], columns[-1] + 1
    new_header = header[:first] + [f"{rnd}.Rd" for rnd in schedule] + header[last:]
    new_rows = []
    for position, row in enumerate(rows, start=1):
        cells = []
        for pairs in schedule.values():
            cell = ""
            for white, black, cycle in pairs:
                if position in (white, black):
                    opponent = black if position == white else white
                    results = _results(row[columns[opponent - 1]])
                    # A later cycle not played yet: the pairing without a result (`4w`).
                    result = results[cycle] if cycle < len(results) else ""
                    colour = "w" if position == white else "b"
                    cell = f"{opponent}{colour}{RESULTS.get(result, result)}"
            cells.append(cell)
        new_rows.append(row[:first] + cells + row[last:])
    return new_header, new_rows
