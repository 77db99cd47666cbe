"""Properties of the notation (rule 2b, 4e, 4b): random legal games, each move written in any of
the spec's notations with random indications and spacing, read back as the same moves."""

import chess
from hypothesis import given, settings
from hypothesis import strategies as st

from play.rules.message import Accepted, Command, Referral, check_conditional, check_reply, parse_message
from play.rules.notation import Reason, number_label, read_move

NOTATIONS = ["san", "russian", "long", "long-hyphen", "iccf"]
RUSSIAN = {"K": "Кр", "Q": "Ф", "R": "Л", "B": "С", "N": "К"}
ICCF_PROMOTION = {chess.QUEEN: "1", chess.ROOK: "2", chess.BISHOP: "3", chess.KNIGHT: "4"}


@st.composite
def games(draw, max_plies=80):
    """A random legal game from the start position (moves chosen among the legal ones)."""
    board = chess.Board()
    for _ in range(draw(st.integers(0, max_plies))):
        legal = sorted(board.legal_moves, key=lambda move: move.uci())
        if not legal:
            break
        board.push(draw(st.sampled_from(legal)))
    return board.move_stack


def written(draw, board, move):
    """`move` written in a notation drawn at random, with random indications."""
    notation = draw(st.sampled_from(NOTATIONS))
    san = board.san(move)
    if notation in ("san", "russian"):
        text = san.rstrip("+#")
        if board.is_castling(move):
            text = draw(st.sampled_from([text, text.replace("O", "0")]))
        if "x" in text:
            text = text.replace("x", draw(st.sampled_from(["x", ":", ""])))
        if notation == "russian":
            text = "".join(RUSSIAN.get(char, char) for char in text)
    elif notation == "iccf":
        text = "".join(
            f"{chess.square_file(square) + 1}{chess.square_rank(square) + 1}"
            for square in (move.from_square, move.to_square)
        )
        text += ICCF_PROMOTION.get(move.promotion, "")
    else:
        hyphen = "-" if notation == "long-hyphen" else ""
        separator = draw(st.sampled_from([hyphen, "x", ":"])) if board.is_capture(move) else hyphen
        piece = board.piece_at(move.from_square).symbol().upper()
        letter = draw(st.sampled_from(["", piece])) if piece != "P" else ""
        text = f"{letter}{chess.square_name(move.from_square)}{separator}{chess.square_name(move.to_square)}"
        if move.promotion:
            symbol = chess.piece_symbol(move.promotion)
            text += draw(st.sampled_from([symbol, "=" + symbol.upper()]))
    check = "+" if board.gives_check(move) else ""
    return text + draw(st.sampled_from(["", check, "!", "?", "!?", check + "!!", "#" if "#" in san else ""]))


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_it_reads_random_games_written_in_any_notation_back_as_the_same_moves(data):
    moves = data.draw(games())
    board = chess.Board()
    for move in moves:
        text = written(data.draw, board, move)
        reading = read_move(board, text)
        assert reading.move == move, (board.fen(), text, reading)
        board.push(move)


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_it_accepts_a_repetition_and_reply_built_from_a_random_game(data):
    moves = data.draw(games(max_plies=60))
    if not moves:
        return
    *history, reply = moves
    boards = [chess.Board()]
    for move in moves:
        boards.append(boards[-1].copy(stack=False))
        boards[-1].push(move)
    # Repeat the last k moves of the record (at least the opponent's latest, none for White's 1st).
    first = len(history) - data.draw(st.integers(min_value=min(1, len(history)), max_value=min(4, len(history))))
    parts = []
    for ply in range(first, len(moves)):
        text = written(data.draw, boards[ply], moves[ply])
        if ply == first or ply % 2 == 0 or data.draw(st.booleans()):
            space = data.draw(st.sampled_from([" ", "", "  "]))
            text = f"{number_label(ply)}{space}{text}"
        parts.append(text)
    offer = data.draw(st.booleans())
    message = " ".join(parts) + (" draw?" if offer else "")
    result = check_reply(parse_message(message), history, boards[len(history)].turn)
    assert isinstance(result, Accepted), (message, result)
    assert (result.move, result.ply, result.draw_offer) == (reply, len(history), offer)


MESSAGE_ALPHABET = st.sampled_from([*"abcdefghKQRBNO0-x:=+#!?. 12345678", "Кр", "К", "Ф", "Л", "С", "..."])


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_it_judges_any_text_without_crashing(data):
    moves = data.draw(games(max_plies=20))
    alphabet = st.one_of(MESSAGE_ALPHABET, st.characters())
    text = "".join(data.draw(st.lists(alphabet, max_size=30)))
    message = parse_message(text)
    if message.command is None:
        result = check_reply(message, moves, data.draw(st.sampled_from([chess.WHITE, chess.BLACK])))
        assert isinstance(result, Accepted | Referral)
    elif message.command is Command.IF:
        check_conditional(message, moves, data.draw(st.sampled_from([chess.WHITE, chess.BLACK])))


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_it_refers_a_repetition_that_names_another_move_than_the_opponents_latest(data):
    moves = data.draw(games(max_plies=40))
    if len(moves) < 2:
        return
    *history, reply = moves
    before = chess.Board()
    for move in history[:-1]:
        before.push(move)
    others = sorted((move for move in before.legal_moves if move != history[-1]), key=lambda move: move.uci())
    if not others:
        return
    wrong = data.draw(st.sampled_from(others))
    after = before.copy(stack=False)
    after.push(history[-1])
    text = f"{number_label(len(history) - 1)} {written(data.draw, before, wrong)} {written(data.draw, after, reply)}"
    result = check_reply(parse_message(text), history, after.turn)
    assert isinstance(result, Referral) and result.reason is Reason.REPETITION, text
