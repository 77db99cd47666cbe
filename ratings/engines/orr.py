"""ORR — the Open Russian Rating, exactly as docs/rules/orr.md defines it.

One call rates one tournament: `rate_tournament(OrrTournament) -> OrrTournamentResult`.
The input carries each participant's ORR state at the tournament's start (rating,
provisional flag, stored games, tournaments counted so far); the result carries
every intermediate number of the calculation and each participant's state after
it, which the caller stores and feeds into the next tournament in rating order.

Numbers are computed exactly where the specification's rounding can meet a true
half: scores are kept in half points, PD and SR in hundredths (integers), ages in
1/1461 of a year (365.25 days = 1461/4), and every mean or ratio is a Fraction.
Only logarithms and exponentials are floats.
"""

from __future__ import annotations

import bisect
import datetime
import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from operator import itemgetter
from typing import NamedTuple

from ratings.engines.common import (
    Game,
    PlayerId,
    cents_text,
    floor_log10,
    games_by_player,
    half_points_text,
    log10_rational,
    round_half_up,
    round_ratio,
    round_to,
)

# --- Section 1: the standard calculation ---------------------------------------------------

# (lowest rating of the band, K if SR >= 0, K if SR < 0); a rating of 0 uses the first band.
K_TABLE = (
    (0, 100, 5),
    (100, 100, 10),
    (200, 100, 15),
    (300, 100, 20),
    (400, 100, 25),
    (500, 90, 25),
    (600, 80, 25),
    (700, 70, 25),
    (800, 60, 25),
    (900, 50, 25),
    (1000, 45, 25),
    (1100, 40, 25),
    (1300, 35, 25),
    (1500, 30, 25),
    (1700, 25, 20),
    (2000, 20, 20),
    (2200, 16, 16),
    (2400, 12, 12),
)
_K_BOUNDS = [band[0] for band in K_TABLE]

ESTABLISHED_GAMES = 11
ESTABLISHED_TOURNAMENTS = 2
MIN_AGE, MAX_AGE = 5, 13
# Ages are measured in units of 1/1461 year: (days / 365.25) years = 4 * days units.
_UNITS_PER_YEAR = 1461
KT_MIN, KT_MAX = 8, 25


def k_factor(rating: int, sr_nonnegative: bool) -> int:
    """K by the rating at the start of the tournament and the sign of SR."""
    band = K_TABLE[max(0, bisect.bisect_right(_K_BOUNDS, rating) - 1)]
    return band[1] if sr_nonnegative else band[2]


def pd_cents(rating: int, opponent_rating: int) -> int:
    """PD = 1 / (1 + 10^((Rb - Ra)/400)) rounded to 2 decimals, in hundredths."""
    return _pd_cents(opponent_rating - rating)


@lru_cache(maxsize=16384)
def _pd_cents(difference: int) -> int:
    # PD depends on the difference only, so a few thousand values cover every game. PD is
    # rational only for differences of 0, ±400, ±800, ... and none of those gives an exact
    # half hundredth, so the float is always on the right side of the rounding.
    pd = 1.0 / (1.0 + 10.0 ** (difference / 400.0))
    return round_half_up(pd * 100)


def rating_change(k: int, sr_cents: int) -> Fraction:
    """R± from K and SR (SR in hundredths): K SR for SR < 0, 10 K for SR > 20, else K SR (1 - SR/40).

    With SR = c/100 the last is K c (4000 - c) / 400 000: one exact fraction of integers.
    """
    if sr_cents < 0:
        return Fraction(k * sr_cents, 100)
    if sr_cents > 2000:
        return Fraction(k * 10)
    return Fraction(k * sr_cents * (4000 - sr_cents), 400_000)


def new_rating(rating: int, change: Fraction) -> int:
    """round(R + R±); a rating never goes below 0."""
    denominator = change.denominator
    return max(0, round_ratio(rating * denominator + change.numerator, denominator))


# --- Section 2: ages, the tournament coefficient, corridors, estimates ----------------------


def age_units(birth_date: datetime.date | None, precision: str, start: datetime.date) -> int:
    """The clamped age [5, 13] at the tournament's start, in 1/1461 year.

    Day unknown: born 1 July of the year. Year unknown: age 5 (the seed's corridor rule).
    """
    if birth_date is None or precision == "unknown":
        return MIN_AGE * _UNITS_PER_YEAR
    if precision == "year":
        birth_date = datetime.date(birth_date.year, 7, 1)
    units = 4 * (start - birth_date).days
    return min(max(units, MIN_AGE * _UNITS_PER_YEAR), MAX_AGE * _UNITS_PER_YEAR)


