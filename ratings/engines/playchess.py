"""PlayChess: the ICCF/IECG-style scheme of docs/rules/mchess-playchess.md.

    P(D) = 1 / (1 + 10^(-D/400))                 performance probability
    D(p) = -400 lg((1 - p) / p), D(0) = -800, D(1) = 800

Established players (10 or more rated games before the tournament) move by
sum of k (W - We) per game, k = r(Ro) x p(Pn). Provisional players get
Rp = Rc + D(p) F, F = -2p^2 + 2p + 0.5, over all their rated games so far.
Opponents count with their tournament entry ratings; a player who has a rating
sees any opponent more than 400 away as exactly 400 away (the cut-off).

Exactness: k, p, F and Rc are rational and kept as Fractions; P(D) is rational
for D = 0 and D = +-400 (1/2, 10/11, 1/11) and D(p) for p where (1-p)/p is a power
of ten, and those are exact too; so the seed's 1811.5 rounds to 1812 as it must.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from fractions import Fraction
from functools import lru_cache
from operator import itemgetter
from typing import NamedTuple

from ratings.engines.common import (
    PLAYED,
    WHITE_HALF_POINTS,
    Game,
    PlayerId,
    half_points_text,
    log10_rational,
    rated_games,
    round_half_up,
    round_ratio,
    round_to,
)

ESTABLISHED_GAMES = 10
CUT_OFF = 400
DEFAULT_ENTRY_RATING = 1000
PROVISIONAL = "provisional"
ESTABLISHED = "established"

_EXACT_EXPECTATION = {0: Fraction(1, 2), 400: Fraction(10, 11), -400: Fraction(1, 11)}


def expectation(difference: int) -> Fraction | float:
    """P(D): the expected score for a rating difference D (own minus opponent's)."""
    exact = _EXACT_EXPECTATION.get(difference)
    if exact is not None:
        return exact
    return 1.0 / (1.0 + 10.0 ** (-difference / 400.0))


def performance_difference(p: Fraction) -> int | float:
    """D(p) = -400 lg((1 - p) / p), with D(0) = -800 and D(1) = 800."""
    if p <= 0:
        return -800
    if p >= 1:
        return 800
    return _difference(p.denominator - p.numerator, p.numerator)


@lru_cache(maxsize=65536)
def _difference(lose: int, win: int) -> int | float:
    """-400 lg(lose / win) for positive integers: exact for powers of ten."""
    if lose == win:
        return 0
    lg = log10_rational(Fraction(lose, win))
    return -400 * lg


def provisional_rating(opponents_sum: int, games: int, half_points: int) -> Fraction | float:
    """Rp = Rc + D(p) F over `games` games: exact whenever D(p) is an integer.

    With T games, H half points and O the sum of the opponents' ratings: Rc = O / T,
    p = H / 2T, F = (T^2 + 2HT - H^2) / 2T^2, so Rp = (2T O + D (T^2 + 2HT - H^2)) / 2T^2.
    """
    rp = _provisional_rating_terms(opponents_sum, games, half_points)
    return Fraction(*rp) if isinstance(rp, tuple) else rp


def rounded_provisional_rating(opponents_sum: int, games: int, half_points: int) -> int:
    """round(Rp), as round_half_up(provisional_rating(...)) gives it, without building the Fraction
    (whose normalising gcd was most of a provisional player's cost)."""
    rp = _provisional_rating_terms(opponents_sum, games, half_points)
    return round_ratio(*rp) if isinstance(rp, tuple) else round_half_up(rp)


def _provisional_rating_terms(opponents_sum: int, games: int, half_points: int) -> tuple[int, int] | float:
    """Rp as (numerator, denominator) when D(p) is an integer, else as a float."""
    if half_points == 0:
        d = -800
    elif half_points == 2 * games:
        d = 800
    else:
        # p = H / 2T, so (1 - p) / p = (2T - H) / H.
        d = _difference(2 * games - half_points, half_points)
    f_numerator = games * games + 2 * half_points * games - half_points * half_points
    if isinstance(d, int):
        return 2 * games * opponents_sum + d * f_numerator, 2 * games * games
    return opponents_sum / games + d * f_numerator / (2 * games * games)


def correction_factor(p: Fraction) -> Fraction:
    """F = -2p^2 + 2p + 0.5."""
    return -2 * p * p + 2 * p + Fraction(1, 2)


@lru_cache(maxsize=65536)
def development_coefficient(rating: int, games_before: int) -> Fraction:
    """k = r x p of the table: r by the rating Ro, p by the games Pn before the tournament."""
    if rating >= 2400:
        r = Fraction(10)
    elif rating > 2000:
        r = 70 - Fraction(rating, 40)
    else:
        r = Fraction(20)
    if games_before >= 80:
        p = Fraction(1)
    elif games_before > 30:
        p = Fraction(14, 10) - Fraction(games_before, 200)
    elif games_before > 15:
        p = Fraction(5, 4)
    else:
        p = Fraction(3, 2)
    return r * p


def cut(opponent_rating: int, own_rating: int | None) -> int:
    """The cut-off: an opponent more than 400 away counts as 400 away (none without own rating)."""
    if own_rating is None:
        return opponent_rating
    return min(own_rating + CUT_OFF, max(own_rating - CUT_OFF, opponent_rating))


def _expectation_tables() -> tuple[list[int], list[float]]:
    """For a difference D in [-400, 400], at index D + 400: We in 22nds where it is exact
    (D = 0, +-400), else 0; the float 1 / (1 + 10^(-D/400)) where it is not, else 0.0."""
    exact = {0: 11, CUT_OFF: 20, -CUT_OFF: 2}
    in_22nds, floats = [], []
    for difference in range(-CUT_OFF, CUT_OFF + 1):
        in_22nds.append(exact.get(difference, 0))
        floats.append(0.0 if difference in exact else 1.0 / (1.0 + 10.0 ** (-difference / 400.0)))
    return in_22nds, floats


_EXACT_22NDS, _FLOAT_TERM = _expectation_tables()

_OPPONENT_RATING = itemgetter(0)  # of a PlayedGame
_HALF_POINTS = itemgetter(1)


class PlayedGame(NamedTuple):
    """A rated game kept for a provisional rating: the opponent as he counted then."""

    opponent_rating: int  # entry rating, after the cut-off of that time
    half_points: int
    tournament: Hashable | None = None
    round: int = 0
    opponent: PlayerId | None = None


# The state, the participant and the result are named tuples built with tuple.__new__: a million-
# game run makes hundreds of thousands of each, and a frozen dataclass sets every field through
# object.__setattr__ (the reprs, which the golden test hashes, are the same).
_new = tuple.__new__


class PlayChessState(NamedTuple):
    rating: int | None = None
    games: int = 0  # finished rated games so far (Pn)
    history: tuple[PlayedGame, ...] = ()  # every rated game, kept while provisional

    @property
    def provisional(self) -> bool:
        return self.games < ESTABLISHED_GAMES


_NO_STATE = PlayChessState()


class PlayChessParticipant(NamedTuple):
    id: PlayerId
    state: PlayChessState = _NO_STATE
    fide_rating: int | None = None  # an approved FIDE rating: the entry rating until he has his own


class PlayChessPlayerResult(NamedTuple):
    id: PlayerId
    entry_rating: int
    rating_before: int | None
    games_before: int
    mode: str = PROVISIONAL
    games: int = 0
    half_points: int = 0
    # Provisional: over all games so far, the sum of the opponents' ratings, the games and the
    # half points; Rc, p, D(p) and F follow from them.
    opponents_sum: int = 0
    all_games: int = 0
    all_half_points: int = 0
    k: Fraction | None = None  # established
    expected: float | Fraction | None = None  # established: sum of We
    change: float | Fraction | None = None  # established: sum of dR
    rating_after: int | None = None
    provisional_after: bool = True
    lines: list[tuple[int, PlayerId, int, int]] = []  # round, opponent, rating, hp
    state_after: PlayChessState | None = None

    @property
    def rc(self) -> Fraction | None:
        return Fraction(self.opponents_sum, self.all_games) if self.all_games else None

    @property
    def p(self) -> Fraction | None:
        return Fraction(self.all_half_points, 2 * self.all_games) if self.all_games else None

    @property
    def d(self) -> int | float | None:
        return performance_difference(self.p) if self.all_games else None

    @property
    def f(self) -> Fraction | None:
        return correction_factor(self.p) if self.all_games else None

    def details(self) -> dict:
        def num(value, places):
            return None if value is None else str(round_to(value, places))

        return {
            "mode": self.mode,
            "entry_rating": self.entry_rating,
            "Pn": self.games_before,
            "N": self.games,
            "S": half_points_text(self.half_points),
            "Rc": num(self.rc, 2),
            "p": num(self.p, 4),
            "D": num(self.d, 2),
            "F": num(self.f, 4),
            "k": num(self.k, 4),
            "We": num(self.expected, 4),
            "dR": num(self.change, 4),
            "games": self.lines,  # (round, opponent, opponent rating as used, half points)
        }


def entry_rating(p: PlayChessParticipant, default: int) -> int:
    if p.state.rating is not None:
        return p.state.rating
    if p.fide_rating is not None:
        return p.fide_rating
    return default


# A player without a rating has no cut-off: bounds no entry rating reaches.
_UNBOUNDED = 10**12


def rate_tournament(
    participants: Sequence[PlayChessParticipant],
    games: Iterable[Game],
    *,
    default_entry_rating: int = DEFAULT_ENTRY_RATING,
    tournament_id: Hashable | None = None,
) -> dict[PlayerId, PlayChessPlayerResult]:
    """Rate one tournament: each participant's games are gathered in one pass over the games,
    as the lines of his details (the opponent's entry rating already cut against his own), so
    that the per-player calculations only read them."""
    # Per participant, one record the game loop reads with one look-up: his entry rating, the
    # bounds of his cut-off and his lines' append.
    lines_of = {}
    seen = {}
    for p in participants:
        pid, state, fide = p
        ro = state[0]
        entry = ro if ro is not None else fide if fide is not None else default_entry_rating
        own: list = []
        lines_of[pid] = own
        if ro is None:
            seen[pid] = (entry, -_UNBOUNDED, _UNBOUNDED, own.append)
        else:
            seen[pid] = (entry, ro - CUT_OFF, ro + CUT_OFF, own.append)
    half_points_of = WHITE_HALF_POINTS.get
    for game in games:
        rnd, white, black, result, kind = game
        if kind != PLAYED or black is None:
            continue
        hp = half_points_of(result)
        if hp is None or white == black:
            rated_games([game])  # raises the message for this game
        w = seen.get(white)
        b = seen.get(black)
        if w is None or b is None:
            stranger = white if w is None else black
            raise ValueError(f"round {rnd}: player {stranger!r} is not a participant")
        # Each sees the other's entry rating, cut to within 400 of his own rating.
        rating = b[0]
        low = w[1]
        high = w[2]
        w[3]((rnd, black, low if rating < low else high if rating > high else rating, hp))
        rating = w[0]
        low = b[1]
        high = b[2]
        b[3]((rnd, white, low if rating < low else high if rating > high else rating, 2 - hp))

    results = {}
    for p in participants:
        pid, state, _ = p
        lines = lines_of[pid]
        ro, games_before, _ = state
        if not lines:
            provisional = games_before < ESTABLISHED_GAMES
            results[pid] = _new(
                PlayChessPlayerResult,
                (
                    pid,
                    seen[pid][0],
                    ro,
                    games_before,
                    ESTABLISHED if not provisional else PROVISIONAL,
                    *_UNPLAYED,
                    ro,
                    provisional,
                    lines,
                    state,
                ),
            )
        elif games_before < ESTABLISHED_GAMES or ro is None:
            results[pid] = _provisional(pid, seen[pid][0], state, lines, tournament_id)
        else:
            results[pid] = _established(pid, state, lines)
    return results


_UNPLAYED = (0, 0, 0, 0, 0, None, None, None)  # games ... change of a player without games
_RATING_AS_USED = itemgetter(2)  # of a line
_LINE_HALF_POINTS = itemgetter(3)


def _established(pid: PlayerId, state: PlayChessState, lines: list) -> PlayChessPlayerResult:
    ro, games_before, _ = state
    k, k_float = _coefficient(ro, games_before)
    # We is 1/2, 10/11 or 1/11 at D = 0, +400, -400 (exact; kept in 22nds), otherwise a float.
    # Differences after the cut-off lie in [-400, 400]: each game's term is read from two tables
    # indexed by high - rating = difference + 400, computed by the same expression as before,
    # so the sum adds the same floats in the same order (adding an exact game's 0.0 changes
    # nothing; every float term is positive, so a positive sum means a float term was added).
    exact_22nds = 0
    float_sum = 0.0
    high = ro + CUT_OFF
    exact_table, float_table = _EXACT_22NDS, _FLOAT_TERM
    for index in map(high.__sub__, map(_RATING_AS_USED, lines)):
        exact_22nds += exact_table[index]
        float_sum += float_table[index]
    half_points = sum(map(_LINE_HALF_POINTS, lines))
    if float_sum > 0.0:
        expected = exact_22nds / 22 + float_sum
        change = k_float * ((11 * half_points - exact_22nds) / 22 - float_sum)
    else:
        expected = Fraction(exact_22nds, 22)
        change = k * Fraction(11 * half_points - exact_22nds, 22)
    after = max(0, round_half_up(ro + change))
    games = games_before + len(lines)
    provisional = games < ESTABLISHED_GAMES
    return _new(
        PlayChessPlayerResult,
        (
            pid,
            ro,
            ro,
            games_before,
            ESTABLISHED,
            len(lines),
            half_points,
            0,
            0,
            0,
            k,
            expected,
            change,
            after,
            provisional,
            lines,
            _new(PlayChessState, (after, games, ())),
        ),
    )


def _provisional(pid: PlayerId, entry: int, state: PlayChessState, lines: list, tournament_id) -> PlayChessPlayerResult:
    ro, games_before, kept = state
    # Sums over the kept games and the lines at C speed (map over item getters).
    opponents = sum(map(_OPPONENT_RATING, kept)) + sum(map(_RATING_AS_USED, lines))
    own_half_points = sum(map(_LINE_HALF_POINTS, lines))
    half_points = sum(map(_HALF_POINTS, kept)) + own_half_points
    total = len(kept) + len(lines)
    after = max(0, rounded_provisional_rating(opponents, total, half_points))
    games = games_before + len(lines)
    provisional = games < ESTABLISHED_GAMES
    if provisional:
        new = _new
        history = (
            *kept,
            *[new(PlayedGame, (rating, hp, tournament_id, rnd, opponent)) for rnd, opponent, rating, hp in lines],
        )
    else:
        history = ()
    return _new(
        PlayChessPlayerResult,
        (
            pid,
            entry,
            ro,
            games_before,
            PROVISIONAL,
            len(lines),
            own_half_points,
            opponents,
            total,
            half_points,
            None,
            None,
            None,
            after,
            provisional,
            lines,
            _new(PlayChessState, (after, games, history)),
        ),
    )


@lru_cache(maxsize=65536)
def _coefficient(rating: int, games_before: int) -> tuple[Fraction, float]:
    """k and float(k): Fraction.__float__ was a tenth of an established player's cost."""
    k = development_coefficient(rating, games_before)
    return k, float(k)
