"""The sample transcripts (examples/mobile/*.jsonl): every text players sent is parsed. Their
moves and referrals are checked by the real replay in tests/play/rules/test_transcript.py."""

import json
from pathlib import Path

import pytest

from play.rules.message import parse_message

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "mobile"
TRANSCRIPTS = sorted(EXAMPLES.glob("*.jsonl"))


def read_lines(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_it_has_sample_transcripts():
    assert len(TRANSCRIPTS) >= 12


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=lambda path: path.stem)
def test_it_parses_every_message_of_the_sample_transcripts(path):
    for line in read_lines(path)[1:]:
        if "text" in line:
            message = parse_message(line["text"])
            assert message.command is not None or message.moves or message.illegible, line
