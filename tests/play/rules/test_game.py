"""The pure game machine (play/rules/game.py): each grammar rule of the spec with a small scenario,
the clock events the sweeper handles, claims and their statuses, the finishing moment, and a
property over random games sent as messages."""

import datetime
import json

import chess
from hypothesis import given, settings
from hypothesis import strategies as st

from play.rules import clock, ending
from play.rules.game import TD, adjust, decide, new_game, next_due, receive
from play.rules.game import advance as sweep
from play.rules.notation import number_label
from play.rules.outbound import iso
from play.rules.transcript import read, replay_text
from tests.play import examples
from tests.play.rules.test_notation_properties import written

T0 = datetime.datetime(2026, 5, 1, 10, 0, tzinfo=datetime.UTC)
FAST = clock.TimeControl(base=60, moves=30, extra=60, every=10, norm=10)  # flags fall quickly


def at(secs):
    return T0 + datetime.timedelta(seconds=secs)


def play(game, *messages):
    """Send (seconds after T0, sender, text) messages in turn; returns the game and the outcomes."""
    outcomes = []
    for secs, sender, text in messages:
        game, received = receive(game, sender, text, at(secs))
        outcomes.append(received)
    return game, outcomes


def sans(game):
    return [move.san for move in game.moves]


def kinds(received, to=None):
    return [item.kind for item in received.send if to is None or item.to == to]


def test_it_acknowledges_a_move_to_the_mover_and_sends_it_with_the_clocks_to_the_opponent():
    _, (first,) = play(new_game(T0), (330, "white", "1. e4"))
    assert first.applied == "move"
    assert kinds(first, "white") == ["acknowledgement"] and kinds(first, "black") == ["move"]
    sent = first.send[1].data
    assert sent["move"] == "1. e4" and sent["used"] == 270 and sent["previous_receipt"] == "2026-05-01T10:01:00Z"
    assert sent["clocks"]["white"] == {"used": 270, "left": 10800 - 270}
    assert sent["clocks"]["black"] == {"used": 0, "left": 10800}


def test_it_keeps_the_clock_running_through_a_referral_and_sends_the_reason_and_position():
    game, outcomes = play(
        new_game(T0),
        (330, "white", "1. e4"),
        (990, "black", "1. e4 c5"),
        (1060, "white", "1... c5 2. Nf6"),
        (1065, "white", "1... c5 2. Nf3"),
    )
    referral = outcomes[2]
    assert referral.applied == "referral" and referral.referral.reason == "illegal"
    assert referral.send[0].to == "white" and referral.send[0].data["position"] == "1. e4 c5 — White to play move 2"
    assert game.moves[-1].timing.used == 15 and game.total("white") == 285
    assert [(r.sender, r.reason.value) for r in game.referrals] == [("white", "illegal")]


def test_it_ends_a_game_by_an_accepted_draw_offer_at_the_acceptance():
    game, outcomes = play(new_game(T0), (100, "white", "1. e4 draw?"), (200, "black", "DRAW"))
    assert game.draw_offer is None and outcomes[1].applied == "draw agreed"
    assert (game.outcome.result, game.outcome.termination) == ("1/2-1/2", "draw agreed")
    assert game.finished_at == at(200)
    assert {item.to for item in outcomes[1].send} == {"white", "black", TD}


def test_it_lets_a_draw_offer_lapse_when_the_opponent_moves():
    game, outcomes = play(
        new_game(T0),
        (100, "white", "1. e4 draw?"),
        (200, "black", "1. e4 e5"),
        (300, "black", "draw"),
        (400, "white", "DRAW"),
    )
    assert [o.applied for o in outcomes[2:]] == ["draw offer absent", "draw offer absent"]
    assert game.outcome.termination == "in progress" and game.draw_offer is None


def test_it_refers_an_incorrect_draw_claim_as_illegal_and_accepts_a_threefold_repetition():
    shuffle = [
        (100, "white", "1. Nf3"),
        (110, "black", "1. Nf3 Nf6"),
        (120, "white", "1... Nf6 2. Ng1"),
        (130, "black", "2. Ng1 Ng8"),
        (140, "white", "2... Ng8 3. Nf3"),
        (150, "black", "3. Nf3 Nf6"),
        (160, "white", "3... Nf6 4. Ng1"),
    ]
    game, outcomes = play(new_game(T0), *shuffle[:4], (135, "white", "DRAW CLAIM"))
    assert outcomes[-1].referral.reason == "illegal" and game.ended is None
    assert outcomes[-1].send[0].data["claim"] == "draw"
    assert outcomes[-1].referral.explanation == (
        "incorrect draw claim: the position has occurred only twice (three times are needed), and no capture or "
        "pawn move for only 2 moves of each player (50 are needed)"
    )
    game, outcomes = play(game, (136, "black", "draw claim"))
    assert outcomes[-1].referral.reason == "turn"
    game, outcomes = play(game, *shuffle[4:], (170, "black", "4. Ng1 Ng8"), (180, "white", "DRAW CLAIM"))
    assert (game.outcome.result, game.outcome.termination) == ("1/2-1/2", "repetition")
    assert game.finished_at == at(180)


