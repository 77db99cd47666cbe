"""Round-robin crosstables (one column per opponent, `*` on the diagonal) as rows of round cells.

Such a table gives each game's result but neither its round nor its colours. Pairing programs
(Swiss-Manager among them) schedule a round robin by the FIDE Berger tables on the start numbers,
so the round and the colours are taken from those tables; the preview says so.
"""

from __future__ import annotations

import re

DIAGONAL = {"*", "x", "X", "×"}
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
    schedule = {
        rnd: [(row_of[white], row_of[black]) for white, black in pairs] for rnd, pairs in berger(len(rows)).items()
    }
    first, last = columns[0], columns[-1] + 1
    new_header = header[:first] + [f"{rnd}.Rd" for rnd in schedule] + header[last:]
    new_rows = []
    for position, row in enumerate(rows, start=1):
        cells = []
        for pairs in schedule.values():
            cell = ""
            for white, black in pairs:
                if position in (white, black):
                    opponent = black if position == white else white
                    result = _clean(row[columns[opponent - 1]])
                    colour = "w" if position == white else "b"
                    cell = f"{opponent}{colour}{RESULTS.get(result, result)}"
            cells.append(cell)
        new_rows.append(row[:first] + cells + row[last:])
    return new_header, new_rows
