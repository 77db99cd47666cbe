"""The ranks of every real file in examples/ that carries ranks and says (or shows) its tie-breaks,
reproduced by the tie-breaks of tournaments.tiebreaks.rules.

Files with ranks whose tie-breaks cannot be known are listed in docs/decisions/tiebreaks.md:
karl-mala-2005.trf and krause-bunratty-masters-2011.tab (TRF16 and Krause carry no tie-break
records). Players still tied after the last tie-break share a rank here; the file then ordered them
by something outside its tie-breaks (chess-results: the rating, or lots), so its rank must fall inside
the shared group.
"""

from decimal import Decimal

import openpyxl
import pytest

from tests.tournaments.files import EXAMPLES, example
from tournaments.importers.registry import read_result_file
from tournaments.tiebreaks import rules


def reproduce(name, order, virtual=False):
    parsed = read_result_file(name, example(name))
    games = [(g.round, g.white, g.black, g.result, g.kind) for g in parsed.games]
    rows = rules.standings(games, {p.start_number: p.rating for p in parsed.players}, parsed.rounds, order, virtual)
    return parsed, rows


def assert_ranks(parsed, rows):
    in_file = {p.start_number: p.rank for p in parsed.players}
    size = {rank: sum(1 for row in rows if row["rank"] == rank) for rank in {row["rank"] for row in rows}}
    wrong = [
        (row["number"], row["rank"], in_file[row["number"]])
        for row in rows
        if in_file[row["number"]] is None or not row["rank"] <= in_file[row["number"]] < row["rank"] + size[row["rank"]]
    ]
    assert wrong == []


def test_it_reproduces_the_ranks_of_the_vega_swiss_in_the_order_its_headings_name():
    name = "vega-western-swiss-2025-crosstable-by-score.html"
    order = read_result_file(name, example(name)).tiebreaks
    assert order == ["BH", "BH-C1", "SB"]
    parsed, rows = reproduce(name, order)
    assert_ranks(parsed, rows)
    # The winner, as Vega prints him: 5 points, BH 16.5, BH-C1 14.5, SB 16.5.
    assert rows[0]["tiebreaks"] == {"BH": Decimal("16.5"), "BH-C1": Decimal("14.5"), "SB": Decimal("16.5")}
    assert len({row["rank"] for row in rows}) == 16  # every tie broken


@pytest.mark.parametrize(
    "name",
    [
        "cr-keshmat-rapid-2024-12-ranking-crosstable.xlsx",
        "cr-keshmat-rapid-2025-04-ranking-crosstable.xlsx",
        "cr-keshmat-rapid-2025-05-ranking-crosstable.xlsx",
    ],
)
def test_it_reproduces_the_ranks_and_buchholz_of_the_chess_results_exports(name):
    # TB1 (direct encounter, 0 throughout), TB2 Buchholz cut 1, TB3 Buchholz: the 2009 virtual opponent.
    parsed, rows = reproduce(name, ["DE", "BH-C1", "BH"], virtual=True)
    assert_ranks(parsed, rows)
    sheet = openpyxl.load_workbook(EXAMPLES / name, read_only=True).active
    lines = [[cell for cell in row if cell is not None] for row in sheet.iter_rows(values_only=True)]
    first = next(index for index, line in enumerate(lines) if line and line[0] == "Rk.") + 1
    printed = lines[first : next(index for index in range(first, len(lines)) if not lines[index])]
    by_number = {row["number"]: row["tiebreaks"] for row in rows}
    # A ranking crosstable's row position is the start number the importer gives.
    for position, line in enumerate(printed, start=1):
        assert (by_number[position]["BH-C1"], by_number[position]["BH"]) == (
            Decimal(str(line[-2])),
            Decimal(str(line[-1])),
        )
