"""The desk's writes: a TD's decisions (rule 10a, 10b, and claims under rule 7d), the Appeals
Commission chairman's rulings on appeals (rule 10c) and desk items marked handled.

Every decision is a `Decision` row (who, when, what, why), a ruling in each game's continuous
record it changes (play.rulings.game_rule / claim_decide, so the game rebuilt from its record is
the game stored), a message to both players of each game through their channels, and an audit
entry; all in one transaction. Re-rating follows from the games' result changes (on commit).
"""

from __future__ import annotations

import datetime
from collections.abc import Callable

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts import audit
from play import rulings, services, state
from play.channels import identities
from play.desk import conflict
from play.desk.rulers import deciders, may_decide, may_rule_appeals, may_rule_claims, refusal
from play.models import Appeal, Channel, Decision, DeskMark, Enquiry, MobileEvent, MobileGame, Transmission
from play.rules import clock, ending, texts
from play.rules.outbound import iso
from players.models import PlayerLink

# Rule 10c: an appeal is in time until the decision's receipt (dispatch + N) + one day.
APPEAL_WINDOW = datetime.timedelta(seconds=86_400)
RESULTS = ("1-0", "0-1", "1/2-1/2")
SCORED = "TD decision"
DISQUALIFIED = "disqualification"
TIME_KINDS = (Decision.Kind.CREDIT, Decision.Kind.CHARGE, Decision.Kind.PENALTY)
NOTICE_KINDS = ("protest", "delay", "failure", "dispute", "appeal")


class DeskError(services.PlayError):
    """A decision, ruling or mark the rules or permissions refuse; the message says why."""


# --- decisions -----------------------------------------------------------------------------------


def decision_facts(decision: Decision) -> dict:
    """What a decision did, as facts (kind, player, time, game, claim, result): a message's data
    carries them, and play.rules.texts.decision words them in each reader's language."""
    effect = decision.effects[0] if decision.kind == Decision.Kind.CLAIM and decision.effects else {}
    facts = {
        "kind": decision.kind,
        "player": decision.player.full_name if decision.player_id else "",
        "seconds": decision.seconds,
        "game": decision.game.code if decision.game_id else "",
        "all_games": decision.all_games,
        "result": decision.result,
    }
    if decision.kind == Decision.Kind.CLAIM:
        facts.update(against=effect.get("against", "?"), ply=effect.get("ply", "?"))
    return facts


def describe(decision: Decision) -> str:
    """What a decision did, in the active language (the desk's page, a mail's reader)."""
    return texts.decision(decision_facts(decision), _)


def described_in_english(decision: Decision) -> str:
    """The same in English: the audit log is the staff's log, kept in one language."""
    return texts.decision(decision_facts(decision))


def _appeal_until(at: datetime.datetime, norm: int) -> datetime.datetime:
    return at + datetime.timedelta(seconds=norm) + APPEAL_WINDOW


def _notice(decision: Decision) -> tuple[str, dict]:
    # The facts, worded in each recipient's language; the English phrase too, for the raw record.
    return "decision", {
        "decision": decision_facts(decision),
        "what": described_in_english(decision),
        "why": decision.text,
        "appeal_until": iso(decision.appealable_until),
    }


def _games_of(event: MobileEvent, player, *, open_only: bool) -> list[MobileGame]:
    games = event.games.filter(Q(white=player) | Q(black=player)).exclude(status=MobileGame.Status.ANNULLED)
    if open_only:
        games = games.filter(status=MobileGame.Status.OPEN)
    return list(games.select_related("white", "black").order_by("pk"))


def player_games(event: MobileEvent, player) -> list[MobileGame]:
    """The player's games in the event, annulled ones aside (for the withdrawal form)."""
    return _games_of(event, player, open_only=False)


