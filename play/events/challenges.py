"""Challenge games (spec, Who and what, Decision): one player offers a single game to another
outside events; it is played only when the opponent (or the account holding his link) accepts,
starts at that moment, and is rated with W = PLAY_CHALLENGE_WEIGHT (250). The writes of this
feature, and the one read its page needs."""

from __future__ import annotations

import random

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from play import services
from play.models import Challenge, MobileGame
from play.rules import clock
from players.selectors import plays_as


class ChallengeError(services.PlayError):
    """A challenge the rules refuse; the message says why."""


def challenge_offer(*, user, challenger, opponent, side: str = Challenge.Side.RANDOM, control: str = "",
                    norm: int = 60, note: str = "") -> Challenge:  # fmt: skip
    if not plays_as(user, challenger):
        raise ChallengeError(_("You may challenge only as a player your account is confirmed to play as."))
    if opponent is None or opponent.pk == challenger.pk:
        raise ChallengeError(_("Choose an opponent other than yourself."))
    control = control or str(clock.TimeControl())
    try:
        clock.TimeControl.parse(control, norm=norm)
    except ValueError as error:
        raise ChallengeError(_("Time control %(control)s: %(error)s") % {"control": control, "error": error}) from error
    if MobileGame.objects.filter(
        Q(white=challenger, black=opponent) | Q(white=opponent, black=challenger), status=MobileGame.Status.OPEN
    ).exists():
        raise ChallengeError(_("You already have a game in progress with this player."))
    try:
        with transaction.atomic():
            return Challenge.objects.create(
                challenger=challenger, opponent=opponent, side=side, control=control, norm=norm, note=note,
                created_by=user,
            )  # fmt: skip
    except IntegrityError:
        raise ChallengeError(_("You have already challenged this player; wait for the answer.")) from None


def challenge_answer(*, user, challenge: Challenge, accept: bool) -> Challenge:
    """The opponent accepts (the game is created and starts now) or declines."""
    with transaction.atomic():
        challenge = Challenge.objects.select_for_update().select_related("challenger", "opponent").get(pk=challenge.pk)
        if not plays_as(user, challenge.opponent):
            raise ChallengeError(_("Only the challenged player may answer."))
        if challenge.status != Challenge.Status.OPEN:
            raise ChallengeError(_("This challenge is no longer open."))
        challenge.answered_by = user
        challenge.answered_at = timezone.now()
        if accept:
            side = challenge.side
            if side == Challenge.Side.RANDOM:
                side = random.choice((Challenge.Side.WHITE, Challenge.Side.BLACK))  # noqa: S311 (a coin toss)
            white, black = (
                (challenge.challenger, challenge.opponent)
                if side == Challenge.Side.WHITE
                else (challenge.opponent, challenge.challenger)
            )
            challenge.game = services.game_create(
                white=white, black=black, start=challenge.answered_at, control=challenge.control,
                norm=challenge.norm, weight=settings.PLAY_CHALLENGE_WEIGHT,
            )  # fmt: skip
            challenge.status = Challenge.Status.ACCEPTED
        else:
            challenge.status = Challenge.Status.DECLINED
        challenge.save()
    return challenge


def challenge_withdraw(*, user, challenge: Challenge) -> Challenge:
    with transaction.atomic():
        challenge = Challenge.objects.select_for_update().get(pk=challenge.pk)
        if not plays_as(user, challenge.challenger):
            raise ChallengeError(_("Only the challenger may withdraw a challenge."))
        if challenge.status != Challenge.Status.OPEN:
            raise ChallengeError(_("This challenge is no longer open."))
        challenge.status = Challenge.Status.WITHDRAWN
        challenge.answered_by = user
        challenge.answered_at = timezone.now()
        challenge.save()
    return challenge


def challenges_of(players) -> list[Challenge]:
    """Open challenges made by or to these players, and the last answered ones (a read)."""
    ids = [p.pk for p in players]
    return list(
        Challenge.objects.filter(Q(challenger_id__in=ids) | Q(opponent_id__in=ids))
        .select_related("challenger", "opponent", "game")
        .order_by("-created_at")[:50]
    )
