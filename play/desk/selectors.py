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
from django.utils import timezone

from accounts.roles import is_federation_admin
from play import state
from play.desk import conflict, rulers
from play.desk import services as desk
from play.desk.conflict import appealed
from play.events import crosstable
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


def queue(event: MobileEvent, user, now: datetime.datetime | None = None) -> dict:
    """What waits on the desk, oldest first: undecided time claims (an open one with its protest
    deadline), DISPUTE, DELAY and FAILURE notices and protests without a claim not yet handled,
    appeals waiting for the chairman, and open enquiries (answered, waiting or overdue). Each item
    says who acts on it (`actor`: the TD, or the chairman for the TD's own games and for appeals;
    None, another member of staff, for the chairman's own case), whether the user may (`mine`),
    and, when he may not because it is his own case, why and who rules instead (`passed`)."""
    owners = conflict.owned([event.td_id, event.appeals_chair_id, user.pk])
    own = owners.get(event.td_id, set())
    case = _Case(event, user, owners)
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
            actor = rulers.decider_of(event, game, owners)
            items.append({
                "kind": "claim", "at": claim.filed, "game": game, "claim": claim, "status": record.status,
                "outcome": record.outcome, "player": game.player_of(claim.against), "text": protest,
                "deadline": value.clock.protest_deadline(claim) if record.status == ending.OPEN else None,
                "protest_until": value.clock.protest_deadline(claim),
                "move": _label(claim.ply), "actor": actor, **case.of([game], actor),
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
            item["decision"] = decision = appealed(row, decisions)
            item.update(case.of_appeal(decision, row))
        else:
            item["actor"] = actor = rulers.decider_of(event, game, owners)
            item.update(case.of([game], actor))
        items.append(item)
    items.extend(_enquiries(event, case, now or timezone.now()))
    items.sort(key=lambda item: item["at"])
    return {"items": items, "decisions": list(reversed(decisions)), "own": own}


class _Case:
    """Who acts on a queue item and whether it is the user, in no query beyond the event's games
    (read once): nobody rules in his own case (play.desk.conflict)."""

    def __init__(self, event: MobileEvent, user, owners: dict[int, set[int]]):
        self.event, self.user, self.owners = event, user, owners
        self._staff: bool | None = None
        self._games: dict[int, MobileGame] | None = None

    @property
    def staff(self) -> bool:
        if self._staff is None:
            self._staff = oversees(self.user)
        return self._staff

    @property
    def games(self) -> dict[int, MobileGame]:
        """The event's games by id, read at the first appeal (an appeal's case spans its decision's games)."""
        if self._games is None:
            self._games = {g.pk: g for g in self.event.games.only("pk", "code", "white_id", "black_id", "event_id")}
        return self._games

    def _reason(self, user_id, games, decision=None, message=None) -> str | None:
        return conflict.conflict(
            user_id, games, decision=decision, message=message, own=self.owners.get(user_id, set())
        )

    def of(self, games: list[MobileGame], actor: int | None, to: str | None = None) -> dict:
        ruler = self.user.pk in (self.event.td_id, self.event.appeals_chair_id) or self.staff
        reason = ruler and self._reason(self.user.pk, games)
        if reason:
            return {"mine": False, "passed": conflict.passed_on(reason, to or rulers.role_of(self.event, actor))}
        return {"mine": actor == self.user.pk or (actor is None and self.staff), "passed": ""}

    def of_appeal(self, decision: Decision | None, row: Transmission) -> dict:
        games = [self.games[pk] for pk in conflict.case_game_ids(decision, row) if pk in self.games]
        chair = self.event.appeals_chair_id
        actor = None if self._reason(chair, games, decision, row) else chair
        ruler = self.user.pk == chair or self.staff
        reason = ruler and self._reason(self.user.pk, games, decision, row)
        if reason:
            return {
                "actor": actor,
                "mine": False,
                "passed": conflict.passed_on(
                    reason, conflict.STAFF if actor is None or chair == self.user.pk else conflict.CHAIR
                ),
            }
        return {"actor": actor, "mine": actor == self.user.pk or (actor is None and self.staff), "passed": ""}


def _enquiries(event: MobileEvent, case: _Case, now: datetime.datetime) -> list[dict]:
    """Open enquiries (rule 5b): answered by any message of the player in the event's games after
    it, overdue when unanswered at the deadline. Two queries whatever their number."""
    open_ = list(event.enquiries.filter(closed_at__isnull=True).select_related("player", "game"))
    if not open_:
        return []
    first = min(e.at for e in open_)
    heard = Transmission.objects.filter(
        game__event=event, direction=Transmission.Direction.IN, player_id__in={e.player_id for e in open_}, at__gt=first
    ).values_list("player_id", "at", "text")
    heard = sorted(heard, key=lambda row: row[1])
    items = []
    for enquiry in open_:
        answer = next(((at, text) for pid, at, text in heard if pid == enquiry.player_id and at > enquiry.at), None)
        actor = rulers.decider_of(event, enquiry.game, case.owners)
        items.append({
            "kind": "enquiry", "at": enquiry.at, "deadline": enquiry.deadline, "game": enquiry.game,
            "player": enquiry.player, "text": enquiry.text, "enquiry": enquiry, "answer": answer,
            "overdue": answer is None and now > enquiry.deadline, "actor": actor,
            **case.of([enquiry.game], actor),
        })  # fmt: skip
    return items


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
        claims.append({
            "record": record, "claim": record.claim, "protest": protest, "move": _label(record.claim.ply),
            "protest_until": value.clock.protest_deadline(record.claim),
        })  # fmt: skip
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


# --- withdrawal preview --------------------------------------------------------------------------


def withdrawal_preview(event: MobileEvent, plan: list[dict]) -> dict:
    """What a withdrawal plan changes, before the TD confirms it: each player's place and points
    in the crosstable before and after, and each affected player's Mchess rating with the change
    estimated at today's ratings (an annulled rated game gives back what it gave; a game newly
    scored is rated by the Mchess formula with the event's W). The re-rating itself replays the
    timeline from the earliest changed moment, so later games may move the figures a little."""
    from ratings.engines.mchess import game_change
    from ratings.models import PlayerRating, RatingChange

    players = [entry.player for entry in event.entries.select_related("player").order_by("pk")]
    games = list(event.games.defer("state").order_by("pk"))
    steps = {step["game"].pk: step for step in plan}
    after = []
    for game in games:
        step = steps.get(game.pk)
        if step is None:
            after.append(game)
        elif step["annul"]:
            after.append(_Row(game.pk, game.white_id, game.black_id, game.result, "annulled", game.plies))
        else:
            after.append(_Row(game.pk, game.white_id, game.black_id, step["result"], "finished", game.plies))
    before_table = crosstable.build(players, games)
    after_table = crosstable.build(players, after)
    places = {row.player.pk: row for row in before_table["rows"]}
    table = [{"player": row.player, "before": places[row.player.pk], "after": row} for row in after_table["standings"]]
    touched = {pid for game in (steps[pk]["game"] for pk in steps) for pid in (game.white_id, game.black_id)}
    current = {r.player_id: r.rating or 0 for r in PlayerRating.objects.filter(system="mchess", player_id__in=touched)}
    change = dict.fromkeys(touched, 0)
    annulled = [pk for pk, step in steps.items() if step["annul"]]
    for rating_change in RatingChange.objects.filter(mobile_game_id__in=annulled, system="mchess"):
        # A newcomer's first change starts from no rating: 0 on the Mchess scale.
        change[rating_change.player_id] -= (rating_change.rating_after or 0) - (rating_change.rating_before or 0)
    for step in steps.values():
        game = step["game"]
        if step["annul"] or game.plies < 2:
            continue  # not rated: a move of each player is needed (Rating)
        white, black = current.get(game.white_id, 0), current.get(game.black_id, 0)
        white_points = crosstable.points_of(step["result"], True)
        if white >= black:
            gained = game_change(game.weight, white, black, int((1 - white_points) * 2))
            change[game.black_id] += gained
            change[game.white_id] -= gained
        else:
            gained = game_change(game.weight, black, white, int(white_points * 2))
            change[game.white_id] += gained
            change[game.black_id] -= gained
    names = {p.pk: p for p in players}
    ratings = [
        {"player": names[pid], "now": current.get(pid, 0), "change": change[pid],
         "after": min(max(current.get(pid, 0) + change[pid], 0), 20_000)}
        for pid in sorted(touched, key=lambda pid: names[pid].full_name)
    ]  # fmt: skip
    moments = [steps[pk]["game"].finished_at for pk in annulled if steps[pk]["game"].finished_at]
    return {"table": table, "ratings": ratings, "earliest": min(moments) if moments else None}


class _Row:
    """A game as the crosstable reads it, with the result a plan gives it."""

    def __init__(self, pk, white_id, black_id, result, status, plies):
        self.pk, self.white_id, self.black_id = pk, white_id, black_id
        self.result, self.status, self.plies = result, status, plies


# --- sanctions -----------------------------------------------------------------------------------


def sanctions(limit: int = 500) -> list[dict]:
    """The federation-wide sanction list (as ICCF keeps one): players who lost a game on time
    (a claim conceded or upheld) or were disqualified (and not reinstated on appeal), newest
    first, with the date, the game or event and the decision's reason; two queries."""
    rows = []
    lost = (
        MobileGame.objects.filter(status=MobileGame.Status.FINISHED, termination=ending.TIME)
        .exclude(result=ending.DRAWN)
        .select_related("white", "black", "event")
        .defer("state")
        .order_by("-finished_at", "-pk")[:limit]
    )
    for game in lost:
        loser = game.white if game.result == ending.BLACK_WINS else game.black
        rows.append({"player": loser, "at": game.finished_at, "what": "time", "game": game, "event": game.event})
    disqualified = (
        Decision.objects.filter(kind=Decision.Kind.DISQUALIFY)
        .exclude(appeals__reversed=True)  # reversed on appeal: no sanction
        .select_related("player", "event")
        .order_by("-at", "-pk")[:limit]
    )
    for decision in disqualified:
        rows.append({
            "player": decision.player, "at": decision.at, "what": "disqualified", "event": decision.event,
            "decision": decision,
        })  # fmt: skip
    rows.sort(key=lambda row: row["at"], reverse=True)
    return rows[:limit]
