"""A player's message (docs/rules/mobile-chess.md, "Messages", "Edge cases", "Conditional moves"):
its grammar, its check against the game, and the sample transcripts' referrals."""

import chess
import pytest

from play.rules.message import (
    Accepted,
    Command,
    PlayRequest,
    Referral,
    check_conditional,
    check_reply,
    follow_conditional,
    parse_message,
    parse_request,
)
from play.rules.notation import FAULT_ORDER, Reason

WHITE, BLACK = chess.WHITE, chess.BLACK


def moves_of(*sans):
    board = chess.Board()
    for san in sans:
        board.push_san(san)
    return list(board.move_stack)


def moves_to(ply):
    """A game of `ply` plies that never repeats a position: 1. Nf3 Nf6 2. Nc3 Nc6 ... then pawns."""
    sans = ["Nf3", "Nf6", "Nc3", "Nc6", "e3", "e6", "d3", "d6", "a3", "a6", "b3", "b6", "h3", "h6", "g3", "g6"]
    sans += ["Bg2", "Bg7", "Bb2", "Bb7", "Qd2", "Qd7", "Rb1", "Rb8", "Rh2", "Rh7"]
    return moves_of(*sans[:ply])


def check(text, history, sender):
    return check_reply(parse_message(text), history, sender)


def reason(text, history, sender):
    result = check(text, history, sender)
    assert isinstance(result, Referral), result
    return result.reason


def test_it_parses_the_specs_examples():
    message = parse_message("#G17 12. Nf3 Nc6")
    assert message.game == "G17" and message.command is None and not message.draw_offer
    assert [(m.text, m.ply, m.numbered) for m in message.moves] == [("Nf3", 22, True), ("Nc6", 23, True)]
    assert message.reply.text == "Nc6" and [m.text for m in message.repetition] == ["Nf3"]

    message = parse_message("12... Nc6 13. Bb5+ draw?")
    assert message.game is None and message.draw_offer
    assert [(m.text, m.ply) for m in message.moves] == [("Nc6", 23), ("Bb5+", 24)]


def test_it_reads_move_numbers_with_or_without_a_space():
    for text in ("12.Nf3 Nc6", "12. Nf3 Nc6", "12 . Nf3 12...Nc6", "12. Nf3 12… Nc6", "12.Nf3 12..Nc6"):
        message = parse_message(text)
        assert [(m.text, m.ply) for m in message.moves] == [("Nf3", 22), ("Nc6", 23)], text


def test_it_reads_commands_and_draw_offers_in_any_case():
    assert parse_message("RESIGN").command is Command.RESIGN
    assert parse_message("resign").command is Command.RESIGN
    assert parse_message("Draw").command is Command.DRAW
    assert parse_message("draw claim").command is Command.DRAW_CLAIM
    assert parse_message("DRAW CLAIM").command is Command.DRAW_CLAIM
    for word in ("STATUS", "Status", "record", "HELP"):
        assert parse_message(word).command is Command(word.lower())
    protest = parse_message("#X PROTEST network down")
    assert (protest.game, protest.command, protest.text) == ("X", Command.PROTEST, "network down")
    failure = parse_message("failure my phone broke")
    assert (failure.command, failure.text) == (Command.FAILURE, "my phone broke")
    delay = parse_message("DELAY 15 the network was down")
    assert (delay.command, delay.minutes) == (Command.DELAY, 15)
    assert parse_message("DELAY soon").illegible
    assert parse_message("1. c3 Draw?").draw_offer
    assert parse_message("1. c3 DRAW?").draw_offer


def test_it_finds_nothing_legible_in_words_that_are_not_moves():
    for text in ("yes", "hello", "what?", "draw?", "", "12.", "12. Nf3 please"):
        assert parse_message(text).illegible, text


def test_it_ignores_indication_words():
    message = parse_message("24. Bc3-e5 Qxd3 25. f4 Qxd1 check")
    assert [m.text for m in message.moves] == ["Bc3-e5", "Qxd3", "f4", "Qxd1"]
    assert [m.text for m in parse_message("1... e5 2. Qh5 шах").moves] == ["e5", "Qh5"]
    assert [m.text for m in parse_message("1. e4 !").moves] == ["e4"]
    assert [m.text for m in parse_message("3... d5 4. exd6 (e.p.) check!").moves] == ["d5", "exd6"]


def test_it_accepts_whites_first_move_with_nothing_to_repeat():
    result = check("1. e4", [], WHITE)
    assert result == Accepted(move=chess.Move.from_uci("e2e4"), san="e4", ply=0, draw_offer=False)
    assert check("e4", [], WHITE).san == "e4"  # a lone move takes the number of the move due


