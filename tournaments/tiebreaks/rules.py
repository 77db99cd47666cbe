"""Tie-breaks of the FIDE Tie-Break Regulations (C.07, 2023/2024), pure: no Django.

Scores are kept in half-points (a win 2, a draw 1) so that every sum is an exact integer;
`values()` turns them into Decimals for people. Games are (round, white, black, result, kind)
with start numbers, the same tuples the crosstable reads; `black` is None for byes and absences.

Unplayed rounds (docs/decisions/tiebreaks-unplayed-rounds.md):
- a participant's own unplayed round (bye, forfeit either way, absence) counts in Buchholz and
  Sonneborn-Berger as a game against a dummy opponent with the participant's own final score;
- an opponent's score is his real final score, except that the rounds he left out after his last
  game (or full-point bye, or forfeit win) with no opponent named count as draws (16.3.2);
- the cuts of Buchholz take away voluntary unplayed rounds first (half-point byes, zero-point
  byes or absences, forfeit losses), then the lowest contributions;
- wins (WIN) count forfeit wins and full-point byes; WON, BPG, BWG, ARO, TPR and direct
  encounter count games played over the board only.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal

# Codes of C.07 (and of TRF-2025) with the English names the report shows.
NAMES = {
    "BH": "Buchholz",
    "BH-C1": "Buchholz cut 1",
    "BH-C2": "Buchholz cut 2",
    "BH-M1": "median Buchholz",
    "SB": "Sonneborn-Berger",
    "PS": "progressive score",
    "DE": "direct encounter",
    "WIN": "number of wins",
    "WON": "games won over the board",
    "BPG": "games played with black",
    "BWG": "games won with black",
    "KS": "Koya",
    "ARO": "average rating of opponents",
    "TPR": "tournament performance rating",
}
SWISS_DEFAULT = ("BH-C1", "BH", "SB", "DE", "WIN")
ROUND_ROBIN_DEFAULT = ("DE", "SB", "WIN", "KS")

# FIDE B.02 8.1a: rating difference dp for a fractional score p (hundredths 50..100).
DP = (0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133, 141, 149, 158, 166, 175,
      184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309, 322, 336, 351, 366, 383, 401, 422, 444,
      470, 501, 538, 589, 677, 800)  # fmt: skip

PLAYED_KINDS = ("played", "short")
# Unplayed rounds a participant chose (or caused): cut first in Buchholz with cuts.
VOLUNTARY = "voluntary"


@dataclass
class Round:
    opponent: int | None  # None: no opponent over the board or in the file
    points: int  # half-points
    played: bool  # over the board
    black: bool = False
    voluntary: bool = False  # half-point bye, zero-point bye / absence, forfeit loss


@dataclass
class Record:
    rounds: dict[int, Round] = field(default_factory=dict)

    @property
    def score(self) -> int:
        return sum(r.points for r in self.rounds.values())


def _half_points(result: str, white: bool) -> int:
    if result == "1/2-1/2":
        return 1
    if result == "1-0":
        return 2 if white else 0
    if result == "0-1":
        return 0 if white else 2
    return 0


def records(games, players, rounds: int) -> dict[int, Record]:
    """Each player's rounds; a round without any record is an absence (zero points, voluntary)."""
    table = {number: Record() for number in players}
    for rnd, white, black, result, kind in games:
        if rnd < 1 or rnd > rounds or white not in table:
            continue
        if black is None:
            points = _half_points(result, True)
            table[white].rounds[rnd] = Round(None, points, False, voluntary=kind != "bye")
            continue
        played = kind in PLAYED_KINDS
        for me, other, is_white in ((white, black, True), (black, white, False)):
            if me not in table:
                continue
            points = _half_points(result, is_white)
            table[me].rounds[rnd] = Round(
                other, points, played, black=not is_white, voluntary=not played and points == 0
            )
    for record in table.values():
        for rnd in range(1, rounds + 1):
            record.rounds.setdefault(rnd, Round(None, 0, False, voluntary=True))
    return table


