"""Leave (beyond the draft, as ICCF and chess.com offer it): a player asks for whole UTC days of
leave in an event that allows them (MobileEvent.leave_days per player, 0 = none); the TD grants
or refuses on his desk. A granted leave pauses every unfinished game of the player in the event
for the period, both clocks (as ICCF practice pauses the games): a 'pause' ruling in each game's
continuous record (play.rulings.game_rule, replayed by play.state.apply_ruling), and both
players of each game are told on their channels. Nothing is deleted; each ruling is audited.
"""

from __future__ import annotations

import datetime

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import audit
from play import rulings
from play.desk import rulers
from play.desk.services import DeskError, _mail_each, checked, player_games
from play.models import Leave, MobileEvent, MobileGame
from play.rules import clock
from play.rules.outbound import iso


def period(leave: Leave) -> tuple[datetime.datetime, datetime.datetime]:
    """The paused period: the first day's 00:00 UTC to the day after the last, 00:00 UTC."""
    begin = datetime.datetime.combine(leave.first_day, datetime.time(), tzinfo=datetime.UTC)
    end = datetime.datetime.combine(leave.last_day + datetime.timedelta(days=1), datetime.time(), tzinfo=datetime.UTC)
    return begin, end


def days_left(event: MobileEvent, player, *, exclude: int | None = None) -> int:
    """The event's leave days the player has not yet asked for (granted or waiting)."""
    asked = Leave.objects.filter(event=event, player=player).exclude(status=Leave.Status.REFUSED)
    if exclude is not None:
        asked = asked.exclude(pk=exclude)
    rows = asked.values_list("first_day", "last_day")
    return event.leave_days - sum((last - first).days + 1 for first, last in rows)


def leave_request(
    *, event: MobileEvent, player, first_day: datetime.date, last_day: datetime.date, text: str = "",
    at: datetime.datetime | None = None,
) -> Leave:  # fmt: skip
    """A player's request: refused with the reason when the event allows no leave, he has no
    game in it, the days are not in order, the leave would not start after today (UTC: a pause
    is never retroactive) or he would go over the event's days."""
    at = clock.whole_second(at or timezone.now())
    if event.leave_days <= 0:
        raise DeskError(f"{event.name} allows no leave")
    if not event.games.filter(Q(white=player) | Q(black=player)).exists():
        raise DeskError(f"{player.full_name} has no game in {event.name}")
    if last_day < first_day:
        raise DeskError("the last day of leave comes before the first")
    if first_day <= at.date():
        raise DeskError("a leave starts tomorrow (UTC) at the earliest")
    left = days_left(event, player)
    days = (last_day - first_day).days + 1
    if days > left:
        raise DeskError(f"{days} days asked, {left} of the event's {event.leave_days} left")
    leave = Leave.objects.create(
        event=event, player=player, first_day=first_day, last_day=last_day, text=(text or "").strip()[:500],
        requested_at=at,
    )  # fmt: skip
    audit.record(actor=None, action="play.leave_request", target=leave, summary=str(leave), reason=leave.text)
    return leave


def leave_decide(*, leave: Leave, grant: bool, by, reason: str = "", at: datetime.datetime | None = None) -> Leave:
    """The TD grants or refuses a requested leave. Granted, each unfinished game of the player in
    the event gets a 'pause' ruling for the period and both its players are told; a leave whose
    first day has begun can no longer be granted (the pause would reach into the past)."""
    at = clock.whole_second(at or timezone.now())
    event = leave.event
    # Decided as any decision on the player's games: his own leave is not the TD's to grant.
    try:
        checked(event, by, player_games(event, leave.player), None)
    except DeskError as error:
        raise DeskError("only the event's TD grants leave") from error
    if leave.status != Leave.Status.REQUESTED:
        raise DeskError(f"that leave was already {leave.status}")
    begin, end = period(leave)
    if grant and begin <= at:
        raise DeskError("the leave has already begun: it can only be refused (the player may ask again)")
    with transaction.atomic():
        leave.status = Leave.Status.GRANTED if grant else Leave.Status.REFUSED
        leave.decided_by, leave.decided_at, leave.reason = by, at, (reason or "").strip()[:500]
        leave.save(update_fields=["status", "decided_by", "decided_at", "reason"])
        name = leave.player.full_name
        what = f"{name} is on leave from {leave.first_day} to {leave.last_day} (UTC)"
        days = {"first": str(leave.first_day), "last": str(leave.last_day)}
        if grant:
            games = (
                event.games.filter(Q(white=leave.player) | Q(black=leave.player), status=MobileGame.Status.OPEN)
                .select_related("white", "black")
                .order_by("pk")
            )
            # The facts, worded in each player's language (play.rules.texts.decision); the English
            # phrase too, for the raw record.
            facts = {"kind": "leave", "player": name, **days, "begin": iso(begin), "end": iso(end)}
            for game in games:
                notice = ("decision", {
                    "decision": facts, "what": f"{what}: both clocks of this game stop from {iso(begin)} to {iso(end)}",
                    "why": leave.reason, "appeal_until": None,
                })  # fmt: skip
                rulings.game_rule(
                    game=game, action={"action": "pause", "begin": iso(begin), "end": iso(end)},
                    text=f"leave of {name}", by=by, at=at, notice=notice,
                )  # fmt: skip
        audit.record(
            actor=by, action="play.leave_grant" if grant else "play.leave_refuse", target=leave, summary=str(leave),
            after={"status": leave.status, "begin": iso(begin), "end": iso(end)}, reason=leave.reason,
        )  # fmt: skip

        def write() -> tuple[str, str]:
            # Whole sentences per verdict, in each account's message language.
            values = {"event": event.name, "player": name, **days}
            if grant:
                subject = _("%(event)s: leave granted") % values
                body = _("%(player)s is on leave from %(first)s to %(last)s (UTC): the TD granted it.") % values
            else:
                subject = _("%(event)s: leave refused") % values
                body = _("%(player)s asked for leave from %(first)s to %(last)s (UTC): the TD refused it.") % values
            return subject, body + (f" {leave.reason}" if leave.reason else "")

        _mail_each({leave.player_id}, write)
    return leave


def requested(event: MobileEvent, user) -> list[Leave]:
    """The leave requests waiting for the TD, oldest first (for the desk's queue), each saying
    whether the user decides it (`mine`) or, when it is his own case, who does (`passed`): a
    leave pauses the player's games, so it is decided as a decision on them."""
    rows = list(event.leaves.filter(status=Leave.Status.REQUESTED).select_related("player").order_by("requested_at"))
    owners = rulers.deciders(event) if rows else {}
    for leave in rows:
        games = player_games(event, leave.player)
        leave.mine = all(rulers.may_decide(user, event, game, owners) for game in games or [None])
        leave.passed = "" if leave.mine else rulers.refusal(user, event, games, owners=owners)
    return rows


def leaves_of(event: MobileEvent, player) -> list[Leave]:
    return list(Leave.objects.filter(event=event, player=player).order_by("first_day", "pk"))