def test_it_accepts_a_repetition_in_any_notation_then_the_reply():
    history = moves_of("e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "d3", "d6", "Nc3", "Nf6", "h3", "h6", "a3")
    # White's 7th was a3: Black repeats it (rule 4b) and replies.
    for text in ("7. a3 a6", "7. a2-a3 a7a6", "7.1213 1716", "7. a2a3 7... a6!", "7. a3 a6 draw?"):
        result = check(text, history, BLACK)
        assert isinstance(result, Accepted) and result.san == "a6" and result.ply == 13, text
    assert check("7. a3 a6 draw?", history, BLACK).draw_offer


def test_it_accepts_a_repetition_of_more_earlier_moves_each_matching_the_record():
    history = moves_of("e4", "e5", "Nf3", "Nc6", "Bc4")
    assert check("2. Nf3 Nc6 3. Bc4 Bc5", history, BLACK).san == "Bc5"
    assert check("1... e5 2. Nf3 Nc6 3. Bc4 Bc5", history, BLACK).san == "Bc5"
    assert reason("2. Nf3 Nf6 3. Bc4 Bc5", history, BLACK) is Reason.REPETITION  # 2... was Nc6


def test_it_refers_a_missing_or_wrong_repetition():
    history = moves_to(4)  # 1. Nf3 Nf6 2. Nc3 Nc6: White to play his 3rd
    assert reason("3. e3", history, WHITE) is Reason.REPETITION  # nothing repeated
    assert reason("2... Nf6 3. e3", history, WHITE) is Reason.REPETITION  # not the latest move
    assert isinstance(check("2... Nc6 3. e3", history, WHITE), Accepted)
    assert reason("1... Nf6 3. e3", history, WHITE) is Reason.REPETITION  # the latest move is missing
    # The repeated move must carry its number: written alone it is not "with its number".
    assert reason("Nc6 3. e3", history, WHITE) is Reason.REPETITION
    assert reason("Nc6 e3", history, WHITE) is Reason.REPETITION
    assert reason("e3", history, WHITE) is Reason.REPETITION
    # The repetition is read in the position before the repeated move: Ng8-f6 was legal then.
    assert isinstance(check("1... Ng8-f6 2. Nc3 Nc6 3. e3", history, WHITE), Accepted)


def test_it_refers_a_wrong_move_number_of_the_reply():
    history = moves_to(2)  # 1. Nf3 Nf6: White to play his 2nd
    assert reason("1... Nf6 3. Nc3", history, WHITE) is Reason.NUMBER
    assert reason("1... Nf6 2... Nc3", history, WHITE) is Reason.NUMBER
    assert reason("2. Nc3", history, WHITE) is Reason.REPETITION  # the number is right, no repetition


def test_it_refers_illegal_and_ambiguous_replies():
    history = moves_of("e4", "c5")
    assert reason("1... c5 2. Nf6", history, WHITE) is Reason.ILLEGAL  # the worked example
    assert check("1... c5 2. Nf3", history, WHITE).san == "Nf3"
    knights = moves_of("Nf3", "e5", "d3", "d5", "e3", "c5", "Be2", "b5")
    assert reason("4... b5 5. Nd2", knights, WHITE) is Reason.AMBIGUOUS
    assert check("4... b5 5. Nfd2", knights, WHITE).san == "Nfd2"


def test_it_refers_a_message_when_it_is_not_the_senders_turn():
    history = moves_of("e4")
    assert reason("1. e4 e5", history, WHITE) is Reason.TURN
    assert reason("hello", history, WHITE) is Reason.TURN


def test_it_gives_the_first_fault_of_turn_illegible_number_repetition_illegal_ambiguous():
    assert FAULT_ORDER == (
        Reason.TURN,
        Reason.ILLEGIBLE,
        Reason.NUMBER,
        Reason.REPETITION,
        Reason.ILLEGAL,
        Reason.AMBIGUOUS,
    )
    knights = moves_of("Nf3", "e5", "d3", "d5", "e3", "c5", "Be2", "b5")  # White's 5th is due
    # Each message has the named fault and every later one, none earlier.
    cases = [
        ("4... a5 6. Nd2 zzz", BLACK, Reason.TURN),
        ("4... a5 6. Nd2 zzz", WHITE, Reason.ILLEGIBLE),
        ("4... a5 6. Nd2", WHITE, Reason.NUMBER),
        ("4... a5 5. Qh5", WHITE, Reason.REPETITION),  # wrong repetition and an illegal reply
        ("4... b5 5. Qh6", WHITE, Reason.ILLEGAL),
        ("4... b5 5. Nd2", WHITE, Reason.AMBIGUOUS),
    ]
    for text, sender, expected in cases:
        assert reason(text, knights, sender) is expected, text


def test_it_keeps_the_referrals_explanation_apart_from_its_code():
    result = check("1... c5 2. Nf6", moves_of("e4", "c5"), WHITE)
    assert result.reason == "illegal"
    assert "Nf6" in result.explanation
    result = check("3. e3", moves_to(4), WHITE)
    assert "2... Nc6" in result.explanation  # names the move to repeat


def test_it_takes_a_board_as_well_as_a_list_of_moves():
    board = chess.Board()
    for move in moves_of("e4", "e5"):
        board.push(move)
    assert check("1... e5 2. Кf3", board, WHITE).san == "Nf3"


def test_it_refuses_to_judge_a_command_as_a_move():
    with pytest.raises(ValueError):
        check_reply(parse_message("RESIGN"), [], WHITE)


def test_it_registers_a_conditional_line_as_pairs_checked_along_the_line():
    history = moves_of("e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5", "Bb3")
    # Black to play his 7th: White registers what he answers to 7... d6 and then to 8... O-O.
    message = parse_message("IF 7... d6 8. c3 8... O-O 9. h3")
    assert message.command is Command.IF
    lines = check_conditional(message, history, WHITE)
    assert len(lines) == 1
    (first, second) = lines[0]
    assert (first.ply, first.expected.uci(), first.reply.uci()) == (13, "d7d6", "c2c3")
    assert (second.ply, second.expected.uci(), second.reply.uci()) == (15, "e8g8", "h2h3")


def test_it_refers_an_illegal_conditional_line():
    history = moves_of("e4")
    assert check_conditional(parse_message("IF 1... e5 2. Nf3"), history, WHITE)[0][0].reply.uci() == "g1f3"
    illegal = check_conditional(parse_message("IF 1... e5 2. Nf3 2... Nc6 3. Nf3"), history, WHITE)
    assert isinstance(illegal, Referral) and illegal.reason is Reason.ILLEGAL
    assert check_conditional(parse_message("IF 1... e5 2. Nf3"), history, BLACK).reason is Reason.TURN
    assert check_conditional(parse_message("IF 2... e5 3. Nf3"), history, WHITE).reason is Reason.NUMBER
    assert check_conditional(parse_message("IF 1... e5"), history, WHITE).reason is Reason.ILLEGIBLE


def test_it_plays_the_registered_reply_and_keeps_the_rest_of_the_line():
    history = moves_of("e4")
    lines = check_conditional(parse_message("IF 1... e5 2. Nf3 2... Nc6 3. Bb5; 1... c5 2. Nc3"), history, WHITE)
    e5, c5, d5 = (chess.Move.from_uci(u) for u in ("e7e5", "c7c5", "d7d5"))
    reply, remaining = follow_conditional(lines, e5)
    assert reply.uci() == "g1f3"
    assert len(remaining) == 1 and remaining[0][0].expected.uci() == "b8c6"
    reply, remaining = follow_conditional(lines, c5)
    assert reply.uci() == "b1c3" and remaining == ()  # the line is used up
    assert follow_conditional(lines, d5) == (None, ())  # no line matches: all are cancelled


def test_it_reads_sentence_punctuation_and_a_spaced_draw_offer():
    message = parse_message("1. e4, draw ?")
    assert [m.text for m in message.moves] == ["e4,"] and message.draw_offer
    assert check_reply(message, [], WHITE).san == "e4"
    assert parse_message("Resign.").command is Command.RESIGN
    tagged = parse_message("#G17\tSTATUS")
    assert (tagged.game, tagged.command) == ("G17", Command.STATUS)
    assert parse_message("#G17").illegible


class TestQuote:
    def test_it_quotes_at_most_20_characters_of_a_word_it_cannot_read(self):
        from play.rules.message import excerpt

        assert excerpt("x" * 20) == "x" * 20
        assert excerpt("x" * 21) == "x" * 20 + "..."
        message = parse_message("1. " + "Ж" * 10_000)
        assert message.illegible == "'ЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖ...' is not a move"

    def test_it_quotes_an_illegal_move_whole(self):
        referral = check_reply(parse_message("1. Nf6"), [], WHITE)
        assert referral == Referral(Reason.ILLEGAL, "'Nf6' is not a legal move in this position")


@pytest.mark.parametrize(
    ("text", "request_"),
    [
        ("PLAY COMPUTER 3", PlayRequest(3, "random")),
        ("  play computer 12 white ", PlayRequest(12, "white")),
        ("Play Computer 1 BLACK", PlayRequest(1, "black")),
        ("PLAY COMPUTER", None),
        ("#G17 PLAY COMPUTER 3", None),
        ("PLAY COMPUTER 3 GREEN", None),
        ("12. Nf3", None),
        ("", None),
    ],
)
def test_it_reads_a_request_for_a_new_game_apart_from_a_games_message(text, request_):
    assert parse_request(text) == request_
