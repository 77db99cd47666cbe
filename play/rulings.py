"""Rulings on one game, written in its continuous record so the game rebuilt from the record is
the game stored: the TD's decision on a time claim (rule 7d), a ruling on time or the result and
the Appeals Commission's reversal (play.state.apply_ruling replays them), annulment and its
reversal (rule 8), and a TD's message to one player (rule 5b). The desk (play/desk/) calls these;
they write through the message service's value-and-outbox helpers (play.services), delivered
on commit like any message."""

from __future__ import annotations

import datetime

from django.db import transaction
from django.utils import timezone

from play import services, signals, state
from play.models import Channel, Color, MobileGame, Transmission
from play.rules import clock, ending
from play.rules import game as machine


def claim_decide(
    *, game: MobileGame, against: str, ply: int, upheld: bool, by, at: datetime.datetime | None = None,
    no_further: bool = False, reason: str = "",
) -> MobileGame:  # fmt: skip
    """The TD's decision on a time claim (rule 7d), recorded in the continuous record as a ruling
    so the game can be rebuilt from the record alone."""
    at = clock.whole_second(at or timezone.now())
    with transaction.atomic():
        game = MobileGame.objects.select_for_update().get(pk=game.pk)
        value = state.load(game)
        claim = state.find_claim(value, against, ply)
        if claim is None:
            raise services.PlayError(f"no time claim against {against} at ply {ply} in #{game.code}")
        # Checked under the row lock: two TDs deciding at once, the second finds it decided.
        if claim.status not in (ending.OPEN, ending.PROTESTED):
            raise services.PlayError(
                f"the claim against {against} at ply {ply} in #{game.code} is already {claim.status}"
            )
        value, send = machine.decide(value, claim.claim, upheld=upheld, at=at, no_further=no_further)
        data = {
            "action": "decide", "against": against, "ply": ply, "upheld": upheld, "no_further": no_further,
            "reason": reason, "by": getattr(by, "pk", None),
        }  # fmt: skip
        Transmission.objects.create(
            game=game, direction=Transmission.Direction.RULING, channel=Channel.WEB, party="td", kind="decide",
            text=reason or ("claim upheld" if upheld else "claim dismissed"), data=data, at=at,
        )  # fmt: skip
        services.commit_value(game, value, send)
        event = "upheld" if upheld else "dismissed"
        transaction.on_commit(lambda: signals.claim_event.send_robust(sender=None, event=event, count=1))
    return game


def game_rule(
    *, game: MobileGame, action: dict, text: str, by, at: datetime.datetime, notice: tuple[str, dict] | None = None
) -> MobileGame:
    """A ruling on one game other than a claim decision (a TD's decision on time or the result,
    the Appeals Commission's reversal): written in the continuous record as a ruling whose data
    `action` play.state.apply_ruling replays, and applied through that same function, so the
    game rebuilt from the record is the game stored. `notice` (a message kind and its data) goes
    to both players through their channels. A changed result re-rates on commit."""
    at = clock.whole_second(at)
    with transaction.atomic():
        game = MobileGame.objects.select_for_update(of=("self",)).select_related("white", "black").get(pk=game.pk)
        # The clock's events due before the ruling happen first, as they would have.
        value, early = machine.advance(state.load(game), at)
        row = Transmission(
            game=game, direction=Transmission.Direction.RULING, channel=Channel.WEB, party="td",
            kind=action["action"], text=text, data={**action, "by": getattr(by, "pk", None)}, at=at,
        )  # fmt: skip
        value = state.apply_ruling(value, row)
        row.save()
        send = list(early)
        if notice is not None:
            send += [machine.Outbound(color, notice[0], at, notice[1]) for color in (Color.WHITE, Color.BLACK)]
        services.commit_value(game, value, send)
    return game


def game_annul(
    *, game: MobileGame, annul: bool, text: str, by, at: datetime.datetime, notice: tuple[str, dict]
) -> MobileGame:
    """Annul a game (rule 8: it leaves the crosstable and the ratings), or restore an annulled one
    (an appeal reversed the withdrawal). Annulment is the row's status, not the machine's: the
    ruling in the record says so, and the value is unchanged. Re-rates from its finishing moment."""
    at = clock.whole_second(at)
    with transaction.atomic():
        game = MobileGame.objects.select_for_update(of=("self",)).select_related("white", "black").get(pk=game.pk)
        before = game.status
        Transmission.objects.create(
            game=game, direction=Transmission.Direction.RULING, channel=Channel.WEB, party="td",
            kind="annul" if annul else "restore", text=text,
            data={"action": "annul" if annul else "restore", "by": getattr(by, "pk", None)}, at=at,
        )  # fmt: skip
        if annul:
            game.status = MobileGame.Status.ANNULLED
        elif before == MobileGame.Status.ANNULLED:
            game.status = MobileGame.Status.OPEN  # store() sets it from the value
        value = state.load(game)
        state.store(game, value)
        if annul:
            # Out of play: the sweeper has nothing more to do for it, and no list shows it on move.
            game.next_due, game.on_move, game.on_move_since = None, "", None
        game.save(update_fields=services.SAVED_FIELDS)
        replies = [
            row
            for color in (Color.WHITE, Color.BLACK)
            for row in services.outbound_rows(game, machine.Outbound(color, notice[0], at, notice[1]))
        ]
        Transmission.objects.bulk_create(replies)
        moment = game.finished_at or value.finished_at
        services.deliver_on_commit(replies, [(game, moment)] if moment and game.status != before else [])
    return game


def player_notify(*, game: MobileGame, color: str, kind: str, data: dict, at: datetime.datetime) -> Transmission:
    """A message from the TD to one player of a game (an enquiry, rule 5b) on his channel, kept in
    the game's record and delivered on commit. Returns its first row (an SMS may go in parts)."""
    with transaction.atomic():
        game = MobileGame.objects.select_related("white", "black").get(pk=game.pk)
        rows = Transmission.objects.bulk_create(services.outbound_rows(game, machine.Outbound(color, kind, at, data)))
        services.deliver_on_commit(rows, [])
    return rows[0]
