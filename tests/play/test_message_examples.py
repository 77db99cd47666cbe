"""The sample transcripts (examples/mobile/*.jsonl): every text players sent is parsed, and a
move-by-move walk (no clocks: that is the game machine's part) gives the expected moves and the
expected referrals with their reasons."""

import datetime
import json
from pathlib import Path

import chess
import pytest

from play.rules.message import Accepted, Command, check_reply, parse_message

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "mobile"
TRANSCRIPTS = sorted(EXAMPLES.glob("*.jsonl"))
COLORS = {"white": chess.WHITE, "black": chess.BLACK}


def read_lines(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def second(text):
    """An ISO instant as the expected files write it: UTC, truncated to the second."""
    instant = datetime.datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(datetime.UTC)
    return instant.replace(microsecond=0).strftime("%Y-%m-%dT%H:%M:%SZ")


def walk(lines):
    """Apply each message in turn; moves after resignation, agreed draw, mate or a correct claim
    change nothing. Time claims never stop play (spec: play goes on while a claim is open)."""
    board = chess.Board()
    referrals = []
    over = False
    offer_by = None
    for line in lines[1:]:
        if "text" not in line or over:
            continue
        sender = COLORS[line["from"]]
        message = parse_message(line["text"])
        refer = None
        if message.command is Command.RESIGN:
            over = True
        elif message.command is Command.DRAW:
            over = offer_by is not None and offer_by != sender
        elif message.command is Command.DRAW_CLAIM:
            over = board.turn == sender and board.can_claim_draw()
            refer = None if over else "illegal"
        elif message.command is None:
            result = check_reply(message, board, sender)
            if isinstance(result, Accepted):
                board.push(result.move)
                offer_by = sender if result.draw_offer else None
                over = board.is_game_over()
            else:
                refer = result.reason.value
        if refer:
            referrals.append({"at": second(line["at"]), "from": line["from"], "reason": refer})
    replay = chess.Board()
    sans = []
    for move in board.move_stack:
        sans.append(replay.san(move))
        replay.push(move)
    return sans, referrals


def test_it_has_sample_transcripts():
    assert len(TRANSCRIPTS) >= 12


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=lambda path: path.stem)
def test_it_parses_every_message_of_the_sample_transcripts(path):
    for line in read_lines(path)[1:]:
        if "text" in line:
            message = parse_message(line["text"])
            assert message.command is not None or message.moves or message.illegible, line


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=lambda path: path.stem)
def test_it_gives_the_sample_transcripts_moves_and_referral_reasons(path):
    expected = json.loads(path.with_suffix("").with_suffix(".expected.json").read_text(encoding="utf-8"))
    sans, referrals = walk(read_lines(path))
    assert sans == [move["san"] for move in expected["moves"]]
    assert referrals == expected["referrals"]