def _contributions(number: int, table: dict[int, Record], scores: dict[int, int]) -> list[tuple[bool, int, Round]]:
    """(voluntary, opponent's or dummy's score, round) for every round of the player.

    `scores` is a Scores: FIDE 2023 (dummy with the player's own score, opponents' real scores) or
    FIDE 2009 (a virtual opponent; opponents' unplayed rounds counted as draws)."""
    out = []
    before = 0
    rounds = len(table[number].rounds)
    for rnd in sorted(table[number].rounds):
        r = table[number].rounds[rnd]
        if r.played:
            out.append((False, scores.opponent(r.opponent), r))
        elif scores.virtual:
            # C.02 13.16 (2009): the score before the round, the round's result reversed, a draw a later round.
            out.append((False, before + (2 - r.points) + (rounds - rnd), r))
        else:
            out.append((r.voluntary, scores[number], r))
        before += r.points
    return out


class Scores(dict):
    """Final scores in half-points, and the score an opponent contributes under either rule."""

    def __init__(self, table: dict[int, Record], virtual: bool = False):
        super().__init__((n, record.score) for n, record in table.items())
        self.virtual = virtual
        self.adjusted = {}
        for n, record in table.items():
            if virtual:
                # 2009: every unplayed round of the opponent counts as a draw.
                self.adjusted[n] = sum(r.points if r.played else 1 for r in record.rounds.values())
                continue
            # 2023 (16.3.2): the rounds a player left out after his last game, full-point bye or forfeit
            # win, with no opponent named (a withdrawal), count as draws; all else as scored.
            last = max((rnd for rnd, r in record.rounds.items() if not r.voluntary), default=0)
            self.adjusted[n] = sum(
                r.points if rnd <= last or r.opponent is not None else 1 for rnd, r in record.rounds.items()
            )

    def opponent(self, number: int) -> int:
        return self.adjusted[number]


def buchholz(number, table, scores, cut_lowest: int = 0, cut_highest: int = 0) -> int:
    parts = _contributions(number, table, scores)
    # Voluntary unplayed rounds are cut first, then the lowest: sort them to the front.
    low = sorted(parts, key=lambda p: (not p[0], p[1])) if not scores.virtual else sorted(parts, key=lambda p: p[1])
    kept = low[cut_lowest:]
    if cut_highest:
        kept = sorted(kept, key=lambda p: p[1])[: len(kept) - cut_highest]
    return sum(p[1] for p in kept)


def sonneborn_berger(number, table, scores) -> int:
    """In quarter points: the opponent's (or dummy's) half-points times the half-points scored."""
    return sum(score * r.points for _, score, r in _contributions(number, table, scores))


def progressive(number, table) -> int:
    total = running = 0
    for rnd in sorted(table[number].rounds):
        running += table[number].rounds[rnd].points
        total += running
    return total


def koya(number, table, scores, rounds: int) -> int:
    """Points scored over the board against opponents with at least half the maximum score."""
    return sum(r.points for r in table[number].rounds.values() if r.played and scores[r.opponent] >= rounds)


def average_rating(number, table, ratings) -> int | None:
    rated = [ratings[r.opponent] for r in table[number].rounds.values() if r.played and ratings.get(r.opponent)]
    if not rated:
        return None
    return int((Decimal(sum(rated)) / len(rated)).quantize(Decimal(1), ROUND_HALF_UP))


def dp(p: Decimal) -> int:
    """FIDE B.02 8.1a: p rounded to hundredths; below one half the table is read upside down."""
    hundredths = int((p * 100).quantize(Decimal(1), ROUND_HALF_UP))
    if hundredths >= 50:
        return DP[hundredths - 50]
    return -DP[50 - hundredths]


def performance(number, table, ratings) -> int | None:
    aro = average_rating(number, table, ratings)
    if aro is None:
        return None
    games = [r for r in table[number].rounds.values() if r.played and ratings.get(r.opponent)]
    p = Decimal(sum(r.points for r in games)) / (2 * len(games))
    return aro + dp(p)


