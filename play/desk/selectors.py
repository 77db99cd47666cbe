"""The desk's reads: the events a user directs or chairs, the queue of an event (oldest first,
with deadlines), a game's file (its whole timeline with the clock figures) and the decisions.

The queue costs a fixed number of queries whatever the event's size: the games with a claim
(their values are unpickled, not queried), the notices for the TD not yet handled, the event's
decisions and the TD's own players.
"""

from __future__ import annotations

import datetime

from django.db.models import Q
from django.shortcuts import get_object_or_404

from federation.roles import is_federation_admin
from play import state
from play.desk import services as desk
from play.models import Decision, MobileEvent, MobileGame, Transmission
from play.rules import clock, ending


def oversees(user) -> bool:
    return bool(user.is_authenticated and user.is_active and is_federation_admin(user))


def events_for(user):
    """The events on the user's desk: those he directs or chairs (staff: every event)."""
    events = MobileEvent.objects.select_related("td", "appeals_chair").order_by("-start", "pk")
    if oversees(user):
        return events
    return events.filter(Q(td=user) | Q(appeals_chair=user))


def may_view(user, event: MobileEvent) -> bool:
    if not (user.is_authenticated and user.is_active):
        return False
    return oversees(user) or user.pk in (event.td_id, event.appeals_chair_id)


def event_of(pk: int) -> MobileEvent:
    return get_object_or_404(MobileEvent.objects.select_related("td", "appeals_chair"), pk=pk)


def _label(ply: int) -> str:
    number = clock.move_of_ply(ply)
    return f"{number}." if clock.color_of_ply(ply) == clock.WHITE else f"{number}…"


def queue(event: MobileEvent, user) -> dict:
    """What waits on the desk, oldest first: undecided time claims (an open one with its protest
    deadline), DISPUTE, DELAY and FAILURE notices and protests without a claim not yet handled,
    and appeals waiting for the chairman. Each item says who acts on it (`actor`: the TD, or the
    chairman for the TD's own games and for appeals) and whether the user may (`mine`)."""
    own = desk.td_player_ids(event)
    items = []
    claim_games = (
        event.games.filter(status=MobileGame.Status.OPEN, transmissions__party="td", transmissions__kind="claim")
        .distinct()
        .select_related("white", "black")
    )
    for game in claim_games:
        value = state.load(game)
        for record in value.claims:
            if record.status not in (ending.OPEN, ending.PROTESTED):
                continue
            claim = record.claim
            protest = next(
                (
                    n.text
                    for n in value.notices
                    if n.kind == "protest" and n.sender == claim.against and n.at >= claim.filed
                ),
                "",
            )
            actor = desk.decider_of(event, game, own)
            items.append({
                "kind": "claim", "at": claim.filed, "game": game, "claim": claim, "status": record.status,
                "outcome": record.outcome, "player": game.player_of(claim.against), "text": protest,
                "deadline": claim.protest_deadline if record.status == ending.OPEN else None,
                "move": _label(claim.ply), "actor": actor, "mine": actor == user.pk,
            })  # fmt: skip
    decisions = list(event.decisions.select_related("game", "player").order_by("at", "pk"))
    notices = (
        Transmission.objects.filter(
            game__event=event, direction=Transmission.Direction.OUT, party="td", kind__in=desk.NOTICE_KINDS
        )
        .filter(desk_mark__isnull=True, appeal__isnull=True)
        .select_related("game__white", "game__black")
        .order_by("at", "pk")
    )
    for row in notices:
        game = row.game
        if row.kind == "protest" and row.data.get("against"):
            continue  # a protest of a claim: the claim's item carries it
        item = {
            "kind": row.kind, "at": row.at, "game": game, "row": row, "text": row.data.get("text", ""),
            "minutes": row.data.get("minutes"), "player": game.player_of(row.data.get("from", "white")),
            "deadline": None,
        }  # fmt: skip
        if row.kind == "appeal":
            item["decision"] = appealed(row, decisions)
            item["actor"] = event.appeals_chair_id
        else:
            item["actor"] = desk.decider_of(event, game, own)
        item["mine"] = item["actor"] == user.pk
        items.append(item)
    items.sort(key=lambda item: item["at"])
    return {"items": items, "decisions": list(reversed(decisions)), "own": own}


def appealed(row: Transmission, decisions: list[Decision]) -> Decision | None:
    """The decision an APPEAL message appeals: the latest one on its game (or on the appellant
    in all his games) whose window the message arrived in; None when there is none."""
    player_id = row.game.white_id if row.data.get("from") == "white" else row.game.black_id
    fitting = [
        d
        for d in decisions
        if (d.game_id == row.game_id or (d.game_id is None and d.player_id == player_id))
        and d.at <= row.at <= d.appealable_until
    ]
    return max(fitting, key=lambda d: (d.at, d.pk), default=None)


def appeal_messages(decision: Decision) -> list[Transmission]:
    """The APPEAL messages that appeal this decision (ruled or not), oldest first."""
    if decision.game_id:
        games = [decision.game_id]
    else:
        games = [e["game"] for e in decision.effects]
    rows = (
        Transmission.objects.filter(game_id__in=games, party="td", kind="appeal", direction=Transmission.Direction.OUT)
        .select_related("game__white", "game__black", "appeal__by")
        .order_by("at", "pk")
    )
    later = list(decision.event.decisions.order_by("at", "pk"))
    return [row for row in rows if appealed(row, later) == decision]


def game_file(event: MobileEvent, code: str) -> dict:
    """A game's file for the desk: the whole continuous record in order, each accepted move with
    its clock figures (sending time, receipt, time used, total, allowance), the claims with their
    protests, the notices and the decisions on it."""
    game = get_object_or_404(
        MobileGame.objects.select_related("white", "black", "event"), event=event, code__iexact=code
    )
    value = state.load(game)
    timings: dict[tuple[str, datetime.datetime], list] = {}
    for move in value.moves:
        if not move.conditional:
            timings.setdefault((move.color, move.timing.arrival), []).append(move)
    timeline = []
    for row in game.transmissions.order_by("pk"):
        moves = timings.get((row.party, row.at), []) if row.direction == "in" and row.kind == "move" else []
        timeline.append({"row": row, "moves": list(moves)})
    claims = []
    for record in value.claims:
        protest = next(
            (
                n
                for n in value.notices
                if n.kind == "protest" and n.sender == record.claim.against and n.at >= record.claim.filed
            ),
            None,
        )
        claims.append({"record": record, "claim": record.claim, "protest": protest, "move": _label(record.claim.ply)})
    faces = {color: value.clock.total(color) for color in ("white", "black")}
    return {
        "game": game,
        "value": value,
        "timeline": timeline,
        "claims": claims,
        "totals": faces,
        "allowance": value.clock.allowance,
        "decisions": list(game.decisions.select_related("by", "player").order_by("at", "pk")),
    }


def decision_of(pk: int) -> Decision:
    return get_object_or_404(Decision.objects.select_related("event", "game", "player", "by"), pk=pk)


def appealable(game: MobileGame, player, now: datetime.datetime) -> list[Decision]:
    """The decisions on a game (or on the player in all his games of its event) he may still
    appeal at `now` (for the game page's form)."""
    if game.event_id is None:
        return []
    mine = Q(game=game) | Q(game__isnull=True, player=player, event_id=game.event_id)
    return list(Decision.objects.filter(mine, appealable_until__gte=now).order_by("-at", "-pk"))
