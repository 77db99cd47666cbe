"""Synthetic tournaments: Swiss pairings with results drawn from hidden strengths.

Used by the demo data of `make run` and by the benchmarks; deterministic for a seed.
"""

from __future__ import annotations

import random


def result(rng: random.Random, white_strength: float, black_strength: float, draw: float = 0.25) -> str:
    """A result drawn so that the stronger side wins as often as Elo expects."""
    expected = 1 / (1 + 10 ** ((black_strength - white_strength) / 400))
    roll = rng.random()
    if roll < expected * (1 - draw):
        return "1-0"
    if roll < expected * (1 - draw) + draw:
        return "1/2-1/2"
    return "0-1"


def swiss(rng: random.Random, strengths: list[float], rounds: int) -> list[tuple[int, int, int | None, str]]:
    """(round, white, black or None for the bye, result) with players as indexes into `strengths`.

    Players are sorted by score then strength and paired with the nearest neighbour they have
    not met; with an odd number the lowest gets the bye (one point).
    """
    players = list(range(len(strengths)))
    score = dict.fromkeys(players, 0.0)
    met: set[tuple[int, int]] = set()
    had_bye: set[int] = set()
    games = []
    for rnd in range(1, rounds + 1):
        order = sorted(players, key=lambda p: (-score[p], -strengths[p]))
        if len(order) % 2:
            bye = next((p for p in reversed(order) if p not in had_bye), order[-1])
            order.remove(bye)
            had_bye.add(bye)
            score[bye] += 1
            games.append((rnd, bye, None, "1-0"))
        while order:
            a = order.pop(0)
            partner = next((b for b in order if (a, b) not in met), order[0])
            order.remove(partner)
            met.update({(a, partner), (partner, a)})
            white, black = (a, partner) if rng.random() < 0.5 else (partner, a)
            outcome = result(rng, strengths[white], strengths[black])
            games.append((rnd, white, black, outcome))
            points = {"1-0": 1.0, "1/2-1/2": 0.5, "0-1": 0.0}[outcome]
            score[white] += points
            score[black] += 1 - points
    return games