def mean_age(units: Sequence[int]) -> Fraction:
    """Yavg: the mean of clamped ages, rounded to 1 decimal (exactly)."""
    tenths = round_half_up(Fraction(10 * sum(units), len(units) * _UNITS_PER_YEAR))
    return Fraction(tenths, 10)


def player_coefficient(rating: int, games: int, half_points: int, yavg: Fraction) -> float:
    """Ki = (20 e^A - 5) / Yavg with A = (800 (1 - S/N) + R) / 1000."""
    a = (800 * (1 - half_points / (2 * games)) + rating) / 1000
    return (20 * math.exp(a) - 5) / float(yavg)


def rounded_sqrt(number: int) -> int:
    """round(sqrt(Np)) exactly: sqrt(Np) >= n + 1/2 exactly when Np > n^2 + n."""
    root = math.isqrt(number)
    return root + 1 if number > root * root + root else root


@dataclass(frozen=True, slots=True)
class Coefficient:
    kt: int
    mean_ki: float | None  # before flooring and clamping; None when no player has a rating
    np: int  # all participants
    n: int  # round(sqrt(Np))
    i: int  # players the coefficient comes from
    lowered: bool  # i < n: the coefficient was lowered


def tournament_coefficient(kis: Sequence[float], participants: int) -> Coefficient:
    """Kt from the Ki of the players with a rating for the calculation."""
    n = rounded_sqrt(participants)
    i = len(kis)
    if i == 0:
        return Coefficient(KT_MIN, None, participants, n, 0, lowered=n > 0)
    mean = math.fsum(kis) / i
    kt = min(max(math.floor(mean), KT_MIN), KT_MAX)
    lowered = i < n
    if lowered:
        kt = max(KT_MIN, 7 + (kt - 8) // (n - i))
    return Coefficient(kt, mean, participants, n, i, lowered)


@dataclass(frozen=True, slots=True)
class Corridor:
    rmax: int
    rmin: int
    rpmax: int


def corridor(kt: int, yavg: Fraction, games: int) -> Corridor:
    """Rmax, Rmin and Rpmax of a newcomer (2.2)."""
    rmax = round_half_up(1000 * math.log(float((kt * yavg + 5) / 20)))
    rmin = min(rmax - 800, 1000)
    if games >= 7:
        rpmax = rmax
    else:
        rpmax = rmax - ((rmax - rmin) // 16) * (1 - floor_log10(games + 3)) * (7 - games)
    return Corridor(rmax, rmin, rpmax)


def start_estimate(c: Corridor, games: int, half_points: int) -> int:
    """Rs = round(Rmin + (Rpmax - Rmin) * S/N)."""
    return round_half_up(c.rmin + (c.rpmax - c.rmin) * Fraction(half_points, 2 * games))


def performance(rsr: int, games: int, half_points: int) -> int:
    """round(Rsr - 400 lg(N/S - 1)) for 0 < S < N (S in half points)."""
    x = Fraction(2 * games - half_points, half_points)
    lg = log10_rational(x)
    if isinstance(lg, int):
        return rsr - 400 * lg
    return round_half_up(rsr - 400 * lg)


def correct_for_many_games(rp: int, rpmax: int, games: int) -> int:
    """The N > 15 correction: round(Rp - [lg((N+4)/2)] [Rp/Rpmax] (N-15)(Rp-Rpmax)/20)."""
    if games <= 15:
        return rp
    factor = floor_log10(Fraction(games + 4, 2)) * (rp // rpmax)
    return round_half_up(rp - Fraction(factor * (games - 15) * (rp - rpmax), 20))


@dataclass(frozen=True, slots=True)
class Estimate:
    """Rsr and the estimate (Rp or Rkor) from a set of games, with the fictitious draw if any."""

    rsr: int
    value: int
    fictitious_opponent: int | None
    corrected_from: int | None  # the estimate before the N > 15 correction, when it changed it


def estimate(
    opponent_ratings: Sequence[int], half_points: int, fictitious: int, rpmax: int, zero_score_value: int
) -> Estimate:
    """Rp (2.3) or Rkor (2.4): the same formula over a set of games.

    100 %: one fictitious draw against `fictitious` joins the games and the mean.
    0 %: the estimate is `zero_score_value` (Rs for a newcomer).
    """
    games = len(opponent_ratings)
    ratings = list(opponent_ratings)
    fictitious_opponent = None
    n, hp = games, half_points
    if half_points == 2 * games:
        fictitious_opponent = fictitious
        ratings.append(fictitious)
        n, hp = games + 1, half_points + 1
    rsr = round_half_up(Fraction(sum(ratings), len(ratings)))
    value = zero_score_value if half_points == 0 else performance(rsr, n, hp)
    corrected = correct_for_many_games(value, rpmax, games)
    return Estimate(rsr, corrected, fictitious_opponent, value if corrected != value else None)


# --- Input and output ---------------------------------------------------------------------


class StoredGame(NamedTuple):
    """A game kept for a newcomer's or provisional player's own later re-calculation."""

    opponent_rating: int
    half_points: int  # 0, 1 or 2
    tournament: Hashable | None = None
    round: int = 0
    opponent: PlayerId | None = None


@dataclass(frozen=True, slots=True)
class OrrState:
    """A player's ORR standing between tournaments."""

    rating: int | None = None  # None: no ORR rating yet
    provisional: bool = False
    # While provisional (or a newcomer who scored nothing): every game since the rating began.
    stored_games: tuple[StoredGame, ...] = ()
    # Tournaments counted towards an established rating (from the one where the rating began).
    tournaments: int = 0

    @property
    def games(self) -> int:
        return len(self.stored_games)


@dataclass(frozen=True, slots=True)
class OrrParticipant:
    id: PlayerId
    state: OrrState = OrrState()
    fide_rating: int | None = None  # the FIDE rating in the tournament's file
    # A FIDE rating the federation approved (FIDE-rating import application).
    approved_fide_rating: int | None = None
    birth_date: datetime.date | None = None
    birth_precision: str = "day"  # "day", "year" or "unknown"
    guest: bool = False


@dataclass(frozen=True, slots=True)
class OrrTournament:
    start_date: datetime.date
    participants: tuple[OrrParticipant, ...]
    games: tuple[Game, ...]
    id: Hashable | None = None
    fide_rated: bool = False  # the FIDE ratings in the file count as ratings for the calculation

    def usable_fide_rating(self, p: OrrParticipant) -> int | None:
        """2.2: the file's FIDE rating in a FIDE-rated tournament, otherwise an approved one."""
        if self.fide_rated and p.fide_rating:
            return p.fide_rating
        return p.approved_fide_rating


ESTABLISHED = "established"
FIDE = "fide"
PROVISIONAL = "provisional"
NEWCOMER = "newcomer"
NO_GAMES = "no_games"


# tuple.__new__ builds a named tuple without the Python frame of its __new__ (millions per run).
_new = tuple.__new__


class GameLine(NamedTuple):
    """One game of the calculation. Stored as it is, a JSON array, in details["games"]: a tuple
    costs nothing to keep, and there is one per game and player of the whole history."""

    round: int
    opponent: PlayerId | None  # None: the fictitious draw, or a stored game's unknown opponent
    opponent_rating: int
    half_points: int
    pd_cents: int  # PD in hundredths; DR = score - PD
    stored: bool = False  # from an earlier tournament (provisional history)

    @property
    def dr_cents(self) -> int:
        return 50 * self.half_points - self.pd_cents


@dataclass(slots=True)
class OrrPlayerResult:
    id: PlayerId
    category: str
    guest: bool
    rating_before: int | None
    provisional_before: bool
    games: int  # N: played games in this tournament
    half_points: int  # S in half points, this tournament
    yavg: Fraction | None = None
    ki: float | None = None
    corridor: Corridor | None = None
    rs: int | None = None
    rp: int | None = None
    rp_uncorrected: int | None = None
    rsr: int | None = None
    rkor: int | None = None
    fictitious_opponent: int | None = None
    rating_for_calculation: int | None = None  # what opponents used for him (R, FIDE or Rp)
    own_rating: int | None = None  # Ra of his own section-1 calculation (R, Rp or Rkor)
    total_games: int = 0  # games behind his own calculation (with stored ones)
    total_half_points: int = 0
    sr_cents: int = 0
    k: int | None = None
    change: Fraction | None = None
    rating_after: int | None = None
    provisional_after: bool = False
    enters_list: bool = False
    lines: list[GameLine] = field(default_factory=list)
    state_after: OrrState | None = None  # None for a guest: his record is not changed

    @property
    def score(self) -> Fraction:
        return Fraction(self.half_points, 2)

    @property
    def sr(self) -> Decimal:
        return Decimal(self.sr_cents).scaleb(-2)

    def details(self) -> dict:
        """Every number of the calculation, as JSON-ready values (what reports show)."""
        c = self.corridor
        return {
            "category": self.category,
            "N": self.games,
            "S": _half_points_text(self.half_points),
            "Yavg": _fraction_text(self.yavg.numerator, self.yavg.denominator, 1) if self.yavg is not None else None,
            "Ki": str(round_to(self.ki, 2)) if self.ki is not None else None,
            "Rmax": c.rmax if c else None,
            "Rmin": c.rmin if c else None,
            "Rpmax": c.rpmax if c else None,
            "Rs": self.rs,
            "Rsr": self.rsr,
            "Rp": self.rp,
            "Rp_uncorrected": self.rp_uncorrected,
            "Rkor": self.rkor,
            "fictitious_opponent": self.fictitious_opponent,
            "R_calc": self.rating_for_calculation,
            "Ra": self.own_rating,
            "N_total": self.total_games,
            "S_total": _half_points_text(self.total_half_points),
            "SR": cents_text(self.sr_cents),
            "K": self.k,
            "R_change": _fraction_text(r.numerator, r.denominator, 4) if (r := self.change) is not None else None,
            "games": [*map(tuple, self.lines)],  # plain tuples: the JSON encoder takes them as they are
        }


# The details' texts repeat (a score, a mean age, a rating change of a K and an SR): each is made
# once, not once per player of the history (a Fraction and a Decimal per call).
_half_points_text = lru_cache(maxsize=1024)(half_points_text)


@lru_cache(maxsize=65536)
def _fraction_text(numerator: int, denominator: int, places: int) -> str:
    return str(round_to(Fraction(numerator, denominator), places))


@dataclass(slots=True)
class OrrTournamentResult:
    coefficient: Coefficient
    players: dict[PlayerId, OrrPlayerResult]

    @property
    def kt(self) -> int:
        return self.coefficient.kt


# --- The calculation ----------------------------------------------------------------------


def rate_tournament(tournament: OrrTournament) -> OrrTournamentResult:
    participants = {p.id: p for p in tournament.participants}
    if len(participants) != len(tournament.participants):
        raise ValueError("a player is listed twice among the participants")
    # Each player's played games as (round, opponent, own half points).
    played = games_by_player(tournament.games, participants)

    ages = {pid: age_units(p.birth_date, p.birth_precision, tournament.start_date) for pid, p in participants.items()}
    results: dict[PlayerId, OrrPlayerResult] = {}
    base: dict[PlayerId, int | None] = {}
    for pid, p in participants.items():
        own = played.get(pid, [])
        state = p.state
        if state.rating is not None:
            category = PROVISIONAL if state.provisional else ESTABLISHED
            base[pid] = state.rating
        elif (fide := tournament.usable_fide_rating(p)) is not None:
            category = FIDE
            base[pid] = fide
        else:
            category = NEWCOMER
            base[pid] = None
        result = OrrPlayerResult(
            id=pid,
            category=category if own else NO_GAMES,
            guest=p.guest,
            rating_before=base[pid],
            provisional_before=state.rating is not None and state.provisional,
            games=len(own),
            half_points=sum(hp for _, _, hp in own),
        )
        if own:
            result.yavg = mean_age([ages[opponent] for _, opponent, _ in own])
        results[pid] = result

    # 2.1 The tournament coefficient, from the players with a rating for the calculation.
    kis = []
    for pid, result in results.items():
        if base[pid] is not None and result.games:
            result.ki = player_coefficient(base[pid], result.games, result.half_points, result.yavg)
            kis.append(result.ki)
    coefficient = tournament_coefficient(kis, len(participants))
    kt = coefficient.kt

    # 2.2 Corridors and start estimates of the newcomers.
    for result in results.values():
        if result.category == NEWCOMER:
            result.corridor = corridor(kt, result.yavg, result.games)
            result.rs = start_estimate(result.corridor, result.games, result.half_points)

    def calc_rating(pid: PlayerId) -> int:
        rating = base[pid]
        return rating if rating is not None else results[pid].rs

    # 2.3 Primary estimates: every newcomer's Rp becomes his rating for the calculation.
    calc: dict[PlayerId, int | None] = dict(base)
    for pid, result in results.items():
        if result.category != NEWCOMER:
            continue
        opponents = [calc_rating(opponent) for _, opponent, _ in played[pid]]
        est = estimate(opponents, result.half_points, result.rs, result.corridor.rpmax, result.rs)
        result.rsr, result.rp, result.fictitious_opponent = est.rsr, est.value, est.fictitious_opponent
        result.rp_uncorrected = est.corrected_from
        calc[pid] = result.rp
    for pid, result in results.items():
        result.rating_for_calculation = calc[pid]

    # Section 1 for everyone, with the own-rating corrections of 2.3 and 2.4.
    for pid, result in results.items():
        if result.games:
            _rate_player(participants[pid], result, played[pid], calc, kt, tournament.id)
        else:
            _carry_over(participants[pid], result)
    return OrrTournamentResult(coefficient, results)


# Fields by position (StoredGame: opponent_rating, half_points; GameLine: half_points, pd_cents),
# read in C by map() over a player's whole history.
_OPPONENT_RATING, _HALF_POINTS = itemgetter(0), itemgetter(1)
_LINE_HALF_POINTS, _LINE_PD = itemgetter(3), itemgetter(4)


def _section_one(rating: int, lines: list[GameLine]) -> tuple[int, int, Fraction]:
    # Sum of DR = score - PD over the lines, in C: a provisional player's lines include every
    # stored game, and the property per line was the engine's largest single cost.
    sr_cents = 50 * sum(map(_LINE_HALF_POINTS, lines)) - sum(map(_LINE_PD, lines))
    k = k_factor(rating, sr_cents >= 0)
    return sr_cents, k, rating_change(k, sr_cents)


def _lines(rating: int, games, calc, stored: tuple[StoredGame, ...] = ()) -> list[GameLine]:
    pd = _pd_cents  # pd_cents(rating, r) without its frame: once per game and player
    lines = [
        _new(GameLine, (rnd, opponent, opponent_rating, hp, pd(opponent_rating - rating), True))
        for opponent_rating, hp, _, rnd, opponent in stored
    ]
    for rnd, opponent, hp in games:
        opponent_rating = calc[opponent]
        lines.append(_new(GameLine, (rnd, opponent, opponent_rating, hp, pd(opponent_rating - rating), False)))
    return lines


def _rate_player(p: OrrParticipant, result: OrrPlayerResult, games, calc, kt: int, tournament_id) -> None:
    state = p.state
    if result.category in (ESTABLISHED, FIDE):
        ra = calc[p.id]
        result.own_rating = ra
        result.lines = _lines(ra, games, calc)
        result.total_games, result.total_half_points = result.games, result.half_points
        result.sr_cents, result.k, result.change = _section_one(ra, result.lines)
        result.rating_after = new_rating(ra, result.change)
        result.provisional_after = False
        result.enters_list = not p.guest
        result.state_after = None if p.guest else OrrState(result.rating_after)
        return

    # Newcomers and provisional players: their own rating comes from all their games so far.
    new_games = tuple(
        _new(StoredGame, (calc[opponent], hp, tournament_id, rnd, opponent)) for rnd, opponent, hp in games
    )
    history = state.stored_games
    all_games = history + new_games
    total_hp = sum(map(_HALF_POINTS, all_games))
    result.total_games, result.total_half_points = len(all_games), total_hp
    scoreless = result.category == NEWCOMER and total_hp == 0
    if result.category == NEWCOMER and (scoreless or not history):
        ra = result.rp
    else:
        if result.category == PROVISIONAL:
            fictitious = state.rating
            result.corridor = corridor(kt, result.yavg, result.games)
        else:
            fictitious = result.rs
        # The zero-score case cannot arise here (a provisional player scored when he got
        # his rating); should it, his rating stays what it was.
        est = estimate(list(map(_OPPONENT_RATING, all_games)), total_hp, fictitious, result.corridor.rpmax, fictitious)
        result.rsr, result.rkor, result.fictitious_opponent = est.rsr, est.value, est.fictitious_opponent
        ra = result.rkor
    result.own_rating = ra
    result.lines = _lines(ra, games, calc, history)
    result.sr_cents, result.k, result.change = _section_one(ra, result.lines)

    if scoreless:
        # 2.3: a newcomer with 0 points gets no rating; his games are kept for later.
        result.rating_after = None
        result.enters_list = False
        result.state_after = None if p.guest else OrrState(None, False, all_games, 0)
        return
    result.rating_after = new_rating(ra, result.change)
    tournaments = state.tournaments + 1
    established = len(all_games) >= ESTABLISHED_GAMES and tournaments >= ESTABLISHED_TOURNAMENTS
    result.provisional_after = not established
    result.enters_list = not p.guest
    if p.guest:
        result.state_after = None
    elif established:
        result.state_after = OrrState(result.rating_after)
    else:
        result.state_after = OrrState(result.rating_after, True, all_games, tournaments)


def _carry_over(p: OrrParticipant, result: OrrPlayerResult) -> None:
    """No played game: nothing changes (forfeits and byes are shown, never rated)."""
    result.rating_after = p.state.rating
    result.provisional_after = p.state.provisional
    result.enters_list = p.state.rating is not None and not p.guest
    result.state_after = None if p.guest else p.state
