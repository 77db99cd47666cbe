"""The engine's reply time at each computer level, engine time only (the level's think time is
added on top before the move is sent).

    python -m benchmarks.play_engine [--positions 40] [--seed 1] [--smoke]

One engine process (as on the engine worker), reused for every search; positions from random
legal games of 10 to 60 plies (fixed seed). The ladder is the one the migration ships. Targets
(issue 17): p95 under 2 s at the strongest level, under 0.5 s at the weakest. `--smoke`
(tests/benchmarks/test_smoke.py): every level of the ladder on 2 positions.
"""

from __future__ import annotations

import argparse
import importlib
import os
import random
import sys

import chess

from play.computer.engine import DEFAULT_PATH, Engine, EngineConfig, Strength

# The ladder as shipped (a migration module's name starts with a digit: imported by name).
LADDER = importlib.import_module("play.migrations.0009_engine_ladder").LADDER


def positions(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        board = chess.Board()
        for _ in range(rng.randint(10, 60)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if not board.is_game_over():
            found.append(board.fen())
    return found


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    # The engine the site plays with: PLAY_ENGINE_PATH, as in the settings, else Debian's.
    parser.add_argument("--path", default=os.environ.get("PLAY_ENGINE_PATH", DEFAULT_PATH))
    parser.add_argument("--smoke", action="store_true", help="the same code path at a tiny size (tests)")
    args = parser.parse_args(argv)
    if args.smoke:
        args.positions = 2
    fens = positions(args.positions, args.seed)
    engine = Engine(EngineConfig(path=args.path, timeout=10))
    load_before = os.getloadavg()
    try:
        name = engine.describe().name
        print(f"Engine reply time, engine only ({name}, {len(fens)} positions, one process reused)\n")
        print("| Level | Settings | p50 | p95 | max | think time |")
        print("|---|---|---|---|---|---|")
        for number, label, settings, think in LADDER:
            strength = Strength(
                skill=settings.get("skill"), elo=settings.get("elo"), depth=settings.get("depth"),
                nodes=settings.get("nodes"),
                movetime=settings["movetime_ms"] / 1000 if settings.get("movetime_ms") else None,
            )  # fmt: skip
            times = [engine.choose(fen, strength).seconds for fen in fens]
            described = ", ".join(f"{k} {v}" for k, v in settings.items())
            print(
                f"| {number}. {label} | {described} | {percentile(times, 50):.3f} s | {percentile(times, 95):.3f} s "
                f"| {max(times):.3f} s | {think} s |"
            )
    finally:
        engine.close()
    # The machine is shared: a busy minute shows in the weak levels' times (a search of a few ms).
    pairs = zip(load_before, os.getloadavg(), strict=True)
    loads = " / ".join(f"{before:.2f} -> {after:.2f}" for before, after in pairs)
    print(f"\nLoad average (1 / 5 / 15 min) before -> after, {os.cpu_count()} cores shared: {loads}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