def _mail_each(player_ids: set[int], write: Callable[[], tuple[str, str]]) -> None:
    """The decision by e-mail too, after commit, to every account confirmed to play as one of the
    players (a parent for his child); no address, no mail. A failed mail does not undo it. Each
    account reads it in the message language of the player it plays as (the first, when several):
    `write` gives the subject and body in the active language."""
    links = (
        PlayerLink.objects.filter(player_id__in=player_ids, status=PlayerLink.Status.CONFIRMED)
        .exclude(user__email="")
        .select_related("player", "user")
        .order_by("user__email", "player_id")
    )
    languages: dict[str, str] = {}
    for each in links:
        languages.setdefault(each.user.email, identities.message_language(Channel.EMAIL, each.player))
    for language in sorted(set(languages.values())):
        emails = sorted(email for email, chosen in languages.items() if chosen == language)
        with translation.override(language):
            subject, body = write()
        transaction.on_commit(
            lambda subject=subject, body=body, emails=emails: send_mail(
                subject, body, settings.DEFAULT_FROM_EMAIL, emails, fail_silently=True
            )
        )


def _involved(decision: Decision) -> set[int]:
    ids = set(
        MobileGame.objects.filter(pk__in=[e["game"] for e in decision.effects] + [decision.game_id or 0])
        .values_list("white_id", "black_id")
        .distinct()
        .order_by()
    )
    found = {pid for pair in ids for pid in pair}
    if decision.player_id:
        found.add(decision.player_id)
    return found


def _mail_decision(decision: Decision) -> None:
    def write() -> tuple[str, str]:
        what = describe(decision)
        body = "\n".join(
            [
                f"{decision.event.name}: {what}.",
                _("Why: %(why)s") % {"why": decision.text},
                _("You may appeal until %(until)s UTC (APPEAL text, or the game page).")
                % {"until": f"{decision.appealable_until:%Y-%m-%d %H:%M:%S}"},
            ]
        )
        return _("TD decision: %(what)s") % {"what": what}, body

    _mail_each(_involved(decision), write)


def _audit(decision: Decision, by, action: str, summary: str, reason: str) -> None:
    audit.record(
        actor=by,
        action=action,
        target=decision,
        summary=summary,
        after={"kind": decision.kind, "effects": decision.effects, "result": decision.result},
        reason=reason,
    )


def refuse(by, event: MobileEvent, games: list[MobileGame | None], otherwise: str, **case) -> None:
    """Raise the refusal: a Conflict (403) when it is the user's own case, else a DeskError."""
    why = refusal(by, event, games, **case)
    if why:
        raise conflict.Conflict(why)
    raise DeskError(otherwise)


def checked(event: MobileEvent, by, games: list[MobileGame], game: MobileGame | None) -> None:
    """Refuse unless the user decides on every game of the decision (nobody in his own case)."""
    owners = deciders(event)
    for each in games or [game]:
        if not may_decide(by, event, each, owners):
            refuse(by, event, [each], "only the event's TD decides (the chairman for the TD's own games)")


