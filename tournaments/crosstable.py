"""A crosstable by rounds from plain games: what the preview and the report print.

Cells follow chess-results: opponent's start number, colour, result ('12w1',
'5b½', '7w+' for a forfeit win); byes as '+1', '+½', and '–' for an unplayed round.
"""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal

SCORE = {Decimal(1): "1", Decimal("0.5"): "½", Decimal(0): "0"}


def _points(result: str, white: bool) -> Decimal:
    if result == "1/2-1/2":
        return Decimal("0.5")
    if result == "1-0":
        return Decimal(1 if white else 0)
    if result == "0-1":
        return Decimal(0 if white else 1)
    return Decimal(0)


def cells_by_player(games, rounds: int) -> tuple[dict, dict]:
    """Cells per round and points of each player.

    `games` holds (round, white, black, result, kind); returns ({player: [cell, ...]}, {player: points}).
    """
    cells: dict = defaultdict(lambda: [""] * rounds)
    points: dict = defaultdict(Decimal)
    for rnd, white, black, result, kind in games:
        if rnd < 1 or rnd > rounds:
            continue
        if black is None:
            text = {"bye": "+1", "half_bye": "+½", "unplayed": "–"}.get(kind, "–")
            cells[white][rnd - 1] = text
            points[white] += _points(result, True)
            continue
        for player, opponent, colour, is_white in ((white, black, "w", True), (black, white, "b", False)):
            got = _points(result, is_white)
            points[player] += got
            if kind == "forfeit":
                mark = "+" if got else "-"
            else:
                mark = SCORE[got]
            cells[player][rnd - 1] = f"{opponent}{colour}{mark}"
    return cells, points
