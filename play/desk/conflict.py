"""Nobody rules in his own case (issue 24): a TD, the duty TD, a member of staff or the Appeals
Commission chairman who plays in the game, who filed the appeal, or who made the decision under
appeal, may not uphold, dismiss, decide, score, credit, penalise or rule on it. The case passes to
the next in line: the chairman for the TD's case, another member of staff for the chairman's own
case (and for the duty TD's own challenge game, which has no chairman).

Only reads: who plays as whom (a confirmed PlayerLink, as the TD's own games have always been
found) and the case's games, decision and appeal. It imports no other play module, so the
challenge games' checks (play.events.selectors) and the desk's (play.desk.services) both use it.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _

from play.models import Decision, MobileGame, Transmission
from players.models import PlayerLink


class Conflict(PermissionDenied):
    """A ruling refused because it is the user's own case: a 403 whose message says why and who
    rules instead. Not a PlayError, so the views' refusals-as-messages let it through."""


# Why a user may not rule on a case.
PLAYS, FILED, MADE = "plays", "filed", "made"
# Who rules on it then.
TD, CHAIR, STAFF = "td", "chairman", "staff"


def owned(user_ids: Iterable[int | None]) -> dict[int, set[int]]:
    """The players each user plays as (confirmed links), in one query."""
    ids = {pk for pk in user_ids if pk}
    found: dict[int, set[int]] = {pk: set() for pk in ids}
    rows = PlayerLink.objects.filter(user_id__in=ids, status=PlayerLink.Status.CONFIRMED)
    for user_id, player_id in rows.values_list("user_id", "player_id"):
        found[user_id].add(player_id)
    return found


def case_game_ids(decision: Decision | None = None, message: Transmission | None = None) -> set[int]:
    """The ids of the games a decision (and an appeal of it) is about: its game, the games it
    changed, the appeal's game."""
    ids: set[int] = set()
    if decision is not None:
        ids |= {effect["game"] for effect in decision.effects if "game" in effect}
        if decision.game_id:
            ids.add(decision.game_id)
    if message is not None and message.game_id:
        ids.add(message.game_id)
    return ids


def case_games(decision: Decision | None = None, message: Transmission | None = None) -> list[MobileGame]:
    """The games of case_game_ids, read."""
    ids = case_game_ids(decision, message)
    return list(MobileGame.objects.filter(pk__in=ids).only("pk", "code", "white_id", "black_id"))


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


def conflict(
    user_id: int | None,
    games: Iterable[MobileGame | None] = (),
    *,
    decision: Decision | None = None,
    message: Transmission | None = None,
    own: set[int] | None = None,
) -> str | None:
    """Why the user may not rule on the case, or None: he filed the appeal (`message`), made the
    decision under appeal, plays in one of the games, or the decision is about him."""
    if not user_id:
        return None
    own = owned([user_id])[user_id] if own is None else own
    if message is not None and message.game_id is not None:
        game = message.game
        appellant = game.white_id if message.data.get("from") == "white" else game.black_id
        if appellant in own:
            return FILED
    if decision is not None and decision.by_id == user_id:
        return MADE
    for game in games:
        if game is not None and {game.white_id, game.black_id} & own:
            return PLAYS
    if decision is not None and decision.player_id in own:
        return PLAYS
    return None


def passed_on(reason: str | None, to: str) -> str:
    """What the desk tells a user who may not rule on a case: why, and who rules on it instead.
    Whole sentences, so each translates with its own grammar."""
    sentences = {
        (PLAYS, TD): _("You play in this game: the event's TD rules on it."),
        (PLAYS, CHAIR): _("You play in this game: the Appeals Commission chairman rules on it."),
        (PLAYS, STAFF): _("You play in this game: another member of the federation staff rules on it."),
        (FILED, STAFF): _("You filed this appeal: another member of the federation staff rules on it."),
        (FILED, CHAIR): _("You filed this appeal: the Appeals Commission chairman rules on it."),
        (MADE, STAFF): _("You made the decision under appeal: another member of the federation staff rules on it."),
        (MADE, CHAIR): _("You made the decision under appeal: the Appeals Commission chairman rules on it."),
    }
    return sentences.get((reason, to), "")
