"""A computer opponent's answer to a draw offer: the rule alone (no database, no engine), then
through the game with Debian's Stockfish judging real positions."""

from __future__ import annotations

import io

import chess
import pytest
from django.utils import timezone

from play import services, state
from play.computer import services as computer
from play.computer.draws import LATE_PLIES, MIN_PLIES, accepts_draw
from play.models import ComputerLevel, MobileGame
from tests.players.factories import PlayerFactory


@pytest.mark.parametrize(
    ("score", "plies", "accepted"),
    [
        (-600, MIN_PLIES - 1, False),  # lost, but before move 15 nothing is agreed
        (-600, MIN_PLIES, True),
        (-50, MIN_PLIES, True),  # half a pawn down is worse
        (-49, MIN_PLIES, False),
        (0, LATE_PLIES - 1, False),  # level, but not late yet
        (25, LATE_PLIES, True),
        (-25, LATE_PLIES, True),
        (26, LATE_PLIES, False),  # it stands better: it plays on
        (100_000, 200, False),  # it mates
        (None, 200, False),  # no evaluation: it plays on
    ],
)
def test_it_accepts_a_draw_only_when_worse_or_level_late(score, plies, accepted):
    assert accepts_draw(score, plies) is accepted


# Black, the computer, gave its queen on move 2 and is a queen for a knight down at move 17.
LOST_FOR_BLACK = (
    "e4 e5 Nf3 Qg5 Nxg5 a6 d3 b6 Be2 c6 O-O d6 Nc3 g6 Be3 h6 Nf3 a5 a3 b5 h3 c5 Re1 d5 b3 Nd7 Rb1 Ngf6 "
    "Bf1 Bd6 Qd2 Bb7 g3"
)


def _game_after(line: str) -> MobileGame:
    """A game against level 8 in which the person (White) and the computer (Black) played `line`,
    the person's last move offering a draw; the computer's turn has not been played."""
    person = PlayerFactory()
    computer.levels_ensure()
    game = computer.computer_game_create(
        player=person, level=ComputerLevel.objects.get(number=8, active=True), side="white"
    )
    board = chess.Board()
    sans = line.split()
    for index, san in enumerate(sans):
        move = board.parse_san(san)
        game.refresh_from_db()
        text = computer.move_message(game, move.uci()) + (" draw?" if index == len(sans) - 1 else "")
        mover = game.white if board.turn == chess.WHITE else game.black
        receipt = services.message_receive(
            channel="console", sender=str(mover.federation_id), text=text, arrival=timezone.now()
        )
        assert receipt.applied == "move", (san, receipt)
        board.push(move)
    game.refresh_from_db()
    return game


@pytest.fixture(autouse=True)
def _quiet_console(settings):
    settings.PLAY_CONSOLE_STREAM = io.StringIO()


@pytest.mark.needs("stockfish")
def test_it_accepts_the_draw_offered_in_a_lost_position(db):
    game = _game_after(LOST_FOR_BLACK)
    assert state.load(game).draw_offer == "white"
    assert computer.engine_move_play(game_id=game.pk, ply=33) == "draw agreed"
    game.refresh_from_db()
    assert (game.result, game.plies) == ("1/2-1/2", 33)
    assert game.transmissions.filter(direction="in", player=game.black).last().text == f"#{game.code} DRAW"


@pytest.mark.needs("stockfish")
def test_it_declines_a_draw_in_the_opening_by_playing_its_move(db):
    game = _game_after("e4 e5 Nf3 Nc6 Bb5")
    assert computer.engine_move_play(game_id=game.pk, ply=5) == "move"
    game.refresh_from_db()
    assert (game.result, game.plies) == ("*", 6)
    assert state.load(game).draw_offer is None
