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

    A real pairing rule, so that a crosstable reads as an arbiter's: players are ranked by score
    then strength, and paired from the top, each with the nearest player he has not met and whose
    colour can follow his (a search that backtracks when the players left cannot all be paired).
    Nobody meets the same opponent twice while a pairing without it exists, nobody gets the same
    colour three times running or a colour difference beyond 2, and the player due a colour gets
    it (FIDE's absolute and strong colour criteria, simplified). With an odd number the lowest
    ranked player who has had no bye gets it (one point).
    """
    players = list(range(len(strengths)))
    score = dict.fromkeys(players, 0.0)
    colours: dict[int, list[str]] = {p: [] for p in players}
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
        pairs = _pairing(order, met, colours, strict=True) or _pairing(order, met, colours, strict=False)
        if pairs is None:  # more rounds than opponents: the nearest players meet again
            pairs = [(order[i], order[i + 1]) for i in range(0, len(order), 2)]
        for a, b in pairs:
            met.update({(a, b), (b, a)})
            white, black = _colours(rng, a, b, colours)
            colours[white].append("w")
            colours[black].append("b")
            outcome = result(rng, strengths[white], strengths[black])
            games.append((rnd, white, black, outcome))
            points = {"1-0": 1.0, "1/2-1/2": 0.5, "0-1": 0.0}[outcome]
            score[white] += points
            score[black] += 1 - points
    return games


def _due(history: list[str]) -> str | None:
    """The colour a player must have ("w"/"b"), or None when either will do."""
    balance = history.count("w") - history.count("b")
    if balance >= 2 or history[-2:] == ["w", "w"]:
        return "b"
    if balance <= -2 or history[-2:] == ["b", "b"]:
        return "w"
    return None


def _pairing(order: list[int], met: set, colours: dict[int, list[str]], *, strict: bool) -> list | None:
    """Pairs for the ranked `order` without a repeated game (and, if strict, without a colour
    clash), found depth first from the top; None if there is none within the search budget."""
    budget = [20000]
    # Each player's due colour, once a round: two players due the same colour cannot meet.
    due = {player: _due(colours[player]) for player in order} if strict else {}

    def search(left: list[int]) -> list | None:
        if not left:
            return []
        budget[0] -= 1
        if budget[0] < 0:
            return None
        first, rest = left[0], left[1:]
        for index, partner in enumerate(rest):
            if (first, partner) in met:
                continue
            if strict and due[first] is not None and due[first] == due[partner]:
                continue
            tail = search(rest[:index] + rest[index + 1 :])
            if tail is not None:
                return [(first, partner), *tail]
        return None

    return search(order)


def _colours(rng: random.Random, a: int, b: int, colours: dict[int, list[str]]) -> tuple[int, int]:
    """(white, black): a player due a colour gets it; else the one with fewer whites, else the one
    who had black last; else the draw of lots."""
    due_a, due_b = _due(colours[a]), _due(colours[b])
    if due_a == "w" or due_b == "b":
        return a, b
    if due_a == "b" or due_b == "w":
        return b, a
    balance_a = colours[a].count("w") - colours[a].count("b")
    balance_b = colours[b].count("w") - colours[b].count("b")
    if balance_a != balance_b:
        return (a, b) if balance_a < balance_b else (b, a)
    last_a, last_b = colours[a][-1:], colours[b][-1:]
    if last_a != last_b and last_a and last_b:
        return (a, b) if last_a == ["b"] else (b, a)
    return (a, b) if rng.random() < 0.5 else (b, a)