def decision_make(
    *, event: MobileEvent, kind: str, by, text: str, game: MobileGame | None = None, player=None,
    seconds: int | None = None, all_games: bool = False, result: str = "", answers: Transmission | None = None,
    at: datetime.datetime | None = None,
) -> Decision:  # fmt: skip
    """A TD decision other than on a time claim: credit or charge time (one game, or all the
    player's unfinished games), a penalty, a game scored, a player disqualified (his unfinished
    games scored as losses), any other ruling (rule 10b). Refused with the reason, nothing
    changed, when the data does not fit the kind or the user may not decide."""
    at = clock.whole_second(at or timezone.now())
    text = (text or "").strip()
    if kind not in Decision.Kind.values or kind == Decision.Kind.CLAIM:
        raise DeskError(f"unknown decision {kind!r}")
    if not text:
        raise DeskError("a decision says why")
    if game is not None and game.event_id != event.pk:
        raise DeskError(f"#{game.code} is not a game of {event.name}")
    if player is not None and not event.entries.filter(player=player).exists():
        raise DeskError(f"{player.full_name} does not play in {event.name}")
    if game is not None and player is not None and game.color_of(player.pk) is None:
        raise DeskError(f"{player.full_name} does not play in #{game.code}")
    games: list[MobileGame] = [game] if game is not None else []
    if kind in TIME_KINDS:
        if player is None or not seconds or seconds <= 0:
            raise DeskError("time is credited or charged to a player, a positive number of seconds")
        if all_games:
            games = _games_of(event, player, open_only=True)
            if not games:
                raise DeskError(f"{player.full_name} has no unfinished game")
        elif game is None:
            raise DeskError("choose the game, or all his games")
        elif game.status != MobileGame.Status.OPEN:
            raise DeskError(f"#{game.code} is not in progress: its clocks no longer run")
    elif kind == Decision.Kind.SCORE:
        if game is None or result not in RESULTS:
            raise DeskError("a game is scored 1-0, 0-1 or 1/2-1/2")
        if game.status == MobileGame.Status.ANNULLED:
            raise DeskError(f"#{game.code} is annulled")
    elif kind == Decision.Kind.DISQUALIFY:
        if player is None:
            raise DeskError("choose the player to disqualify")
        games = _games_of(event, player, open_only=True)
    elif kind == Decision.Kind.OTHER and game is None and player is not None:
        games = _games_of(event, player, open_only=False)
    checked(event, by, games, game)
    norm = game.norm if game is not None else event.norm
    with transaction.atomic():
        decision = Decision.objects.create(
            event=event, game=game, player=player, kind=kind, seconds=seconds if kind in TIME_KINDS else None,
            all_games=bool(all_games and kind in TIME_KINDS), result=result if kind == Decision.Kind.SCORE else "",
            text=text, by=by, at=at, appealable_until=_appeal_until(at, norm), answers=answers,
        )  # fmt: skip
        effects = []
        notice = _notice(decision)
        for each in games:
            effects.append(_apply(decision, each, notice))
        decision.effects = effects
        decision.save(update_fields=["effects"])
        if answers is not None:
            # The note in the deciding TD's own language (the desk he reads it on).
            DeskMark.objects.get_or_create(message=answers, defaults={"by": by, "at": at, "note": describe(decision)})
        _audit(decision, by, "play.decision", f"{event.code}: {described_in_english(decision)}", text)
        _mail_decision(decision)
    return decision


def _apply(decision: Decision, game: MobileGame, notice: tuple[str, dict]) -> dict:
    """One game's part of a decision: its ruling in the record and the message to its players."""
    kind = decision.kind
    effect: dict = {"game": game.pk}
    if kind in TIME_KINDS:
        color = game.color_of(decision.player_id)
        sign = -1 if kind == Decision.Kind.CREDIT else 1  # a credit lowers the accumulated time
        action = {"action": "adjust", "color": color, "seconds": sign * decision.seconds}
        effect.update(color=color, seconds=sign * decision.seconds)
    elif kind in (Decision.Kind.SCORE, Decision.Kind.DISQUALIFY):
        value = state.load(game)
        effect["before"] = [value.ruled.result, value.ruled.termination] if value.ruled else None
        if kind == Decision.Kind.SCORE:
            scored, word = decision.result, SCORED
        else:
            loser = game.color_of(decision.player_id)
            scored, word = (ending.BLACK_WINS if loser == "white" else ending.WHITE_WINS), DISQUALIFIED
        action = {"action": "score", "result": scored, "termination": word}
        effect["after"] = [scored, word]
    else:
        action = {"action": "note"}
    rulings.game_rule(game=game, action=action, text=decision.text, by=decision.by, at=decision.at, notice=notice)
    return effect


