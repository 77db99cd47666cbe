"""Tie-breaks of a large Swiss: every C.07 tie-break and the final standings, next to a yardstick.

    python -m benchmarks.tiebreaks.swiss [--players 500] [--rounds 11] [--seed 1] [--repeat 5] [--smoke]

The Swiss is the shared synthetic one (tournaments/demo/synthetic.py: a real pairing rule, a bye
for an odd field), with a few forfeits and absences mixed in so the unplayed-round rules are
exercised. Measured: `rules.standings` with all fourteen tie-breaks (the worst case), with the
regulations' Swiss default (five), and the yardstick: the report's crosstable (`cells_by_player`)
over the same games, one pass that every report makes anyway. The machine is shared, so the
ratios to the yardstick are what to compare between runs; best of `--repeat` runs each.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time

import django

# The synthetic Swiss lives in a package whose importers translate messages: Django must be set up.
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "federation.settings")
django.setup()

from tournaments.crosstable import cells_by_player  # noqa: E402
from tournaments.demo import synthetic  # noqa: E402
from tournaments.tiebreaks import rules  # noqa: E402


def games_of(seed: int, players: int, rounds: int) -> tuple[list[tuple], dict[int, int]]:
    rng = random.Random(seed)
    strengths = [rng.gauss(1700, 300) for _ in range(players)]
    games = []
    for rnd, white, black, result in synthetic.swiss(rng, strengths, rounds):
        if black is None:
            games.append((rnd, white + 1, None, "1-0", "bye"))
        elif rng.random() < 0.02:
            games.append((rnd, white + 1, black + 1, "1-0", "forfeit"))
        elif rng.random() < 0.01:
            # Both absent: each stands as an unplayed round of his own.
            games.append((rnd, white + 1, None, "0-0", "unplayed"))
            games.append((rnd, black + 1, None, "0-0", "unplayed"))
        else:
            games.append((rnd, white + 1, black + 1, result, "played"))
    ratings = {n + 1: max(1000, round(s)) for n, s in enumerate(strengths)}
    return games, ratings


def best(function, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--smoke", action="store_true", help="the same code on 20 players, 5 rounds, once")
    args = parser.parse_args(argv)
    if args.smoke:
        args.players, args.rounds, args.repeat = 20, 5, 1
    games, ratings = games_of(args.seed, args.players, args.rounds)
    every = list(rules.NAMES)
    yardstick = best(lambda: cells_by_player(games, args.rounds), args.repeat)
    default = best(lambda: rules.standings(games, ratings, args.rounds, rules.SWISS_DEFAULT), args.repeat)
    full = best(lambda: rules.standings(games, ratings, args.rounds, every), args.repeat)
    load = os.getloadavg()[0]
    print(f"# Tie-breaks of a {args.players}-player, {args.rounds}-round Swiss\n")
    print(f"{len(games)} game records; Python {platform.python_version()}; load average {load:.2f}; "
          f"best of {args.repeat}.\n")  # fmt: skip
    print("| what | time | ratio to the crosstable |")
    print("|---|---:|---:|")
    print(f"| crosstable cells (yardstick) | {yardstick * 1000:.1f} ms | 1.0 |")
    print(f"| standings, Swiss default ({', '.join(rules.SWISS_DEFAULT)}) | {default * 1000:.1f} ms | "
          f"{default / yardstick:.1f} |")  # fmt: skip
    print(f"| standings, all {len(every)} tie-breaks | {full * 1000:.1f} ms | {full / yardstick:.1f} |")


if __name__ == "__main__":
    sys.exit(main())
