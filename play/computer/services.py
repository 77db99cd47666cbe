"""Computer opponents' writes: the ladder's levels and their players, games against a level, and
the computer's move, which reaches the game through play.services.message_receive like anyone's.

The engine runs outside any transaction (a search takes up to seconds; no row stays locked that
long). The move is then sent as a console message with the dedup key engine:<game>:<ply>: a
retried task, or two workers holding the same task after a crash, play it once.
"""

from __future__ import annotations

import logging
import random

import chess
from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from play import services, state
from play.channels import identities
from play.computer import engine
from play.computer.draws import accepts_draw
from play.computer.turn import computer_on_move
from play.models import Channel, ComputerLevel, MobileGame, Transmission
from play.rules.clock import opponent
from play.rules.message import PlayRequest
from play.rules.notation import write_moves
from players.models import Player
from players.selectors import plays_as

logger = logging.getLogger(__name__)

SIDES = ("white", "black", "random")
COMPUTER_FAMILY_NAME = "Computer"


class ComputerError(services.PlayError):
    """A game against a computer the site refuses; the message says why, for the user."""


def engine_config() -> engine.EngineConfig:
    return engine.EngineConfig(path=settings.PLAY_ENGINE_PATH, timeout=float(settings.PLAY_ENGINE_TIMEOUT))


def engine_here() -> engine.Engine:
    """This process's engine (one per worker process, reused)."""
    return engine.engine_for(engine_config())


# --- levels --------------------------------------------------------------------------------------


def level_create(**fields) -> ComputerLevel:
    """A new level (checked like the admin form: limits present, think time 3-60 s)."""
    level = ComputerLevel(**fields)
    level.full_clean(exclude=["player"])
    level.save()
    return level


def levels_ensure() -> int:
    """Make the default ladder (play.computer.ladder) when no level exists; how many it made."""
    from play.computer.ladder import LADDER

    with transaction.atomic():
        if ComputerLevel.objects.exists():
            return 0
        levels = [
            ComputerLevel(number=number, name=name, think_seconds=think, **settings_)
            for number, name, settings_, think in LADDER
        ]
        ComputerLevel.objects.bulk_create(levels)
    return len(levels)


def level_revise(*, level: ComputerLevel, **changes) -> ComputerLevel:
    """Change a level. Its name, think time and whether it is offered change in place; a change of
    its engine settings retires it and makes a new level of the same number with a new player, so
    the old player's rating stays the rating of the strength it was earned with (and its games in
    progress keep the settings they began with). Returns the level now current."""
    unknown = set(changes) - {"name", "think_seconds", "active", *ComputerLevel.ENGINE_FIELDS}
    if unknown:
        raise ComputerError(f"a level has no field {', '.join(sorted(unknown))}")
    with transaction.atomic():
        current = ComputerLevel.objects.select_for_update().get(pk=level.pk)
        engine_changed = any(
            name in changes and changes[name] != getattr(current, name) for name in ComputerLevel.ENGINE_FIELDS
        )
        if not engine_changed:
            for name, value in changes.items():
                setattr(current, name, value)
            current.full_clean(exclude=["player"])
            current.save()
            return current
        if not current.active:
            raise ComputerError(_("A retired level keeps its settings: revise the level that replaced it."))
        fields = {
            "number": current.number, "name": current.name, "think_seconds": current.think_seconds,
            **current.engine_settings(), **changes,
        }  # fmt: skip
        new = ComputerLevel(**fields)
        new.full_clean(exclude=["player"], validate_constraints=False)
        current.active, current.retired_at = False, timezone.now()
        current.save(update_fields=["active", "retired_at"])
        new.save()
        return new


def level_player(level: ComputerLevel) -> Player:
    """The level's computer player, made on first need (kind computer: Mchess rates it from 1000)."""
    if level.player_id is not None:
        return level.player
    from players.services import player_create

    with transaction.atomic():
        locked = ComputerLevel.objects.select_for_update().get(pk=level.pk)
        if locked.player_id is None:
            # Levels of one number that were revised are told apart by their revision.
            revision = ComputerLevel.objects.filter(number=locked.number, pk__lte=locked.pk).count()
            given = f"level {locked.number} ({locked.name})" + (f", revision {revision}" if revision > 1 else "")
            locked.player = player_create(
                family_name=COMPUTER_FAMILY_NAME, given_names=given, kind=Player.Kind.COMPUTER
            )
            locked.save(update_fields=["player"])
    level.player = locked.player
    return level.player


# --- games against a level -----------------------------------------------------------------------


def computer_game_create(
    *, player: Player, level: ComputerLevel, side: str = "random", user=None, control: str | None = None,
    norm: int | None = None, channel: str = Channel.WEB, start=None,
) -> MobileGame:  # fmt: skip
    """A game between a person and a computer level, rated like a challenge game (W =
    PLAY_CHALLENGE_WEIGHT). `user`, when given, must play as `player` (the web); `channel` is where
    the person's messages go. Refused without the engine, naming the Debian package."""
    if user is not None and not plays_as(user, player):
        raise ComputerError(_("You may play only as a player your account is confirmed to play as."))
    if player.kind != Player.Kind.HUMAN:
        raise ComputerError(_("Computers play people here; level against level is play_calibrate's."))
    if side not in SIDES:
        raise ComputerError(_("Choose white, black or random, not %(side)r.") % {"side": side})
    if not level.active:
        raise ComputerError(_("Level %(number)s is not offered now.") % {"number": level.number})
    try:
        engine.check_installed(settings.PLAY_ENGINE_PATH)
    except engine.EngineMissing as error:
        raise ComputerError(_("Computer opponents are not available: %(why)s") % {"why": error}) from error
    computer = level_player(level)
    if MobileGame.objects.filter(
        Q(white=player, black=computer) | Q(white=computer, black=player), status=MobileGame.Status.OPEN
    ).exists():
        raise ComputerError(_("You already have a game in progress with level %(number)s.") % {"number": level.number})
    if side == "random":
        side = random.choice(("white", "black"))  # noqa: S311 (a coin toss)
    white, black = (player, computer) if side == "white" else (computer, player)
    with transaction.atomic():
        game = services.game_create(
            white=white, black=black, start=start or timezone.now(), control=control, norm=norm,
            weight=settings.PLAY_CHALLENGE_WEIGHT,
        )  # fmt: skip
        game.white_channel = channel if side == "white" else Channel.CONSOLE
        game.black_channel = channel if side == "black" else Channel.CONSOLE
        game.save(update_fields=["white_channel", "black_channel"])
    return game  # game_create queued the computer's first move if it has White