def test_it_changes_nothing_after_the_end_and_tells_the_sender_the_state():
    game, _ = play(new_game(T0), (100, "white", "1. e4"), (200, "black", "RESIGN"))
    assert game.outcome == ending.Outcome("1-0", "resignation")
    after, outcomes = play(game, (300, "black", "1. e4 e5"), (310, "white", "draw claim"), (320, "black", "1. e4 zz"))
    assert [o.applied for o in outcomes] == ["after end"] * 3
    assert after.moves == game.moves and after.referrals == () and after.outcome == game.outcome
    assert outcomes[0].send[0].to == "black" and outcomes[0].send[0].data["result"] == "1-0"


def test_it_plays_a_conditional_line_at_once_with_0_s_and_cancels_lines_on_a_non_matching_move():
    game, outcomes = play(
        new_game(T0),
        (100, "white", "1. e4"),
        (150, "white", "IF 1... e5 2. Nf3 2... Nc6 3. Bb5"),
        (400, "black", "1. e4 e5"),
    )
    assert outcomes[1].applied == "conditional"
    assert sans(game) == ["e4", "e5", "Nf3"]
    reply = game.moves[-1]
    assert reply.conditional and reply.timing.used == 0 and reply.timing.sent == at(400)
    assert game.total("white") == 40 and len(game.lines_of("white")) == 1  # 2... Nc6 3. Bb5 stays
    assert kinds(outcomes[2], "black") == ["acknowledgement", "move"]  # his move, then White's reply
    game, _ = play(game, (500, "black", "2. Nf3 d6"))
    assert sans(game)[-1] == "d6" and game.lines_of("white") == ()


def test_it_refers_an_illegal_conditional_line_and_one_sent_on_move():
    game, outcomes = play(
        new_game(T0), (100, "white", "1. e4"), (150, "white", "IF 1... e5 2. Ke3"), (160, "black", "IF 1... e5 2. Nf3")
    )
    assert outcomes[1].referral.reason == "illegal" and outcomes[2].referral.reason == "turn"
    assert game.lines_of("white") == () and game.lines_of("black") == ()


def flagged():
    """White never moves in FAST: receipt 10 s, s = 10 + 60 + 1 = 71, claim filed at 81."""
    game, send = sweep(new_game(T0, FAST), at(82))
    assert [(item.to, item.kind) for item in send] == [(TD, "claim"), ("white", "claim")]
    return game


def test_it_files_a_failure_to_reply_claim_at_s_plus_n_and_keeps_the_result_pending():
    game, _ = sweep(new_game(T0, FAST), at(81))
    assert game.claims == ()  # a message in the same second counts as before it
    game = flagged()
    (record,) = game.claims
    assert (record.claim.against, record.claim.ply, record.claim.filed, record.status) == ("white", 1, at(81), "open")
    assert game.outcome == ending.Outcome("*", "pending claim") and game.finished_at is None
    assert next_due(game) == record.claim.protest_deadline


def test_it_accepts_a_protest_in_its_last_second_and_not_one_second_later():
    deadline = flagged().claims[0].claim.protest_deadline
    assert deadline == at(81 + 10 + 86_400)
    game, received = receive(flagged(), "white", "PROTEST my phone was off", deadline)
    assert received.applied == "protest" and game.claims[0].status == "protested"
    assert [item.to for item in received.send] == [TD, "white"]
    game, _ = sweep(game, deadline + datetime.timedelta(days=9))
    assert game.claims[0].status == "protested" and game.outcome.termination == "pending claim"

    late, received = receive(flagged(), "white", "PROTEST my phone was off", deadline + datetime.timedelta(seconds=1))
    assert received.applied == "no claim" and [(item.to, item.kind) for item in received.send][-2:] == [
        (TD, "protest"),
        ("white", "state"),
    ]
    assert late.claims[0].status == "conceded"  # the window ended before the protest came
    assert late.outcome == ending.Outcome("0-1", "time") and late.finished_at == deadline


