"""The end-of-game rules of docs/rules/mobile-chess.md ("End of a game", "Time claims", "Edge
cases") on python-chess boards. Pure: no database."""

import datetime
import json

import chess
import pytest

from play.rules import ending
from play.rules.ending import ClaimResult, Outcome
from tests.play import examples


def board_after(*sans: str, fen: str = chess.STARTING_FEN) -> chess.Board:
    board = chess.Board(fen)
    for san in sans:
        board.push_san(san)
    return board


def at(hms: str) -> datetime.datetime:
    return datetime.datetime.fromisoformat(f"2026-05-01T{hms}+00:00")


SHUFFLE = ("Nf3", "Nf6", "Ng1", "Ng8")


# --- endings with no claim ----------------------------------------------------------------


def test_it_ends_a_game_at_once_by_checkmate():
    board = board_after("f3", "e5", "g4", "Qh4#")
    assert ending.automatic_end(board) == Outcome("0-1", "checkmate")


def test_it_ends_a_game_at_once_by_stalemate():
    board = chess.Board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert ending.automatic_end(board) == Outcome("1/2-1/2", "stalemate")


@pytest.mark.parametrize(
    "fen",
    [
        "8/8/4k3/8/8/3K4/8/8 w - - 0 1",  # king against king
        "8/8/4k3/8/8/3KB3/8/8 w - - 0 1",  # king and bishop against king
        "8/8/4k3/8/8/3KN3/8/8 w - - 0 1",  # king and knight against king
        "8/8/4kb2/8/8/3KB3/8/8 w - - 0 1",  # bishops on squares of one colour (e3 and f6 dark)
    ],
)
def test_it_ends_a_game_at_once_by_insufficient_material(fen):
    assert ending.automatic_end(chess.Board(fen)) == Outcome("1/2-1/2", "insufficient material")


def test_it_ends_a_game_at_once_on_the_fifth_occurrence_of_a_position():
    board = board_after(*SHUFFLE * 3)
    assert ending.automatic_end(board) is None  # third occurrence: only on a claim
    board = board_after(*SHUFFLE * 4)
    assert ending.automatic_end(board) == Outcome("1/2-1/2", "repetition")


def test_it_ends_a_game_at_once_after_seventy_five_moves_without_capture_or_pawn_move():
    board = chess.Board("8/8/4k3/8/8/3K4/8/R7 w - - 149 100")
    assert ending.automatic_end(board) is None
    board.push_san("Ra2")
    assert ending.automatic_end(board) == Outcome("1/2-1/2", "seventy-five moves")


def test_it_lets_a_mate_on_the_seventy_fifth_move_stand():
    board = chess.Board("k7/8/1K6/8/8/8/8/7R w - - 149 100")
    board.push_san("Rh8#")
    assert ending.automatic_end(board) == Outcome("1-0", "checkmate")


def test_it_lets_a_game_go_on_otherwise():
    assert ending.automatic_end(board_after("e4", "e5")) is None


# --- draw claims --------------------------------------------------------------------------


def test_it_grants_a_draw_claim_on_the_third_occurrence_of_the_position():
    board = board_after(*SHUFFLE * 2)  # the start position a third time, White on move (m011)
    assert ending.automatic_end(board) is None
    assert ending.draw_claim(board) == Outcome("1/2-1/2", "repetition")


def test_it_refers_back_a_draw_claim_before_the_third_occurrence():
    # twice only; python-chess would also accept "the move I am about to make", which a DRAW
    # CLAIM message cannot name
    board = board_after(*SHUFFLE, "Nf3", "Nf6", "Ng1")
    assert board.can_claim_threefold_repetition()
    assert ending.draw_claim(board) is None


def test_it_grants_a_draw_claim_after_fifty_moves_without_capture_or_pawn_move():
    board = chess.Board("8/8/4k3/8/8/3K4/8/R7 b - - 100 80")
    assert ending.automatic_end(board) is None  # the 50-move rule needs a claim
    assert ending.draw_claim(board) == Outcome("1/2-1/2", "fifty moves")


def test_it_refers_back_a_draw_claim_at_forty_nine_and_a_half_moves():
    assert ending.draw_claim(chess.Board("8/8/4k3/8/8/3K4/8/R7 b - - 99 80")) is None


def test_it_tells_a_wrong_draw_claim_that_the_position_occurred_only_twice_and_the_quiet_moves():
    board = board_after(*SHUFFLE, "Nf3", "Nf6", "Ng1")  # Black on move in a position seen twice
    assert ending.draw_claim_refusal(board) == (
        "the position has occurred only twice (three times are needed), and no capture or pawn move for only "
        "3 moves of each player (50 are needed)"
    )


def test_it_tells_a_wrong_draw_claim_for_how_many_moves_there_was_no_capture_or_pawn_move():
    board = chess.Board("8/8/4k3/8/8/3K4/8/R7 b - - 75 80")
    assert ending.draw_claim_refusal(board) == (
        "the position has not occurred before, and no capture or pawn move for only 37 moves of each player "
        "(50 are needed)"
    )
    assert ending.draw_claim_refusal(board_after("e4")) == (
        "the position has not occurred before, and the last move was a capture or a pawn move"
    )
    assert "for only 1 move of each" in ending.draw_claim_refusal(board_after("e4", "e5", "Nf3", "Nf6"))


# --- FIDE 6.9: can the opponent still checkmate? ------------------------------------------