def claim_rule(
    *, event: MobileEvent, game: MobileGame, against: str, ply: int, upheld: bool, by, text: str,
    no_further: bool = False, at: datetime.datetime | None = None,
) -> Decision:  # fmt: skip
    """The TD's decision on a time claim from the desk (rule 7d, through play.rulings.claim_decide:
    upheld, a loss or a draw when the opponent cannot mate; dismissed, play on, optionally no
    further claim against him in this control period, rule 7f), kept as an appealable decision."""
    at = clock.whole_second(at or timezone.now())
    text = (text or "").strip()
    if game.event_id != event.pk:
        raise DeskError(f"#{game.code} is not a game of {event.name}")
    if not text:
        raise DeskError("a decision says why")
    if not may_rule_claims(by, event, game):
        refuse(by, event, [game], "only the event's TD decides (the chairman for the TD's own games)", claims=True)
    with transaction.atomic():
        rulings.claim_decide(
            game=game, against=against, ply=ply, upheld=upheld, by=by, at=at, no_further=no_further and not upheld,
            reason=text,
        )  # fmt: skip
        decision = Decision.objects.create(
            event=event, game=game, player=game.player_of(against), kind=Decision.Kind.CLAIM,
            result="upheld" if upheld else "dismissed", text=text, by=by, at=at,
            appealable_until=_appeal_until(at, game.norm),
            effects=[{"game": game.pk, "against": against, "ply": ply, "no_further": no_further and not upheld}],
        )  # fmt: skip
        rulings.game_rule(game=game, action={"action": "note"}, text=text, by=by, at=at, notice=_notice(decision))
        _audit(decision, by, "play.claim_decision", f"#{game.code}: {described_in_english(decision)}", text)
        _mail_decision(decision)
    return decision


# --- appeals -------------------------------------------------------------------------------------


def appeal_rule(*, decision: Decision, message: Transmission, reverse: bool, reasons: str, by,
                at: datetime.datetime | None = None) -> Appeal:  # fmt: skip
    """The Appeals Commission chairman's final ruling on a player's APPEAL (rule 10c): the
    decision upheld, or reversed (what it changed in each game is undone by a new ruling in the
    record: the time given back, the claim decided the other way, the scored result cleared).
    Both players are told; a changed result re-rates."""
    at = clock.whole_second(at or timezone.now())
    reasons = (reasons or "").strip()
    event = decision.event
    if not may_rule_appeals(by, event, decision, message):
        refuse(
            by, event, [], "only the event's Appeals Commission chairman rules on appeals", decision=decision,
            message=message,
        )  # fmt: skip
    if not reasons:
        raise DeskError("a ruling gives its reasons")
    if message.kind != "appeal" or message.party != "td" or message.game_id is None:
        raise DeskError("that message is not an appeal")
    if Appeal.objects.filter(message=message).exists():
        raise DeskError("that appeal was already ruled on; the ruling is final")
    if not decision.at <= message.at <= decision.appealable_until:
        raise DeskError("the appeal did not arrive within the window of that decision")
    game = message.game
    if game.event_id != decision.event_id or (decision.game_id and decision.game_id != game.pk):
        raise DeskError("the appeal is from another game than the decision's")
    appellant = game.player_of(message.data.get("from"))
    data = {
        "decision": decision_facts(decision), "what": described_in_english(decision), "why": reasons,
        "reversed": reverse,
    }  # fmt: skip
    with transaction.atomic():
        appeal = Appeal.objects.create(
            decision=decision, message=message, player=appellant, reversed=reverse, reasons=reasons, by=by, at=at
        )
        games = {g.pk: g for g in MobileGame.objects.filter(pk__in=[e["game"] for e in decision.effects])}
        notified = set()
        if reverse:
            for effect in decision.effects:
                action = _undo(decision, effect)
                target = games[effect["game"]]
                if action["action"] == "restore":
                    rulings.game_annul(
                        game=target, annul=False, text=reasons, by=by, at=at, notice=("appeal ruling", data)
                    )
                else:
                    rulings.game_rule(
                        game=target, action=action, text=reasons, by=by, at=at, notice=("appeal ruling", data)
                    )
                notified.add(target.pk)
        if game.pk not in notified:
            rulings.game_rule(game=game, action={"action": "note"}, text=reasons, by=by, at=at,
                               notice=("appeal ruling", data))  # fmt: skip
        audit.record(
            actor=by, action="play.appeal_ruling", target=appeal,
            summary=f"{event.code}: appeal of {described_in_english(decision)} {'reversed' if reverse else 'upheld'}",
            after={"decision": decision.pk, "reversed": reverse}, reason=reasons,
        )  # fmt: skip

        def write() -> tuple[str, str]:
            # Whole sentences per verdict: the Russian participle agrees with "решение".
            if reverse:
                subject, ruled = (
                    _("Appeal ruled: the TD decision is reversed"),
                    _("%(event)s: the TD decision (%(what)s) is reversed."),
                )
            else:
                subject, ruled = (
                    _("Appeal ruled: the TD decision is upheld"),
                    _("%(event)s: the TD decision (%(what)s) is upheld."),
                )
            body = [
                ruled % {"event": event.name, "what": describe(decision)},
                _("Reasons: %(reasons)s") % {"reasons": reasons},
                _("This ruling is final."),
            ]
            return subject, "\n".join(body)

        _mail_each(_involved(decision) | {game.white_id, game.black_id}, write)
    return appeal