def direct_encounter(group: list[int], table) -> dict[int, int]:
    """Points among the tied group, when every one of them met every other over the board;
    otherwise nobody is separated (all zero)."""
    members = set(group)
    met = defaultdict(set)
    points = dict.fromkeys(group, 0)
    for number in group:
        for r in table[number].rounds.values():
            if r.played and r.opponent in members:
                met[number].add(r.opponent)
                points[number] += r.points
    if any(len(met[n]) < len(group) - 1 for n in group):
        return dict.fromkeys(group, 0)
    return points


def compute(code: str, table, scores, ratings, rounds: int) -> dict[int, int | None]:
    """Raw values (half-points, quarter points for SB, rating points) of one tie-break; DE is group-wise."""
    one = {
        "BH": lambda n: buchholz(n, table, scores),
        "BH-C1": lambda n: buchholz(n, table, scores, 1),
        "BH-C2": lambda n: buchholz(n, table, scores, 2),
        "BH-M1": lambda n: buchholz(n, table, scores, 1, 1),
        "SB": lambda n: sonneborn_berger(n, table, scores),
        "PS": lambda n: progressive(n, table),
        "WIN": lambda n: sum(r.points == 2 for r in table[n].rounds.values()),
        "WON": lambda n: sum(r.points == 2 and r.played for r in table[n].rounds.values()),
        "BPG": lambda n: sum(r.black and r.played for r in table[n].rounds.values()),
        "BWG": lambda n: sum(r.black and r.played and r.points == 2 for r in table[n].rounds.values()),
        "KS": lambda n: koya(n, table, scores, rounds),
        "ARO": lambda n: average_rating(n, table, ratings),
        "TPR": lambda n: performance(n, table, ratings),
    }[code]
    return {n: one(n) for n in table}


SCALE = {"BH": 2, "BH-C1": 2, "BH-C2": 2, "BH-M1": 2, "SB": 4, "PS": 2, "DE": 2, "KS": 2}


def shown(code: str, raw) -> Decimal | int | None:
    """A raw value as printed: points with their halves (and SB quarters), counts and ratings as they are."""
    if raw is None:
        return None
    scale = SCALE.get(code)
    if scale is None:
        return raw
    return (Decimal(raw) / scale).normalize() + Decimal(0)


def standings(games, players: dict[int, int | None], rounds: int, order, virtual: bool = False) -> list[dict]:
    """Players best first by points, then by the tie-breaks of `order` in turn.

    `players` maps start numbers to ratings (None: unrated). Returns, best first,
    {"number", "rank", "points", "tiebreaks": {code: shown value}}; players still tied after the
    last tie-break share a rank (and are listed by start number).
    """
    order = [code for code in order if code in NAMES]
    table = records(games, players, rounds)
    scores = Scores(table, virtual)
    values = {code: compute(code, table, scores, players, rounds) for code in order if code != "DE"}
    de: dict[int, int] = {}

    def key(n, codes):
        return tuple(-(values[c][n] if values[c][n] is not None else -(10**9)) if c != "DE" else -de.get(n, 0)
                     for c in codes)  # fmt: skip

    # Refine groups of equal points one tie-break at a time; DE is computed inside each tied group.
    groups = [sorted(n for n in table if scores[n] == s) for s in sorted(set(scores.values()), reverse=True)]
    for index, code in enumerate(order):
        refined = []
        for group in groups:
            if len(group) > 1 and code == "DE":
                de.update(direct_encounter(group, table))
            elif code == "DE":
                de.setdefault(group[0], 0)
            ordered = sorted(group, key=lambda n: key(n, order[: index + 1]))
            current: list[int] = []
            for n in ordered:
                if current and key(current[-1], order[: index + 1]) != key(n, order[: index + 1]):
                    refined.append(current)
                    current = []
                current.append(n)
            refined.append(current)
        groups = refined
    result = []
    rank = 1
    for group in groups:
        for n in sorted(group):
            shown_values = {c: shown(c, de.get(n, 0) if c == "DE" else values[c][n]) for c in order}
            result.append({"number": n, "rank": rank, "points": shown("BH", scores[n]), "tiebreaks": shown_values})
        rank += len(group)
    return result