@services.request_handler(PlayRequest)
def message_play(
    request: PlayRequest, *, player: Player, channel: str, sender: str, text: str, arrival, external_id=None
):
    """A "PLAY COMPUTER N" message (parsed by play.rules.message.parse_request, handed here by
    play.services.message_receive): the game is made and the sender told its code, or told why
    not. The message is kept in the record either way."""
    number, side = request.level, request.side
    level = ComputerLevel.objects.filter(number=number, active=True).first()
    with translation.override(identities.message_language(channel, player)):
        game, kind, answer = _play_answer(player, level, number, side, channel, arrival)
    with transaction.atomic():
        inbound = Transmission.objects.create(
            game=game, player=player, direction=Transmission.Direction.IN, channel=channel, address=sender,
            party=(game.color_of(player.pk) if game else "") or "", kind=kind, text=text, at=arrival,
            external_id=external_id,
        )  # fmt: skip
        # An SMS reply may go in numbered parts: one row each.
        replies = services.reply_send(
            game=game, player=player, channel=channel, address=sender, kind=kind, text=answer, at=arrival
        )
    return services.Receipt(kind, game, replies, inbound)


def _play_answer(player, level, number, side, channel, arrival) -> tuple[MobileGame | None, str, str]:
    """(the new game or None, the reply's kind, its words) for PLAY COMPUTER."""
    try:
        if level is None:
            numbers = ", ".join(
                str(n) for n in ComputerLevel.objects.filter(active=True).values_list("number", flat=True)
            )
            raise ComputerError(
                _("There is no computer level %(number)s; the levels are %(levels)s.")
                % {"number": number, "levels": numbers}
            )
        game = computer_game_create(player=player, level=level, side=side, channel=channel, start=arrival)
    except services.PlayError as error:
        game, kind, answer = None, "computer refused", str(error)
    else:
        kind = "computer game"
        # Whole sentences per colour: Russian declines it ("вы играете белыми").
        answer = (
            _(
                "New game against computer level %(number)s (%(name)s): you play White, time control %(control)s. "
                "Start your messages with #%(code)s."
            )
            if game.white_id == player.pk
            else _(
                "New game against computer level %(number)s (%(name)s): you play Black, time control %(control)s. "
                "Start your messages with #%(code)s."
            )
        ) % {"number": level.number, "name": level.name, "control": game.control, "code": game.code}
    return game, kind, answer


def move_message(game: MobileGame, uci: str) -> str:
    """The computer's message: its reply, preceded by the opponent's latest move as the rules want
    (rule 4b), e.g. "#CODE 12. Nf3 Nc6"."""
    moves = [m.move for m in state.load(game).moves]
    board = chess.Board()
    for move in moves[:-1]:
        board.push(move)
    reply = chess.Move.from_uci(uci)
    if moves:
        return f"#{game.code} " + write_moves([moves[-1], reply], first_ply=len(moves) - 1, board=board)
    return f"#{game.code} " + write_moves([reply])


def engine_move_play(*, game_id: int, ply: int) -> str:
    """The computer's move at `ply` (the number of plies played when it was queued) in one game:
    what it did, for the task's log. Does nothing when the game moved on (a retry after the move
    arrived, a resignation, a flag) or it is no longer a computer's turn."""
    game = MobileGame.objects.select_related("white", "black").filter(pk=game_id).first()
    if game is None:
        return "no game"
    value = state.load(game)
    if len(value.moves) != ply:
        return "moved on"
    level = computer_on_move(game)
    if level is None:
        return "not a computer's turn"
    choice = engine_here().choose(value.board.fen(), level.strength(), game_key=game.pk)
    computer = game.player_of(value.on_move)
    # An offer made with the human's last move is answered by DRAW (accepted) or by the move (declined).
    offered = value.draw_offer == opponent(value.on_move)
    accepted = offered and accepts_draw(choice.score, len(value.moves))
    text = f"#{game.code} DRAW" if accepted else move_message(game, choice.uci)
    receipt = services.message_receive(
        channel=Channel.CONSOLE, sender=str(computer.federation_id), text=text,
        arrival=timezone.now(), external_id=f"engine:{game.pk}:{ply}", game_code=game.code,
    )  # fmt: skip
    logger.info(
        "level %s %s in #%s (%.2f s, score %s): %s",
        level.number,
        "accepted the draw" if accepted else f"played {choice.san}",
        game.code,
        choice.seconds,
        choice.score,
        receipt.applied,
    )
    return receipt.applied


def engine_missing_message() -> str | None:
    """Why computers cannot play on this site, or None when the engine is installed."""
    try:
        engine.check_installed(settings.PLAY_ENGINE_PATH)
    except engine.EngineMissing as error:
        return str(error)
    return None