def _undo(decision: Decision, effect: dict) -> dict:
    kind = decision.kind
    if kind == Decision.Kind.CLAIM:
        return {"action": "reverse claim", "against": effect["against"], "ply": effect["ply"]}
    if kind in TIME_KINDS:
        return {"action": "adjust", "color": effect["color"], "seconds": -effect["seconds"]}
    if effect.get("annulled"):
        return {"action": "restore"}
    if kind in (Decision.Kind.SCORE, Decision.Kind.DISQUALIFY, Decision.Kind.WITHDRAW):
        before = effect.get("before")
        if before:
            return {"action": "score", "result": before[0], "termination": before[1]}
        return {"action": "score", "result": None, "termination": ""}
    return {"action": "note"}


# --- handled -------------------------------------------------------------------------------------


def mark_handled(*, message: Transmission, by, note: str = "", at: datetime.datetime | None = None) -> DeskMark:
    """A DELAY, FAILURE, DISPUTE, protest or appeal notice marked handled by whoever decides on
    its game (an appeal: by the chairman, e.g. one out of time). Nothing else changes."""
    if message.party != "td" or message.kind not in NOTICE_KINDS or message.game_id is None:
        raise DeskError("only a notice for the TD can be marked handled")
    game = message.game
    event = game.event
    if event is None:
        raise DeskError("that game belongs to no event")
    if message.kind == "appeal":
        appealed = conflict.appealed(message, list(event.decisions.all()))
        if not may_rule_appeals(by, event, appealed, message):
            refuse(by, event, [game], "only the chairman marks an appeal handled", decision=appealed, message=message)
    elif not may_decide(by, event, game):
        refuse(by, event, [game], "only who decides on that game may mark it handled")
    with transaction.atomic():
        if DeskMark.objects.filter(message=message).exists():
            raise DeskError("already handled")
        mark = DeskMark.objects.create(message=message, by=by, at=at or timezone.now(), note=note[:500])
        audit.record(
            actor=by, action="play.desk_handled", target=message, summary=f"#{game.code}: {message.kind} handled",
            reason=note,
        )  # fmt: skip
    return mark


# --- withdrawal (rule 8) -------------------------------------------------------------------------

WITHDRAWAL_MODES = ("annul", "adjudicate", "losses")
ADJUDICATED = "adjudication"
WITHDRAWN = "withdrawal"


def withdrawal_plan(event: MobileEvent, player, mode: str, results: dict[int, str] | None = None) -> list[dict]:
    """What a withdrawal does to each of the player's games (annulled ones aside): `annul` takes
    every one out of the table and the ratings; `adjudicate` gives each unfinished one the result
    the TD entered (`results`, by game id); `losses` scores each unfinished one as his loss.
    Refused with the reason when the mode or an adjudication is missing."""
    if mode not in WITHDRAWAL_MODES:
        raise DeskError("choose: annul all his games, adjudicate the unfinished ones, or score them as losses")
    if not event.entries.filter(player=player).exists():
        raise DeskError(f"{player.full_name} does not play in {event.name}")
    results = results or {}
    plan = []
    for game in _games_of(event, player, open_only=False):
        unfinished = game.status == MobileGame.Status.OPEN
        if mode == "annul":
            plan.append({"game": game, "annul": True, "result": None})
        elif unfinished and mode == "losses":
            loss = ending.BLACK_WINS if game.color_of(player.pk) == "white" else ending.WHITE_WINS
            plan.append({"game": game, "annul": False, "result": loss, "termination": WITHDRAWN})
        elif unfinished:
            given = results.get(game.pk, "")
            if given not in RESULTS:
                raise DeskError(f"enter the result of #{game.code} (1-0, 0-1 or 1/2-1/2)")
            plan.append({"game": game, "annul": False, "result": given, "termination": ADJUDICATED})
    return plan


