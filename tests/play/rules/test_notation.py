"""Rule 2b and 4e of docs/rules/mobile-chess.md: one written move read against a position."""

import chess
import pytest

from play.rules.notation import Reason, number_label, ply_of, read_move, write_move, write_moves, write_position


def board_after(*sans):
    board = chess.Board()
    for san in sans:
        board.push_san(san)
    return board


def uci(board, text):
    reading = read_move(board, text)
    assert reading.fault is None, (text, reading)
    return reading.move.uci()


def test_it_reads_san_with_english_piece_letters():
    board = chess.Board()
    assert uci(board, "Nf3") == "g1f3"
    assert uci(board, "e4") == "e2e4"
    board = board_after("e4", "d5")
    assert uci(board, "exd5") == "e4d5"
    assert uci(board, "Bb5") == "f1b5"


def test_it_reads_russian_piece_letters_where_k_alone_is_the_knight_and_kr_the_king():
    board = board_after("e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "d3", "d6")
    assert uci(board, "Кc3") == "b1c3"  # К: knight
    assert uci(board, "Крe2") == "e1e2"  # Кр: king
    assert uci(board, "Крf1") == "e1f1"
    assert uci(board, "Фe2") == "d1e2"  # Ф: queen
    assert uci(board, "Лf1") == "h1f1"  # Л: rook
    assert uci(board, "Сg5") == "c1g5"  # С: bishop
    assert uci(board, "С:f7") == "c4f7"
    assert uci(board, "Кxe5") == "f3e5"


def test_it_reads_castling_with_letters_and_zeros():
    board = board_after("e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5")
    for text in ("O-O", "0-0", "OO", "O-O+"):
        assert uci(board, text) == "e1g1"
    board = board_after("d4", "d5", "Nc3", "Nc6", "Bf4", "Bf5", "Qd2", "Qd7")
    for text in ("O-O-O", "0-0-0"):
        assert uci(board, text) == "e1c1"
    assert read_move(board, "O-O").fault is Reason.ILLEGAL


def test_it_reads_long_algebraic_with_and_without_hyphen_and_promotion():
    board = chess.Board()
    assert uci(board, "e2e4") == "e2e4"
    assert uci(board, "e2-e4") == "e2e4"
    assert uci(board, "Ng1-f3") == "g1f3"
    assert uci(board, "g1f3") == "g1f3"  # no piece letter: whatever stands on g1
    promotion = chess.Board("8/4P3/8/8/8/8/k7/7K w - - 0 1")
    assert uci(promotion, "e7e8q") == "e7e8q"
    assert uci(promotion, "e7-e8=Q") == "e7e8q"
    assert uci(promotion, "e8=N") == "e7e8n"
    assert uci(promotion, "e8Ф") == "e7e8q"
    # A piece letter must name the piece on the first square.
    assert read_move(board, "Bg1-f3").fault is Reason.ILLEGAL


def test_it_reads_iccf_numeric_with_promotion_digit_and_castling_as_the_kings_move():
    assert uci(chess.Board(), "5254") == "e2e4"
    promotion = chess.Board("8/4P3/8/8/8/8/k7/7K w - - 0 1")
    assert uci(promotion, "57581") == "e7e8q"  # the spec's example: e7-e8=Q
    assert uci(promotion, "57584") == "e7e8n"
    castling = board_after("e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5")
    move = read_move(castling, "5171").move  # the spec's example: e1-g1
    assert move.uci() == "e1g1" and castling.is_castling(move)


def test_it_ignores_indications():
    board = board_after("e4", "d5")
    for text in ("exd5", "e:d5", "exd5+", "exd5!", "exd5?", "exd5!?", "exd5#", "e4xd5", "e4:d5!!", "ed5", "ed"):
        assert uci(board, text) == "e4d5", text
    en_passant = board_after("e4", "a6", "e5", "d5")
    assert uci(en_passant, "exd6e.p.") == "e5d6"
    assert uci(en_passant, "exd6") == "e5d6"


def test_it_keeps_sans_case_but_reads_a_lowercase_knight():
    board = board_after("e4", "e5", "d4", "exd4", "c3", "dxc3", "Bc4", "cxb2")
    # A lowercase b is the b-file, never a bishop: "bxb2" names no pawn move, so it is illegal.
    assert uci(board, "Bxb2") == "c1b2"
    assert read_move(board, "bxb2").fault is Reason.ILLEGAL
    pawn_or_bishop = chess.Board("4k3/8/8/8/2p5/1P6/8/4KB2 w - - 0 1")  # b3xc4 and Bf1xc4 both legal
    assert uci(pawn_or_bishop, "bc4") == "b3c4"
    assert uci(pawn_or_bishop, "Bc4") == "f1c4"
    assert uci(chess.Board(), "nf3") == "g1f3"  # n cannot be a file: the knight


def test_it_refers_nd2_as_ambiguous_when_two_knights_can_go():
    board = chess.Board("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1")
    reading = read_move(board, "Nd2")
    assert reading.fault is Reason.AMBIGUOUS
    assert {m.uci() for m in reading.candidates} == {"b1d2", "f3d2"}
    assert uci(board, "Nbd2") == "b1d2"
    assert uci(board, "Nfd2") == "f3d2"
    assert uci(board, "Кbd2") == "b1d2"


def test_it_refers_a_pinned_knight_move_neither_ambiguous_nor_illegal_when_one_knight_can_go():
    board = chess.Board("4r1k1/8/8/8/8/8/4N3/1N2K3 w - - 0 1")  # Ne2 is pinned by the rook on e8
    assert uci(board, "Nd2") == "b1d2"  # legal moves count, not pseudo-legal ones


def test_it_calls_a_promotion_without_its_piece_ambiguous():
    board = chess.Board("8/4P3/8/8/8/8/k7/7K w - - 0 1")
    assert read_move(board, "e8").fault is Reason.AMBIGUOUS
    assert read_move(board, "5758").fault is Reason.AMBIGUOUS


def test_it_tells_illegal_from_illegible():
    board = chess.Board()
    assert read_move(board, "Nf6").fault is Reason.ILLEGAL  # the spec's worked example's fault
    assert read_move(board, "e5").fault is Reason.ILLEGAL
    assert read_move(board, "O-O").fault is Reason.ILLEGAL
    assert read_move(board, "9999").fault is Reason.ILLEGIBLE
    for text in ("hello", "yes", "what?", "Zf3", "e9", "i4", "", "draw"):
        assert read_move(board, text).fault is Reason.ILLEGIBLE, text


@pytest.mark.parametrize(
    ("number", "color", "ply", "label"),
    [
        (1, chess.WHITE, 0, "1."),
        (1, chess.BLACK, 1, "1..."),
        (12, chess.WHITE, 22, "12."),
        (12, chess.BLACK, 23, "12..."),
    ],
)
def test_it_numbers_plies_12_for_white_and_12_dots_for_black(number, color, ply, label):
    assert ply_of(number, color) == ply
    assert number_label(ply) == label


def test_it_writes_moves_back_in_english_san_with_their_number():
    board = chess.Board()
    assert write_move(board, chess.Move.from_uci("g1f3")) == "1. Nf3"
    board = board_after("e4", "e5", "Nf3")
    assert write_move(board, chess.Move.from_uci("b8c6")) == "2... Nc6"
    game = board_after("e4", "e5", "Nf3", "Nc6", "Bb5")
    assert write_moves(game.move_stack) == "1. e4 e5 2. Nf3 Nc6 3. Bb5"
    assert write_moves(game.move_stack[3:], first_ply=3, board=board_after("e4", "e5", "Nf3")) == "2... Nc6 3. Bb5"


def test_it_writes_the_position_of_a_referral_as_the_moves_so_far_and_whose_turn():
    assert write_position([]) == "White to play move 1"
    assert write_position(board_after("e4", "c5", "Nf3").move_stack) == "1. e4 c5 2. Nf3 — Black to play move 2"
    assert write_position(board_after("e4", "c5").move_stack) == "1. e4 c5 — White to play move 2"
