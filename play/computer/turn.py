"""Whose turn: whether a computer is on move in a game, and the queueing of its move (on commit,
after the level's think time, by the task's name through play/queue.py), with the sweep that
queues again a move lost on the way. Below play.services, which asks move_queue after every
message and every new game; the move itself is played by play.computer.services.engine_move_play."""

from __future__ import annotations

import datetime
import logging

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from play import queue, state
from play.models import ComputerLevel, MobileGame
from players.models import Player
from toolkit import queueing

logger = logging.getLogger("play.computer.services")  # where these lines logged before turn.py


def level_of(player: Player) -> ComputerLevel | None:
    if player.kind != Player.Kind.COMPUTER:
        return None
    return ComputerLevel.objects.filter(player=player).first()


def computer_on_move(game: MobileGame) -> ComputerLevel | None:
    """The level whose turn it is in this game (its players loaded), or None."""
    computers = Player.Kind.COMPUTER in (game.white.kind, game.black.kind)
    if not computers or game.status != MobileGame.Status.OPEN:
        return None  # a game between people costs no unpickling here
    value = state.load(game)
    if value.over:
        return None
    player = game.player_of(value.on_move)
    return level_of(player) if player.kind == Player.Kind.COMPUTER else None


def move_queue(game: MobileGame) -> None:
    """When it is a computer's turn, queue its move on the engine queue after the level's think
    time, once the current transaction commits (the worker must see the position)."""
    level = computer_on_move(game)
    if level is None:
        return
    game_id, ply, think = game.pk, len(state.load(game).moves), level.think_seconds
    transaction.on_commit(lambda: _queue(game_id, ply, think))


def _queue(game_id: int, ply: int, think: int) -> None:
    try:
        queueing.task(queue.ENGINE_MOVE).apply_async((game_id, ply), countdown=think)
    except Exception:  # the broker is down: logged for staff; the game's clock runs on
        logger.exception("the computer's move in game %s at ply %s could not be queued", game_id, ply)


# A computer's move not in within this long after its think time was lost on the way (the broker
# was down when it was queued, the task was dropped): the sweep queues it again.
OVERDUE = datetime.timedelta(minutes=2)


def computer_moves_sweep(*, now: datetime.datetime | None = None) -> int:
    """Queue again the move of every open game where a computer has been on move for longer than
    its think time and OVERDUE (one query over the few games computers play). A move that is only
    slow, not lost, is queued twice and played once (the dedup key). Returns how many it queued."""
    now = now or timezone.now()
    waiting = MobileGame.objects.filter(status=MobileGame.Status.OPEN, on_move_since__isnull=False).filter(
        Q(on_move="white", white__kind=Player.Kind.COMPUTER) | Q(on_move="black", black__kind=Player.Kind.COMPUTER)
    )
    queued = 0
    for game in waiting.select_related("white", "black"):
        level = computer_on_move(game)
        if level is None or game.on_move_since > now - OVERDUE - datetime.timedelta(seconds=level.think_seconds):
            continue
        _queue(game.pk, game.plies, 0)
        queued += 1
    return queued