def test_it_decides_by_the_earlier_filed_of_two_conceded_claims():
    # White flags at 81 and moves at 200 anyway (play goes on); Black's receipt 210, his flag
    # falls at 210 + 61 and the claim is filed at 281.
    game, _ = play(new_game(T0, FAST), (200, "white", "1. e4"))
    game, _ = sweep(game, at(300))
    assert [(c.claim.against, c.claim.filed) for c in game.claims] == [("white", at(81)), ("black", at(281))]
    done, _ = sweep(game, at(300) + datetime.timedelta(days=2))
    assert [c.status for c in done.claims] == ["conceded", "conceded"]
    assert done.outcome == ending.Outcome("0-1", "time")
    assert done.finished_at == game.claims[0].claim.protest_deadline
    # The earlier claim protested: the later concession does not decide, the result waits.
    protested, _ = play(game, (400, "white", "PROTEST"))
    protested, _ = sweep(protested, at(300) + datetime.timedelta(days=2))
    assert [c.status for c in protested.claims] == ["protested", "conceded"]
    assert protested.outcome == ending.Outcome("*", "pending claim")


def test_it_files_a_claim_against_a_move_over_the_allowance_and_play_goes_on():
    control = clock.TimeControl(base=60, moves=30, extra=60, every=10, norm=10)
    game, (received,) = play(new_game(T0, control), (75, "white", "1. d4"))  # receipt 10: u = 65 > 60
    assert [(c.claim.kind, c.claim.filed) for c in game.claims] == [(clock.EXCEEDED_BY_MOVE, at(75))]
    assert kinds(received, TD) == ["claim"] and sans(game) == ["d4"]
    game, _ = play(game, (80, "black", "1. d4 d5"))
    assert sans(game) == ["d4", "d5"]


def test_it_lets_a_conceded_claim_decide_a_game_that_ended_otherwise_meanwhile():
    game = flagged()
    game, _ = play(game, (200, "white", "1. e4"), (300, "black", "resign"))
    assert game.ended == ending.Outcome("1-0", "resignation")
    assert game.outcome == ending.Outcome("*", "pending claim") and game.finished_at is None
    game, send = sweep(game, at(300) + datetime.timedelta(days=2))
    assert game.outcome == ending.Outcome("0-1", "time")
    assert {item.to for item in send if item.kind == "claim conceded"} == {"white", "black", TD}


def test_it_takes_the_tds_decision_on_a_protested_claim():
    game, _ = play(flagged(), (200, "white", "PROTEST"), (250, "white", "1. e4"), (300, "black", "RESIGN"))
    claim = game.claims[0].claim
    upheld, send = decide(game, claim, upheld=True, at=at(5000))
    assert upheld.outcome == ending.Outcome("0-1", "time") and upheld.finished_at == at(5000)
    assert len(send) == 3
    dismissed, _ = decide(game, claim, upheld=False, at=at(6000))
    assert dismissed.outcome == ending.Outcome("1-0", "resignation") and dismissed.finished_at == at(6000)


def test_it_records_delay_and_failure_for_the_td_without_changing_the_game():
    game, _ = play(new_game(T0), (100, "white", "1. e4"))
    after, outcomes = play(game, (200, "black", "DELAY 30"), (210, "black", "FAILURE phone broken"))
    assert [o.applied for o in outcomes] == ["delay", "failure"]
    assert [(n.kind, n.minutes) for n in after.notices] == [("delay", 30), ("failure", None)]
    assert after.moves == game.moves and after.clock == game.clock and after.referrals == ()
    assert outcomes[0].send[0].to == TD
    _, (unreadable,) = play(game, (220, "black", "DELAY soon"))
    assert unreadable.referral.reason == "illegible"


def test_it_answers_status_record_and_help_to_the_sender_only():
    game, _ = play(new_game(T0), (100, "white", "1. e4"), (200, "black", "1. e4 c5"))
    after, outcomes = play(game, (300, "white", "STATUS"), (301, "black", "record"), (302, "white", "help"))
    assert [[(item.to, item.kind) for item in o.send] for o in outcomes] == [
        [("white", "status")],
        [("black", "record")],
        [("white", "help")],
    ]
    assert outcomes[0].send[0].data["on_move"] == "white"
    assert [row["san"] for row in outcomes[1].send[0].data["moves"]] == ["e4", "c5"]
    assert after.moves == game.moves


def test_it_reminds_the_player_on_move_at_80_percent_once():
    game, send = sweep(new_game(T0, FAST), at(10 + 48))
    assert send == ()
    game, send = sweep(game, at(10 + 49))
    assert [(item.to, item.kind, item.at) for item in send] == [("white", "reminder", at(58))]
    game, send = sweep(game, at(70))
    assert send == ()


def test_it_ends_at_checkmate_with_the_mating_move_as_finishing_moment():
    game, _ = play(
        new_game(T0),
        (100, "white", "1. f3"),
        (200, "black", "1. f3 e5"),
        (300, "white", "1... e5 2. g4"),
        (400, "black", "2. g4 Qh4#"),
    )
    assert game.outcome == ending.Outcome("0-1", "checkmate") and game.finished_at == at(400)
    assert not game.clock.running


