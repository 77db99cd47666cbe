"""The desk's pure rules: DISPUTE and APPEAL messages (rule 5d, 10c), a scored result (rule 10a)
and a claim decision reversed on appeal (rule 10c), in the machine without Django."""

import datetime

from play.rules import ending
from play.rules.game import TD, decide, new_game, receive, reverse_claim, score
from play.rules.message import Command, parse_message
from play.rules.texts import render

UTC = datetime.UTC
T0 = datetime.datetime(2026, 5, 1, 10, 0, tzinfo=UTC)


def at(seconds: int) -> datetime.datetime:
    return T0 + datetime.timedelta(seconds=seconds)


def test_it_reads_dispute_and_appeal_with_their_text():
    message = parse_message("#G17 DISPUTE my opponent's move never reached me")
    assert (message.game, message.command, message.text) == (
        "G17",
        Command.DISPUTE,
        "my opponent's move never reached me",
    )
    assert parse_message("appeal the delay was real").command is Command.APPEAL
    assert parse_message("DISPUTE").illegible == "DISPUTE needs a text saying why"
    assert parse_message("APPEAL").illegible == "APPEAL needs a text saying why"


def test_it_sends_a_dispute_to_the_td_and_changes_nothing_else():
    game = new_game(T0)
    after, received = receive(game, "black", "DISPUTE white's move came twice", at(120))
    assert received.applied == "dispute"
    assert [(o.to, o.kind) for o in received.send] == [(TD, "dispute"), ("black", "dispute received")]
    assert received.send[0].data["text"] == "white's move came twice"
    assert after.notices[-1].kind == "dispute" and after.clock == game.clock and after.moves == game.moves
    assert render("dispute", received.send[0].data) == "DISPUTE from black: white's move came twice"
    assert render("dispute received", {}) == "Your DISPUTE report reached the TD."


def test_it_sends_an_appeal_to_the_td_even_after_the_end_and_refers_an_empty_one():
    game, _ = receive(new_game(T0), "white", "RESIGN", at(100))
    _, received = receive(game, "white", "APPEAL I never resigned", at(200))
    assert received.applied == "appeal" and received.send[0].to == TD
    assert render("appeal received", {}) == "Your APPEAL reached the Appeals Commission chairman."
    _, empty = receive(new_game(T0), "white", "APPEAL", at(100))
    assert empty.applied == "referral" and "APPEAL needs a text" in empty.referral.explanation


def test_it_keeps_a_scored_result_above_play_and_resumes_the_game_when_cleared():
    game, _ = receive(new_game(T0), "white", "1. e4", at(300))
    scored = score(game, ending.Outcome("0-1", "TD decision"), at(400))
    assert (scored.outcome.result, scored.outcome.termination, scored.finished_at) == ("0-1", "TD decision", at(400))
    assert scored.over and not scored.clock.running
    _, refused = receive(scored, "black", "1. e4 e5", at(500))
    assert refused.applied == "after end"
    cleared = score(scored, None, at(600))
    assert cleared.outcome.result == "*" and cleared.clock.running and cleared.finished_at is None
    back, received = receive(cleared, "black", "1. e4 e5", at(700))
    assert received.applied == "move" and len(back.moves) == 2


def _claimed():
    """White never moves: the failure-to-reply claim is filed at 10:00 + 60 + 10 800 + 1 + 60."""
    game = new_game(T0)
    game, _ = receive(game, "white", "STATUS", at(60 + 10_800 + 1 + 60 + 1))
    game, received = receive(game, "white", "PROTEST I was ill", at(60 + 10_800 + 1 + 60 + 100))
    assert received.applied == "protest"
    return game


def test_it_reverses_a_claim_decision_both_ways():
    game = _claimed()
    claim = game.claims[0].claim
    upheld, _ = decide(game, claim, upheld=True, at=at(20_000))
    assert upheld.outcome == ending.Outcome("0-1", "time")
    reversed_ = reverse_claim(upheld, claim, at(30_000))
    assert reversed_.claims[0].status == ending.DISMISSED and reversed_.outcome.result == "*"
    assert reversed_.clock.running
    again = reverse_claim(reversed_, claim, at(40_000))
    assert again.outcome == ending.Outcome("0-1", "time") and again.finished_at == at(40_000)
    try:
        reverse_claim(game, claim, at(20_000))
    except ValueError as error:
        assert "only an upheld or dismissed claim" in str(error)
    else:
        raise AssertionError("a protested claim cannot be reversed")
