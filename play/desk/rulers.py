"""Who rules on what at the desk (rules 7d, 10a-c): the event's TD decides, the Appeals Commission
chairman rules on appeals, federation staff may rule on any time claim; and nobody rules in his
own case (play.desk.conflict): the TD's own game goes to the chairman, the chairman's own case
to another member of staff. Only reads; play.desk.services refuses with these answers.
"""

from __future__ import annotations

from play.desk import conflict
from play.events import selectors as event_selectors
from play.models import Decision, MobileEvent, MobileGame, Transmission


def deciders(event: MobileEvent) -> dict[int, set[int]]:
    """The players the TD and the chairman play as, for decider_of over many games."""
    return conflict.owned([event.td_id, event.appeals_chair_id])


def decider_of(event: MobileEvent, game: MobileGame | None, owners: dict[int, set[int]] | None = None) -> int | None:
    """The user id who decides on the game: the TD; the chairman for a game the TD plays in;
    None, another member of staff, when the chairman plays in it too (nobody rules in his own
    case)."""
    owners = deciders(event) if owners is None else owners
    for user_id in (event.td_id, event.appeals_chair_id):
        if user_id and not conflict.conflict(user_id, [game], own=owners.get(user_id, set())):
            return user_id
    return None


def role_of(event: MobileEvent, actor: int | None) -> str:
    """The role (conflict.TD, CHAIR or STAFF) of who acts on a case: the user id decider_of gives,
    None for another member of staff."""
    if actor is None:
        return conflict.STAFF
    return conflict.TD if actor == event.td_id else conflict.CHAIR


def next_in_line(event: MobileEvent, game: MobileGame | None, owners: dict[int, set[int]] | None = None) -> str:
    """Who decides on the game, as a role (conflict.TD, CHAIR or STAFF)."""
    return role_of(event, decider_of(event, game, owners))


def _staff_without_conflict(user, games: list[MobileGame | None], **case) -> bool:
    return event_selectors.oversees_all(user) and not conflict.conflict(user.pk, games, **case)


def may_decide(
    user, event: MobileEvent, game: MobileGame | None = None, owners: dict[int, set[int]] | None = None
) -> bool:
    if not (user.is_authenticated and user.is_active):
        return False
    decider = decider_of(event, game, owners)
    if decider is None:
        return _staff_without_conflict(user, [game])
    return decider == user.pk


def may_rule_claims(user, event: MobileEvent, game: MobileGame) -> bool:
    """Who rules on a time claim: who decides on the game, and federation staff, who could rule
    on any game's claims from the TD's list before the desk (acting as duty TD), unless he
    plays in it."""
    return may_decide(user, event, game) or _staff_without_conflict(user, [game])


def appeal_conflict(user_id: int | None, decision: Decision | None, message: Transmission | None) -> str | None:
    """Why the user may not rule on the appeal: he plays in its game, filed it, or made the
    decision appealed."""
    return conflict.conflict(user_id, conflict.case_games(decision, message), decision=decision, message=message)


def may_rule_appeals(
    user, event: MobileEvent, decision: Decision | None = None, message: Transmission | None = None
) -> bool:
    """The chairman rules on appeals; on his own case (he plays in the game, filed the appeal or
    made the decision appealed) another member of staff does. Without a case: whether the user
    is the event's chairman."""
    if not (user.is_authenticated and user.is_active):
        return False
    if decision is None and message is None:
        return event.appeals_chair_id == user.pk
    if appeal_conflict(user.pk, decision, message):
        return False
    if event.appeals_chair_id == user.pk:
        return True
    return event_selectors.oversees_all(user) and appeal_conflict(event.appeals_chair_id, decision, message) is not None


def refusal(
    user, event: MobileEvent, games: list[MobileGame | None], *, decision=None, message=None, claims: bool = False,
    owners: dict[int, set[int]] | None = None,
) -> str:  # fmt: skip
    """Why a user may not act on his own case, and who acts instead; empty when he is refused for
    another reason: it would not be his to act on anyway (not his event, not his role, or an
    earlier one in line is free to act). `claims`: staff rule on any game's time claim."""
    staff = event_selectors.oversees_all(user)
    if message is not None:
        chair_out = appeal_conflict(event.appeals_chair_id, decision, message)
        if not (user.pk == event.appeals_chair_id or (staff and chair_out)):
            return ""
        reason = appeal_conflict(user.pk, decision, message)
        return conflict.passed_on(reason, conflict.STAFF if chair_out else conflict.CHAIR)
    owners = deciders(event) if owners is None else owners
    roles = {next_in_line(event, game, owners) for game in games}
    entitled = (
        user.pk == event.td_id
        or (staff and (claims or conflict.STAFF in roles))
        or (user.pk == event.appeals_chair_id and bool(roles & {conflict.CHAIR, conflict.STAFF}))
    )
    reason = conflict.conflict(user.pk, games) if entitled else None
    to = conflict.STAFF if conflict.STAFF in roles else (conflict.CHAIR if conflict.CHAIR in roles else conflict.TD)
    return conflict.passed_on(reason, to)