@st.composite
def finished_free_games(draw, max_plies=60):
    """A random legal game that stops before any automatic end."""
    board = chess.Board()
    for _ in range(draw(st.integers(1, max_plies))):
        legal = sorted(board.legal_moves, key=lambda move: move.uci())
        move = draw(st.sampled_from(legal))
        board.push(move)
        if ending.automatic_end(board) is not None:
            board.pop()
            break
    return board.move_stack


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_it_replays_random_games_sent_in_random_notations_with_random_delays(data):
    moves = data.draw(finished_free_games())
    game = new_game(T0)
    board = chess.Board()
    now = T0
    lines = [json.dumps({"game": {"white": "W", "black": "B", "start": iso(T0)}})]
    for ply, move in enumerate(moves):
        # At most 60 plies of 20 min: open claims may be filed, none reaches its concession.
        now += datetime.timedelta(seconds=data.draw(st.integers(0, 1200)))
        previous = ""
        if ply:
            last = board.copy()
            last.pop()
            previous = f"{number_label(ply - 1)} {written(data.draw, last, board.peek())} "
        text = f"{previous}{number_label(ply)} {written(data.draw, board, move)}"
        sent = now - datetime.timedelta(seconds=data.draw(st.integers(0, 200)))
        sender = "white" if ply % 2 == 0 else "black"
        game, received = receive(game, sender, text, now, sent)
        lines.append(json.dumps({"at": iso(now), "from": sender, "text": text, "sent": iso(sent)}))
        assert received.applied == "move", (text, received.referral)
        board.push(move)
    assert [m.move for m in game.moves] == list(moves)
    for color in ("white", "black"):
        uses = [m.timing.used for m in game.moves if m.color == color]
        assert game.total(color) == sum(uses)
        assert [m.timing.total for m in game.moves if m.color == color] == [
            sum(uses[: i + 1]) for i in range(len(uses))
        ]
    # The same messages as a transcript replay to the same record.
    out = replay_text("\n".join(lines))
    assert [(m["ply"], m["san"], m["used"], m["total"]) for m in out["moves"]] == [
        (m.ply, m.san, m.timing.used, m.timing.total) for m in game.moves
    ]
    assert out["total"] == {"white": game.total("white"), "black": game.total("black")} and out["referrals"] == []


def test_it_sends_only_plain_json_ready_data_for_every_sample_message():
    kinds_seen = set()
    for name in examples.names():
        transcript = read(examples.transcript(name).splitlines())
        game = new_game(transcript.start, transcript.control)
        for line in transcript.lines:
            game, received = receive(game, line.sender, line.text, line.at, line.sent)
            for item in received.send:
                json.dumps(item.data)
                assert item.to in ("white", "black", TD)
                kinds_seen.add(item.kind)
        if transcript.end is not None:
            game, send = sweep(game, transcript.end)
            for item in send:
                json.dumps(item.data)
                kinds_seen.add(item.kind)
    assert {"acknowledgement", "move", "referral", "claim", "result", "status", "help", "record"} <= kinds_seen


def test_it_applies_a_tds_time_credit_and_moves_the_flag_with_it():
    game, _ = sweep(adjust(new_game(T0, FAST), "white", -30), at(82))
    assert game.claims == () and game.total("white") == -30
    game, _ = sweep(game, at(112))
    assert [c.claim.filed for c in game.claims] == [at(111)]


WORDS = ["1.", "1...", "2.", "e4", "e5", "Nf3", "Nc6", "draw?", "DRAW", "DRAW CLAIM", "RESIGN", "PROTEST late"]
WORDS += ["DELAY 5", "FAILURE x", "STATUS", "IF", "1... e5 2. Nf3", "O-O", "5254", "Kf1", "?", "#G1"]


@settings(max_examples=80, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(0, 40_000), st.sampled_from(["white", "black"]), st.lists(st.sampled_from(WORDS), max_size=5)
        ),
        max_size=30,
    ),
    st.integers(0, 200_000),
)
def test_it_handles_any_messages_at_any_delays_without_crashing(messages, tail):
    game = new_game(T0, FAST)
    now = T0
    for delay, sender, words in messages:
        now += datetime.timedelta(seconds=delay)
        before = len(game.moves)
        game, received = receive(game, sender, " ".join(words), now)
        assert len(game.moves) >= before and (received.applied == "move") == (len(game.moves) > before)
    game, _ = sweep(game, now + datetime.timedelta(seconds=tail))
    uses = sum(m.timing.used for m in game.moves)
    assert game.total("white") + game.total("black") == uses
    assert (game.finished_at is None) == (game.outcome.result == "*")