def withdraw(
    *, event: MobileEvent, player, mode: str, by, text: str, results: dict[int, str] | None = None,
    at: datetime.datetime | None = None,
) -> Decision:  # fmt: skip
    """The TD marks a player withdrawn (rule 8; rules 1c, 5b) and applies the plan to his games:
    each change is a ruling in the game's record, told to both players; the ratings re-rate from
    the earliest changed finishing moment. Appealable like any decision."""
    at = clock.whole_second(at or timezone.now())
    text = (text or "").strip()
    if not text:
        raise DeskError("a decision says why")
    plan = withdrawal_plan(event, player, mode, results)
    checked(event, by, [step["game"] for step in plan], None)
    with transaction.atomic():
        decision = Decision.objects.create(
            event=event, player=player, kind=Decision.Kind.WITHDRAW, result=mode, text=text, by=by, at=at,
            appealable_until=_appeal_until(at, event.norm),
        )  # fmt: skip
        notice = _notice(decision)
        effects = []
        for step in plan:
            game = step["game"]
            if step["annul"]:
                rulings.game_annul(game=game, annul=True, text=text, by=by, at=at, notice=notice)
                effects.append({"game": game.pk, "annulled": True})
                continue
            value = state.load(game)
            before = [value.ruled.result, value.ruled.termination] if value.ruled else None
            action = {"action": "score", "result": step["result"], "termination": step["termination"]}
            rulings.game_rule(game=game, action=action, text=text, by=by, at=at, notice=notice)
            effects.append({"game": game.pk, "before": before, "after": [step["result"], step["termination"]]})
        decision.effects = effects
        decision.save(update_fields=["effects"])
        _audit(decision, by, "play.withdrawal", f"{event.code}: {described_in_english(decision)}", text)
        _mail_decision(decision)
    return decision


# --- enquiries (rule 5b) -------------------------------------------------------------------------


def enquiry_send(
    *, event: MobileEvent, player, text: str, deadline: datetime.datetime, by, at: datetime.datetime | None = None
) -> Enquiry:
    """The TD asks a player a question with a deadline (rule 5b), on the channel of his latest
    unfinished game in the event (his latest game if none is unfinished)."""
    at = clock.whole_second(at or timezone.now())
    text = (text or "").strip()
    if not text:
        raise DeskError("write the question")
    if timezone.is_naive(deadline) or deadline <= at:
        raise DeskError("the deadline must be a moment after now")
    games = _games_of(event, player, open_only=False)
    if not games:
        raise DeskError(f"{player.full_name} has no game in {event.name}")
    game = max(games, key=lambda g: (g.status == MobileGame.Status.OPEN, g.pk))
    checked(event, by, [game], None)
    with transaction.atomic():
        enquiry = Enquiry.objects.create(
            event=event, player=player, game=game, text=text, deadline=deadline, by=by, at=at
        )
        rulings.player_notify(
            game=game, color=game.color_of(player.pk), kind="enquiry",
            data={"text": text, "deadline": iso(deadline)}, at=at,
        )  # fmt: skip
        audit.record(actor=by, action="play.enquiry", target=enquiry, summary=f"{event.code}: enquiry to {player}",
                     after={"deadline": iso(deadline)}, reason=text)  # fmt: skip
    return enquiry


def enquiry_close(*, enquiry: Enquiry, by, at: datetime.datetime | None = None) -> Enquiry:
    """The TD closes an enquiry (answered, or acted on): it leaves the queue."""
    if not may_decide(by, enquiry.event, enquiry.game):
        refuse(by, enquiry.event, [enquiry.game], "only the event's TD closes its enquiries")
    if enquiry.closed_at is not None:
        raise DeskError("already closed")
    enquiry.closed_at = at or timezone.now()
    enquiry.save(update_fields=["closed_at"])
    audit.record(actor=by, action="play.enquiry_closed", target=enquiry, summary=f"enquiry {enquiry.pk} closed")
    return enquiry
