"""Builders of result files for tests: TRF lines at their exact columns, xlsx workbooks."""

from __future__ import annotations

import io
from collections import defaultdict
from decimal import Decimal
from pathlib import Path

import openpyxl

from tournaments.importers.trf import format_player_line

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def example(name: str) -> bytes:
    """A real file of examples/ (this repository), exactly as it is."""
    return (EXAMPLES / name).read_bytes()


trf_player = format_player_line


def earned(parsed) -> defaultdict[int, Decimal]:
    """Every player's points from the games and byes read (0 for a player without any): what a test
    compares with the file's own points column."""
    points: defaultdict[int, Decimal] = defaultdict(Decimal, {p.start_number: Decimal(0) for p in parsed.players})
    for game in parsed.games:
        for number in (game.white, game.black):
            if number is not None:
                points[number] += game.points(number)
    return points


def trf(lines: list[str], newline: str = "\n", header: list[str] | None = None) -> bytes:
    header = header if header is not None else ["012 Test Cup", "022 Kazan", "042 2026/03/01", "052 2026/03/03"]
    return newline.join([*header, *lines, ""]).encode()


def small_trf() -> bytes:
    """Two players, one round: the smallest complete tournament."""
    return trf(
        [
            trf_player(1, "Ivanov,Petr", 1800, rounds=[(2, "w", "1")]),
            trf_player(2, "Petrov,Ivan", birth="2014/05/17", rounds=[(1, "b", "0")]),
        ]
    )


def xlsx(rows: list[list], sheet: str = "Sheet1") -> bytes:
    workbook = openpyxl.Workbook()
    worksheet = workbook.active
    worksheet.title = sheet
    for row in rows:
        worksheet.append(row)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def big_pgn(games: int = 10_000, players: int = 200, broken_at: int | None = None) -> bytes:
    """A PGN of `games` games among `players` players, round by round (the circle method, so nobody
    plays twice in a round); game number `broken_at` (1-based) has no round number."""
    numbers = list(range(players))
    chunks = []
    count, rnd = 0, 0
    while count < games:
        rnd += 1
        for board in range(players // 2):
            count += 1
            if count > games:
                break
            white, black = numbers[board], numbers[-1 - board]
            if rnd % 2:
                white, black = black, white
            result = ("1-0", "0-1", "1/2-1/2")[(white + black + rnd) % 3]
            round_tag = "?" if count == broken_at else f"{rnd}.{board + 1}"
            chunks.append(
                f'[Event "Big Open"]\n[Site "Kazan"]\n[Date "2026.03.{1 + rnd % 28:02d}"]\n[Round "{round_tag}"]\n'
                f'[White "Player{white:03d}, Anna"]\n[Black "Player{black:03d}, Anna"]\n'
                f'[WhiteElo "{1500 + white}"]\n[BlackElo "{1500 + black}"]\n[Result "{result}"]\n\n'
                f"1. e4 e5 2. Nf3 Nc6 {result}\n"
            )
        numbers = [numbers[0], numbers[-1], *numbers[1:-1]]
    return "\n".join(chunks).encode()