@pytest.mark.parametrize(
    ("fen", "color", "can"),
    [
        ("8/8/4k3/8/8/3K4/8/8 w - - 0 1", chess.WHITE, False),  # a lone king
        ("8/8/4k3/8/8/3KN3/8/8 w - - 0 1", chess.WHITE, False),  # king and knight
        ("8/8/4k3/8/8/3KB3/8/8 w - - 0 1", chess.WHITE, False),  # king and bishop
        ("8/8/4kq2/8/8/3KN3/8/8 w - - 0 1", chess.WHITE, False),  # K+N against K+Q
        ("8/8/4kb2/8/8/3KB3/8/8 w - - 0 1", chess.WHITE, False),  # bishops all on dark squares
        ("8/4p3/4k3/8/8/3KN3/8/8 w - - 0 1", chess.WHITE, True),  # K+N against K+P: a helpmate exists
        ("8/8/4k3/5b2/8/3KB3/8/8 w - - 0 1", chess.WHITE, True),  # bishops on both colours
        ("8/8/4k3/8/8/3KNN2/8/8 w - - 0 1", chess.WHITE, True),  # two knights
        ("8/8/4k3/8/8/3K4/4P3/8 w - - 0 1", chess.WHITE, True),  # a pawn
        ("8/8/4k3/8/8/3K4/8/R7 w - - 0 1", chess.WHITE, True),  # a rook
    ],
)
def test_it_judges_whether_a_side_can_still_checkmate(fen, color, can):
    assert ending.can_checkmate(chess.Board(fen), color) is can


def test_it_makes_a_time_claim_a_loss_when_the_opponent_can_mate():
    board = chess.Board("8/8/4kq2/8/8/3K4/8/8 w - - 0 1")
    assert ending.time_claim_outcome(board, chess.WHITE) == Outcome("0-1", "time")


def test_it_makes_a_time_claim_a_draw_when_the_opponent_cannot_mate():
    board = chess.Board("8/8/4k3/8/8/3K4/8/7Q w - - 0 1")  # Black has a lone king
    assert ending.time_claim_outcome(board, chess.WHITE) == Outcome("1/2-1/2", "time")
    assert ending.time_claim_outcome(board, chess.BLACK) == Outcome("1-0", "time")
    board = chess.Board("8/8/4kq2/8/8/3KN3/8/8 w - - 0 1")  # White's knight cannot mate a queen's side
    assert ending.time_claim_outcome(board, chess.BLACK) == Outcome("1/2-1/2", "time")


# --- the result with claims ---------------------------------------------------------------

RESIGNED = ending.resignation(chess.BLACK)  # "1-0", resignation


def claim(hms: str, status: str, result: str = "0-1") -> ClaimResult:
    return ClaimResult(filed=at(hms), status=status, outcome=Outcome(result, "time"))


def test_it_keeps_the_result_pending_while_a_claim_is_open_or_protested_even_after_the_end():
    assert ending.game_outcome(RESIGNED, [claim("11:00:00", "open")]) == Outcome("*", "pending claim")
    assert ending.game_outcome(None, [claim("11:00:00", "protested")]) == Outcome("*", "pending claim")


def test_it_gives_a_conceded_or_upheld_claim_the_result_though_the_game_ended_otherwise():
    # m005: White's flag fell at 11:23:01, Black resigned at 12:14:48, the claim was conceded
    assert ending.game_outcome(RESIGNED, [claim("11:23:01", "conceded")]) == Outcome("0-1", "time")
    assert ending.game_outcome(RESIGNED, [claim("11:23:01", "upheld")]) == Outcome("0-1", "time")


def test_it_lets_the_earlier_filed_of_two_conceded_claims_decide():
    claims = [claim("12:00:00", "conceded", "1-0"), claim("11:00:00", "conceded", "0-1")]
    assert ending.game_outcome(None, claims) == Outcome("0-1", "time")


def test_it_ignores_a_dismissed_claim():
    assert ending.game_outcome(RESIGNED, [claim("11:00:00", "dismissed")]) == RESIGNED
    assert ending.game_outcome(None, [claim("11:00:00", "dismissed")]) == Outcome("*", "in progress")


def test_it_lets_an_earlier_conceded_claim_decide_over_a_later_open_one_but_not_the_reverse():
    conceded, later_open = claim("11:00:00", "conceded", "0-1"), claim("12:00:00", "open", "1-0")
    assert ending.game_outcome(None, [later_open, conceded]) == Outcome("0-1", "time")
    earlier_open, later_conceded = claim("11:00:00", "open"), claim("12:00:00", "conceded", "1-0")
    assert ending.game_outcome(None, [earlier_open, later_conceded]) == Outcome("*", "pending claim")


def test_it_refuses_an_unknown_claim_status():
    with pytest.raises(ValueError, match="status"):
        ending.game_outcome(None, [claim("11:00:00", "lost")])


def test_it_names_the_colours_of_the_transcript():
    assert (ending.color_named("white"), ending.color_named("black")) == (chess.WHITE, chess.BLACK)
    with pytest.raises(ValueError, match="colour"):
        ending.color_named("White")


# --- the sample transcripts ---------------------------------------------------------------


def test_it_uses_the_words_of_the_transcript_output():
    words = {json.loads(path.read_text())["termination"] for path in examples.EXAMPLES.glob("*.expected.json")}
    module_words = {
        ending.CHECKMATE,
        ending.RESIGNATION,
        ending.TIME,
        ending.DRAW_AGREED,
        ending.STALEMATE,
        ending.INSUFFICIENT_MATERIAL,
        ending.REPETITION,
        ending.FIFTY_MOVES,
        ending.PENDING_CLAIM,
        ending.IN_PROGRESS,
    }
    assert words <= module_words
    assert module_words == {
        "checkmate",
        "resignation",
        "time",
        "draw agreed",
        "stalemate",
        "insufficient material",
        "repetition",
        "fifty moves",
        "pending claim",
        "in progress",
    }
    assert (ending.WHITE_WINS, ending.BLACK_WINS, ending.DRAWN, ending.UNFINISHED) == ("1-0", "0-1", "1/2-1/2", "*")
