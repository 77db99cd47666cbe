"""A tournament rated on the current state, as the next event of the timeline, with no write.

The same path as a rating run (ratings.timeline.tournament.rate on a Replay, the engines of
ratings/engines), on the standings of the players as the lists hold them now (PlayerRating)
and the approved FIDE ratings; the replay's writer collects the rows instead of streaming them
into the database and nothing is persisted. So the prediction equals the confirmed result when
the tournament is rated after every event already rated (a tournament dated after all others);
a tournament dated before others is re-rated with the later events replayed after it, which
this prediction does not do (the preview says so).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils import timezone

from players.models import FideImportApplication
from ratings.opening.models import OpeningEntry
from ratings.timeline import tournament as rate_tournament
from ratings.timeline.sources import Facts, TournamentEvent
from ratings.timeline.state import ENGINE_SYSTEMS, Standing
from ratings.timeline.walk import Replay

# The id a predicted tournament has on the replay (it has none yet: never an id of the database).
PREDICTED_TOURNAMENT_ID = 0


@dataclass
class Change:
    """One player's predicted change in one system, with the engine's details as the report shows them."""

    before: int | None
    after: int | None
    provisional_before: bool
    provisional_after: bool
    games: int
    score: object
    guest: bool
    details: dict = field(default_factory=dict)

    @property
    def delta(self) -> int | None:
        if self.before is None or self.after is None:
            return None
        return self.after - self.before


@dataclass
class Prediction:
    """Per player id: {system: Change} of the systems he is rated in by this tournament, and
    {system: (rating, provisional)} as the lists would show him after it."""

    changes: dict[int, dict[str, Change]] = field(default_factory=dict)
    listed: dict[int, dict[str, tuple[int | None, bool]]] = field(default_factory=dict)


def predict(
    event: TournamentEvent,
    facts: dict[int, Facts],
    *,
    standings: dict[str, dict[int, Standing | None]] | None = None,
) -> Prediction:
    """Rate `event` on the current standings, read from the database; write nothing.

    `facts`: every entrant's kind and birth date (new players: any id not in the database, with
    their facts from the file). `standings` preset some players' standings (the calculator's
    player given by a rating and status, opponents given by a rating) instead of reading them.
    """
    replay = Replay()
    replay.players = dict(facts)
    for system, table in (standings or {}).items():
        replay.standings[system].update(table)
    _load_approvals(replay, [pid for pid in facts if pid > 0])
    for system in ENGINE_SYSTEMS:
        # Ids not above 0 are players the database does not hold yet (newcomers): nothing to read.
        replay.standings[system].update(
            {pid: None for pid in facts if pid <= 0 and pid not in replay.standings[system]}
        )
        replay._load(system, list(facts))
    rows: list[tuple] = []
    replay.write = rows.append
    rate_tournament.rate(replay, event)
    prediction = Prediction()
    for row in rows:
        player_id, _tournament, _mobile, system, before, after, was_prov, prov, games, score, guest, _e, details = row
        prediction.changes.setdefault(player_id, {})[system] = Change(
            before, after, was_prov, prov, games, score, guest, details
        )
    for entrant in event.entrants:
        listed = prediction.listed.setdefault(entrant.player_id, {})
        for system in ENGINE_SYSTEMS:
            standing = replay.standings[system].get(entrant.player_id)
            listed[system] = (standing.rating, standing.provisional) if standing is not None else (None, False)
    return prediction


def _load_approvals(replay: Replay, player_ids: list[int]) -> None:
    """Replay.load_approvals for these players only: the approved FIDE imports and the opening
    lists' FIDE ratings (a rating run reads them for everyone; a prediction needs its entrants')."""
    approved = FideImportApplication.objects.filter(
        status=FideImportApplication.Status.APPROVED, player_id__in=player_ids, decided_at__isnull=False
    ).values_list("player_id", "decided_at", "fide_rating")
    for player_id, decided_at, rating in approved:
        replay.approved[player_id].append((timezone.localdate(decided_at), rating))
    listed = OpeningEntry.objects.filter(fide_rating__isnull=False, player_id__in=player_ids).values_list(
        "player_id", "opening__effective", "fide_rating"
    )
    for player_id, effective, rating in listed:
        replay.approved[player_id].append((effective, rating))
