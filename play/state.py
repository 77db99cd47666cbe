"""A game's machine value on its row: load it (rebuilding from the continuous record when the
snapshot is of an older shape), store it with the columns pages and the sweeper read, and
rebuild it from the record alone."""

from __future__ import annotations

import datetime

from play.models import MobileGame, Transmission
from play.rules import clock, ending, snapshot
from play.rules import game as machine


def control_of(game: MobileGame) -> clock.TimeControl:
    return clock.TimeControl.parse(game.control, norm=game.norm)


def load(game: MobileGame) -> machine.Game:
    if game.state and game.rules_version == snapshot.RULES_VERSION:
        return snapshot.load(game.state)
    return rebuild(game)


def store(game: MobileGame, value: machine.Game) -> None:
    """Put the value and its readable columns on the row (the caller saves it)."""
    game.state = snapshot.dump(value)
    game.rules_version = snapshot.RULES_VERSION
    outcome = value.outcome
    game.result = outcome.result
    game.termination = outcome.termination
    game.plies = len(value.moves)
    game.next_due = machine.next_due(value)
    if game.status != MobileGame.Status.ANNULLED:
        game.status = MobileGame.Status.FINISHED if outcome.finished else MobileGame.Status.OPEN
    game.finished_at = value.finished_at if game.status == MobileGame.Status.FINISHED else None
    playing = not value.over and value.clock.running
    game.on_move = value.on_move if playing else ""
    game.on_move_since = value.clock.receipt if playing else None
    if game.status == MobileGame.Status.ANNULLED:
        # Out of play (an APPEAL may still be recorded on it): nothing for the sweeper or lists.
        game.next_due, game.on_move, game.on_move_since = None, "", None


def rebuild(game: MobileGame, until: datetime.datetime | None = None) -> machine.Game:
    """The value from the continuous record alone: every inbound message and TD ruling in order,
    then the clock advanced to `until` (the sweeper's effects depend only on instants, so one
    advance stands for every pass that ran)."""
    value = machine.new_game(game.start, control_of(game))
    rows = Transmission.objects.filter(
        game=game, direction__in=(Transmission.Direction.IN, Transmission.Direction.RULING)
    ).order_by("pk")
    last = game.start
    for row in rows:
        if row.direction == Transmission.Direction.IN:
            color = row.party
            if color not in ("white", "black"):
                continue
            value, _ = machine.receive(value, color, row.text, row.at, row.sent)
        else:
            value = apply_ruling(value, row)
        last = max(last, row.at)
    value, _ = machine.advance(value, until or max(last, game.updated_at or last))
    return value


def apply_ruling(value: machine.Game, row: Transmission) -> machine.Game:
    data = row.data
    if data.get("action") == "decide":
        found = find_claim(value, data["against"], data["ply"])
        if found is not None:
            value, _ = machine.advance(value, row.at)
            value, _ = machine.decide(
                value, found.claim, upheld=data["upheld"], at=row.at, no_further=data.get("no_further", False)
            )
    elif data.get("action") == "adjust":
        # As the service applied it: the clock's events due before the ruling come first.
        value, _ = machine.advance(value, row.at)
        value = machine.adjust(value, data["color"], data["seconds"])
    elif data.get("action") == "pause":
        value, _ = machine.advance(value, row.at)
        begin, end = (datetime.datetime.fromisoformat(data[key]) for key in ("begin", "end"))
        value = machine.pause(value, begin, end)
    elif data.get("action") == "score":
        value, _ = machine.advance(value, row.at)
        scored = data.get("result")
        outcome = ending.Outcome(scored, data["termination"]) if scored else None
        value = machine.score(value, outcome, row.at)
    elif data.get("action") == "reverse claim":
        found = find_claim(value, data["against"], data["ply"])
        if found is not None:
            value, _ = machine.advance(value, row.at)
            value = machine.reverse_claim(value, found.claim, row.at)
    return value


def find_claim(value: machine.Game, against: str, ply: int):
    for record in value.claims:
        if record.claim.against == against and record.claim.ply == ply:
            return record
    return None
