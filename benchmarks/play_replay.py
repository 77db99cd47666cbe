"""Transcript replay of mobile chess (play/rules/transcript.py), the pure rules alone.

Target (issue 14): `play_replay` of a 60-move game in under 100 ms. Each sample transcript of
examples/mobile/ is read and replayed through the game machine (message parsing, legality,
clocks, claims); best of 20 runs, after one warm-up.

    .venv/bin/python -m benchmarks.play_replay
"""

from __future__ import annotations

import argparse
import datetime
import json
import random
import time
from pathlib import Path

import chess

from play.rules.transcript import replay_text

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "mobile"
RUNS = 20


def best(text: str, runs: int = RUNS) -> float:
    replay_text(text)
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        replay_text(text)
        times.append(time.perf_counter() - started)
    return min(times)


def sixty_moves(seed: int = 1) -> str:
    """A transcript of a 60-move game (120 plies) of random legal moves, each message repeating the
    opponent's latest move as the rules require, a few minutes apart: the issue's target case."""
    board = chess.Board()
    rng = random.Random(seed)
    start = datetime.datetime(2026, 5, 1, 10, 0, tzinfo=datetime.UTC)
    lines = [json.dumps({"game": {"white": "A", "black": "B", "start": start.isoformat(), "control": "10800/30+1200/10",
                                  "norm": 60}})]  # fmt: skip
    at, previous = start, None
    while board.ply() < 120:
        choices = [move for move in board.legal_moves if not _ends(board, move)]
        move = rng.choice(choices)
        ply = board.ply()
        text = f"{ply // 2 + 1}{'.' if ply % 2 == 0 else '...'} {board.san(move)}"
        if previous is not None:
            text = f"{previous} {text}"
        previous = f"{ply // 2 + 1}{'.' if ply % 2 == 0 else '...'} {board.san(move)}"
        at += datetime.timedelta(seconds=rng.randint(90, 300))
        lines.append(json.dumps({"at": at.isoformat(), "from": "white" if ply % 2 == 0 else "black", "text": text}))
        board.push(move)
    return "\n".join(lines) + "\n"


def _ends(board: chess.Board, move: chess.Move) -> bool:
    board.push(move)
    try:
        return board.is_game_over(claim_draw=False)
    finally:
        board.pop()


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="one run of each transcript instead of the best of 20")
    runs = 1 if parser.parse_args(argv).smoke else RUNS
    print("| transcript | plies | messages | best of 20 | per ply |")
    print("|---|---|---|---|---|")
    samples = [(path.name, path.read_text()) for path in sorted(EXAMPLES.glob("m*.jsonl"))]
    for name, text in [("60 moves, generated", sixty_moves()), *samples]:
        plies = len(replay_text(text)["moves"])
        messages = sum(1 for line in text.splitlines() if '"text"' in line)
        seconds = best(text, runs)
        per_ply = f"{seconds / plies * 1000:.2f} ms" if plies else "–"
        print(f"| {name} | {plies} | {messages} | {seconds * 1000:.1f} ms | {per_ply} |")


if __name__ == "__main__":
    main()
