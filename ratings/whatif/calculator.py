"""The public what-if calculator: one player against some opponents, rated by the rating run's code.

A player given by federation id is rated from his standing in the lists; one given by a rating
and status stands for a player with that rating (a provisional one with no earlier games the
calculator could know: only these games count for his provisional rating). Opponents given by
a rating are established players with that rating. Nothing is written (ratings.whatif.predict).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.conf import settings

from players.models import Player
from ratings.engines.common import Game
from ratings.timeline.sources import Entrant, Facts, TournamentEvent
from ratings.timeline.state import ENGINE_SYSTEMS, Standing
from ratings.whatif.predict import PREDICTED_TOURNAMENT_ID, Change, predict

SUBJECT = -1  # the player given by a rating, on the replay
RESULTS = {1.0: "1-0", 0.5: "1/2-1/2", 0.0: "0-1"}


@dataclass(frozen=True)
class Opponent:
    player: Player | None  # by federation id
    rating: int | None  # or by rating
    score: float  # the calculated player's score against him: 1, 0.5 or 0


@dataclass(frozen=True)
class Subject:
    player: Player | None  # by federation id, or:
    rating: int | None = None
    provisional: bool = False
    games: int = 0
    birth_year: int | None = None


def calculate(
    subject: Subject, opponents: list[Opponent], *, day: datetime.date, weight: int | None = None
) -> dict[str, Change]:
    """The player's change in each system that rates him here: {system: Change}."""
    facts: dict[int, Facts] = {}
    standings: dict[str, dict[int, Standing | None]] = {s: {} for s in ENGINE_SYSTEMS}
    if subject.player is not None:
        me = subject.player.pk
        facts[me] = Facts(subject.player.kind, subject.player.birth_date, subject.player.birth_precision)
    else:
        me = SUBJECT
        born = datetime.date(subject.birth_year, 1, 1) if subject.birth_year else None
        facts[me] = Facts(
            Player.Kind.HUMAN, born, Player.BirthPrecision.YEAR if born else Player.BirthPrecision.UNKNOWN
        )
        for system in ENGINE_SYSTEMS:
            standings[system][me] = (
                Standing(
                    rating=subject.rating,
                    provisional=subject.provisional and system != "mchess",
                    games=subject.games,
                    tournaments=1 if subject.games else 0,
                )
                if subject.rating is not None
                else None
            )
    games = []
    for number, opponent in enumerate(opponents, start=1):
        if opponent.player is not None:
            them = opponent.player.pk
            facts.setdefault(
                them, Facts(opponent.player.kind, opponent.player.birth_date, opponent.player.birth_precision)
            )
        else:
            them = SUBJECT - number
            facts[them] = Facts(Player.Kind.HUMAN, None, Player.BirthPrecision.UNKNOWN)
            for system in ENGINE_SYSTEMS:
                standings[system][them] = Standing(rating=opponent.rating, games=50, tournaments=5)
        games.append(Game(number, me, them, RESULTS[opponent.score]))
    event = TournamentEvent(
        PREDICTED_TOURNAMENT_ID,
        day,
        day,
        False,
        True,
        True,
        weight or settings.MCHESS_DEFAULT_WEIGHT,
        [Entrant(pid, None, False) for pid in facts],
        games,
    )
    return predict(event, facts, standings=standings).changes.get(me, {})
