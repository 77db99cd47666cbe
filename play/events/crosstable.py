"""A mobile event's crosstable and standings, from plain rows: no Django, no queries.

All-play-all: one row and one column per player in start-number order (the order of the
entries), each cell the results of that player's games against that opponent from his side:
`1`, `½`, `0`, or `*` while the game is open. An event whose games the TD adds may pair two
players more than once; the cell then holds every game between them.

Standings: points, games finished, and the Sonneborn–Berger score as the tie-break (the sum of
the points of the opponents a player beat, plus half the points of those he drew with, counting
finished games only). Equal points and equal Sonneborn–Berger share a place ("2–3"). Annulled
games are not in the table at all (rule 8: they vanish from the table and the ratings).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

WHITE_WINS = "1-0"
BLACK_WINS = "0-1"
DRAWN = "1/2-1/2"
HALF = Fraction(1, 2)
MARK = {Fraction(1): "1", HALF: "½", Fraction(0): "0"}


def points_of(result: str, white: bool) -> Fraction | None:
    """The points a result gives one side; None while the game has no result."""
    if result == DRAWN:
        return HALF
    if result == WHITE_WINS:
        return Fraction(1 if white else 0)
    if result == BLACK_WINS:
        return Fraction(0 if white else 1)
    return None


@dataclass
class Cell:
    """One game in a crosstable cell, from the row player's side."""

    mark: str  # 1, ½, 0 or *
    game: object
    white: bool  # the row player had White


@dataclass
class Row:
    number: int  # start number, from 1
    player: object
    cells: list = field(default_factory=list)  # one list of Cell per column; None on the diagonal
    points: Fraction = Fraction(0)
    played: int = 0  # finished games
    open: int = 0  # games in progress
    sonneborn_berger: Fraction = Fraction(0)
    place: str = ""
    # (opponent's number, points this player got) for every finished game, for the tie-break.
    scored: list = field(default_factory=list)


def build(players: list, games: list, *, key=lambda player: player.pk) -> dict:
    """The crosstable rows (start-number order) and the standings (place order).

    `players`: the event's players in start-number order. `games`: objects with `white_id`,
    `black_id`, `result` and `status` ("open", "finished" or "annulled"); a game of a player who
    is not in `players` is skipped (it cannot be placed in the table)."""
    rows = [Row(number=n, player=player) for n, player in enumerate(players, start=1)]
    index = {key(row.player): i for i, row in enumerate(rows)}
    for i, row in enumerate(rows):
        row.cells = [None if j == i else [] for j in range(len(rows))]
    for game in games:
        if game.status == "annulled":
            continue
        w, b = index.get(game.white_id), index.get(game.black_id)
        if w is None or b is None or w == b:
            continue
        for me, other, white in ((w, b, True), (b, w, False)):
            got = points_of(game.result, white) if game.status == "finished" else None
            row = rows[me]
            row.cells[other].append(Cell(mark="*" if got is None else MARK[got], game=game, white=white))
            if got is None:
                row.open += 1
                continue
            row.points += got
            row.played += 1
            row.scored.append((other, got))
    for row in rows:
        row.sonneborn_berger = sum((rows[other].points * got for other, got in row.scored), Fraction(0))
    standings = sorted(rows, key=lambda row: (-row.points, -row.sonneborn_berger, row.number))
    _places(standings)
    return {"rows": rows, "standings": standings}


def _places(standings: list[Row]) -> None:
    """1, 2, 3 ...; players equal on points and Sonneborn–Berger share a place, written "2–3"."""
    i = 0
    while i < len(standings):
        j = i
        tie = (standings[i].points, standings[i].sonneborn_berger)
        while j + 1 < len(standings) and (standings[j + 1].points, standings[j + 1].sonneborn_berger) == tie:
            j += 1
        place = str(i + 1) if i == j else f"{i + 1}–{j + 1}"
        for row in standings[i : j + 1]:
            row.place = place
        i = j + 1


def rounds_of(player_ids: list, round_robin) -> dict[tuple, int]:
    """For an all-play-all: the round of each (white id, black id) pair, as the pairing made them.

    `round_robin` is the pairing function (play.rules.pairing.round_robin): its flat list of pairs
    holds, round after round, len(players) // 2 games each (with an odd number one player sits out
    every round), so the round of the i-th pair is i // (n // 2) + 1. Both colour orders are given:
    two players meet once, and events paired before the colour rule changed (2026-11) keep their
    rounds. A pair it does not give (a game added by hand) has no round."""
    per_round = len(player_ids) // 2
    if per_round == 0:
        return {}
    rounds = {}
    for i, (white, black) in enumerate(round_robin(list(player_ids))):
        rounds[(white, black)] = rounds[(black, white)] = i // per_round + 1
    return rounds
