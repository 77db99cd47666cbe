"""`manage.py play_replay FILE.jsonl --json`: the spec's output for every sample, bad lines refused."""

import io
import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "mobile"
SAMPLES = sorted(EXAMPLES.glob("m*.jsonl"))


@pytest.mark.parametrize("transcript", SAMPLES, ids=lambda path: path.stem)
def test_it_prints_the_outcome_each_sample_expects(transcript):
    out = io.StringIO()
    call_command("play_replay", str(transcript), "--json", stdout=out)
    expected = json.loads(transcript.with_name(f"{transcript.stem}.expected.json").read_text())
    assert json.loads(out.getvalue()) == expected


def test_it_has_samples_to_replay():
    assert len(SAMPLES) >= 12


def test_it_prints_a_summary_a_td_reads():
    out = io.StringIO()
    call_command("play_replay", str(EXAMPLES / "m000.jsonl"), stdout=out)
    text = out.getvalue()
    expected = json.loads((EXAMPLES / "m000.expected.json").read_text())
    assert text.startswith(f"Result: {expected['result']} ({expected['termination']})")
    assert f"1. {expected['moves'][0]['san']}" in text


def test_it_refuses_a_bad_line_with_its_number(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text(
        '{"game": {"white": "A", "black": "B", "start": "2026-05-01T10:00:00Z", "control": "10800/30+1200/10",'
        ' "norm": 60}}\n{"at": "2026-05-01T10:05:30Z", "from": "white", "text": "1. e4"}\nnot json\n'
    )
    with pytest.raises(CommandError, match="line 3"):
        call_command("play_replay", str(bad), "--json", stdout=io.StringIO())


def test_it_says_when_the_file_cannot_be_read(tmp_path):
    with pytest.raises(CommandError, match="cannot be read"):
        call_command("play_replay", str(tmp_path / "missing.jsonl"), stdout=io.StringIO())
