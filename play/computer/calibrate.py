"""Calibration of the computer levels (no Django): levels play short matches against their
neighbours, and each level's strength is estimated from the scores, chained from an anchor.

Games are played engine against engine on one board, never stored (they are not rated: a level's
Mchess rating is earned against people). Each pair of games starts from one of a few openings with
the colours swapped, so two deterministic strong levels do not play the same game twice. A game
still going after `max_plies` is adjudicated on material (3 pawns or more ahead wins, else drawn):
calibration wants many short games more than a few perfect ones.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import chess

from play.computer.engine import Engine, Strength

OPENINGS = ("e2e4 e7e5", "d2d4 d7d5", "e2e4 c7c5", "c2c4 e7e5", "g1f3 d7d5", "e2e4 e7e6", "d2d4 g8f6", "e2e4 c7c6")
VALUES = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}
ADJUDICATION_MARGIN = 3


@dataclass(frozen=True)
class Level:
    number: int
    name: str
    strength: Strength


@dataclass(frozen=True)
class Match:
    """`a` against `b`: games played and `a`'s points."""

    a: int
    b: int
    games: int
    points: float

    @property
    def score(self) -> float:
        return self.points / self.games if self.games else 0.5


def material(board: chess.Board, color: chess.Color) -> int:
    return sum(VALUES.get(piece.piece_type, 0) for piece in board.piece_map().values() if piece.color == color)


def play_game(engine: Engine, white: Strength, black: Strength, *, opening: str = "", max_plies: int = 200) -> str:
    """One game; its result as "1-0", "0-1" or "1/2-1/2"."""
    board = chess.Board()
    for uci in opening.split():
        board.push_uci(uci)
    while not board.is_game_over(claim_draw=True) and board.ply() < max_plies:
        strength = white if board.turn == chess.WHITE else black
        board.push_uci(engine.choose(board.fen(), strength).uci)
    if board.is_game_over(claim_draw=True):
        return board.result(claim_draw=True)
    lead = material(board, chess.WHITE) - material(board, chess.BLACK)
    if lead >= ADJUDICATION_MARGIN:
        return "1-0"
    if lead <= -ADJUDICATION_MARGIN:
        return "0-1"
    return "1/2-1/2"


def points_of(result: str, white: bool) -> float:
    if result == "1/2-1/2":
        return 0.5
    return 1.0 if (result == "1-0") == white else 0.0


def match(engine: Engine, a: Level, b: Level, *, games: int, max_plies: int = 200) -> Match:
    """`games` games of `a` against `b`, colours alternating, openings in turn."""
    points = 0.0
    for index in range(games):
        opening = OPENINGS[(index // 2) % len(OPENINGS)]
        a_white = index % 2 == 0
        white, black = (a.strength, b.strength) if a_white else (b.strength, a.strength)
        points += points_of(play_game(engine, white, black, opening=opening, max_plies=max_plies), a_white)
    return Match(a=a.number, b=b.number, games=games, points=points)


def difference(score: float) -> float:
    """The rating difference a score implies (PlayChess's D(p), spec: D(0) = -800, D(1) = 800)."""
    if score <= 0:
        return -800.0
    if score >= 1:
        return 800.0
    return -400 * math.log10((1 - score) / score)


def estimate(levels: list[Level], matches: list[Match], anchor: tuple[int, float]) -> dict[int, float]:
    """Each level's estimated Elo, chained along neighbour matches from the anchor (a level's
    number and the Elo it is taken to have)."""
    found = {anchor[0]: float(anchor[1])}
    by_pair = {(m.a, m.b): m for m in matches}
    numbers = [lv.number for lv in levels]
    start = numbers.index(anchor[0])
    for i in range(start + 1, len(numbers)):  # upwards: the stronger from the weaker's result
        m = by_pair.get((numbers[i - 1], numbers[i]))
        if m is None or numbers[i - 1] not in found:
            break
        found[numbers[i]] = found[numbers[i - 1]] - difference(m.score)
    for i in range(start - 1, -1, -1):  # downwards
        m = by_pair.get((numbers[i], numbers[i + 1]))
        if m is None or numbers[i + 1] not in found:
            break
        found[numbers[i]] = found[numbers[i + 1]] + difference(m.score)
    return found
