"""PlayChess: the ICCF/IECG-style scheme of ../shared/spec/mchess-playchess.md.

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

from collections import defaultdict
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from ratings.engines.common import Game, PlayerId, log10_rational, rated_games, round_half_up, round_to

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
    lg = log10_rational((1 - p) / p)
    return -400 * lg


def correction_factor(p: Fraction) -> Fraction:
    """F = -2p^2 + 2p + 0.5."""
    return -2 * p * p + 2 * p + Fraction(1, 2)


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


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """A rated game kept for a provisional rating: the opponent as he counted then."""

    opponent_rating: int  # entry rating, after the cut-off of that time
    half_points: int
    tournament: Hashable | None = None
    round: int = 0
    opponent: PlayerId | None = None


@dataclass(frozen=True, slots=True)
class PlayChessState:
    rating: int | None = None
    games: int = 0  # finished rated games so far (Pn)
    history: tuple[PlayedGame, ...] = ()  # every rated game, kept while provisional

    @property
    def provisional(self) -> bool:
        return self.games < ESTABLISHED_GAMES


@dataclass(frozen=True, slots=True)
class PlayChessParticipant:
    id: PlayerId
    state: PlayChessState = PlayChessState()
    fide_rating: int | None = None  # an approved FIDE rating: the entry rating until he has his own


@dataclass(slots=True)
class PlayChessPlayerResult:
    id: PlayerId
    entry_rating: int
    rating_before: int | None
    games_before: int
    mode: str = PROVISIONAL
    games: int = 0
    half_points: int = 0
    rc: Fraction | None = None  # provisional: mean opponents' rating over all games
    p: Fraction | None = None  # provisional: the percentage over all games
    d: int | float | None = None
    f: Fraction | None = None
    k: Fraction | None = None  # established
    expected: float | Fraction | None = None  # established: sum of We
    change: float | Fraction | None = None  # established: sum of dR
    rating_after: int | None = None
    provisional_after: bool = True
    lines: list[tuple[int, PlayerId, int, int]] = field(default_factory=list)  # round, opponent, rating, hp
    state_after: PlayChessState | None = None

    def details(self) -> dict:
        def num(value, places):
            return None if value is None else str(round_to(value, places))

        return {
            "mode": self.mode,
            "entry_rating": self.entry_rating,
            "Pn": self.games_before,
            "N": self.games,
            "S": str(Fraction(self.half_points, 2)),
            "Rc": num(self.rc, 2),
            "p": num(self.p, 4),
            "D": num(self.d, 2),
            "F": num(self.f, 4),
            "k": num(self.k, 4),
            "We": num(self.expected, 4),
            "dR": num(self.change, 4),
            "games": [
                {"round": rnd, "opponent": opp, "opponent_rating": rating, "score": str(Fraction(hp, 2))}
                for rnd, opp, rating, hp in self.lines
            ],
        }


def entry_rating(p: PlayChessParticipant, default: int) -> int:
    if p.state.rating is not None:
        return p.state.rating
    if p.fide_rating is not None:
        return p.fide_rating
    return default


def rate_tournament(
    participants: Sequence[PlayChessParticipant],
    games: Iterable[Game],
    *,
    default_entry_rating: int = DEFAULT_ENTRY_RATING,
    tournament_id: Hashable | None = None,
) -> dict[PlayerId, PlayChessPlayerResult]:
    by_id = {p.id: p for p in participants}
    entry = {pid: entry_rating(p, default_entry_rating) for pid, p in by_id.items()}
    played: dict[PlayerId, list[tuple[int, PlayerId, int]]] = defaultdict(list)
    for game in rated_games(games):
        for pid in (game.white, game.black):
            if pid not in by_id:
                raise ValueError(f"round {game.round}: player {pid!r} is not a participant")
        hp = game.white_half_points
        played[game.white].append((game.round, game.black, hp))
        played[game.black].append((game.round, game.white, 2 - hp))

    results = {}
    for pid, p in by_id.items():
        result = PlayChessPlayerResult(pid, entry[pid], p.state.rating, p.state.games)
        own = played.get(pid, [])
        if not own:
            result.mode = ESTABLISHED if not p.state.provisional else PROVISIONAL
            result.rating_after = p.state.rating
            result.provisional_after = p.state.provisional
            result.state_after = p.state
        elif p.state.provisional or p.state.rating is None:
            _provisional(p, result, own, entry, tournament_id)
        else:
            _established(p, result, own, entry)
        results[pid] = result
    return results


def _established(p: PlayChessParticipant, result: PlayChessPlayerResult, own, entry) -> None:
    ro = p.state.rating
    result.mode = ESTABLISHED
    result.k = development_coefficient(ro, p.state.games)
    exact_sum = Fraction(0)
    float_sum = 0.0
    inexact = False
    for rnd, opponent, hp in own:
        rating = cut(entry[opponent], ro)
        result.lines.append((rnd, opponent, rating, hp))
        we = expectation(ro - rating)
        if isinstance(we, Fraction):
            exact_sum += we
        else:
            float_sum += we
            inexact = True
        result.games += 1
        result.half_points += hp
    score = Fraction(result.half_points, 2)
    if inexact:
        result.expected = float(exact_sum) + float_sum
        result.change = float(result.k) * (float(score - exact_sum) - float_sum)
    else:
        result.expected = exact_sum
        result.change = result.k * (score - exact_sum)
    result.rating_after = max(0, round_half_up(ro + result.change))
    games = p.state.games + result.games
    result.provisional_after = games < ESTABLISHED_GAMES
    result.state_after = PlayChessState(result.rating_after, games)


def _provisional(p: PlayChessParticipant, result: PlayChessPlayerResult, own, entry, tournament_id) -> None:
    ro = p.state.rating
    result.mode = PROVISIONAL
    new_games = []
    for rnd, opponent, hp in own:
        rating = cut(entry[opponent], ro)
        result.lines.append((rnd, opponent, rating, hp))
        new_games.append(PlayedGame(rating, hp, tournament_id, rnd, opponent))
        result.games += 1
        result.half_points += hp
    history = p.state.history + tuple(new_games)
    total = len(history)
    result.rc = Fraction(sum(g.opponent_rating for g in history), total)
    result.p = Fraction(sum(g.half_points for g in history), 2 * total)
    result.d = performance_difference(result.p)
    result.f = correction_factor(result.p)
    value = result.rc + (result.d * result.f if isinstance(result.d, int) else result.d * float(result.f))
    result.rating_after = max(0, round_half_up(value))
    games = p.state.games + result.games
    result.provisional_after = games < ESTABLISHED_GAMES
    result.state_after = PlayChessState(result.rating_after, games, () if not result.provisional_after else history)
