"""Transcript replay (play/rules/transcript.py): every sample transcript gives its expected
outcome field for field, `end` sweeps the clock to its moment, and bad input is refused with
its line number."""

import json

import pytest

from play.rules.transcript import TranscriptError, read, replay_text
from tests.play import examples

GAME = {"game": {"white": "Ivanov, Ivan", "black": "Petrova, Anna", "start": "2026-05-01T10:00:00Z"}}


def jsonl(*items):
    return "\n".join(item if isinstance(item, str) else json.dumps(item) for item in items)


@pytest.mark.parametrize("name", examples.names())
def test_it_gives_each_sample_transcript_its_expected_outcome(name):
    got, want = replay_text(examples.transcript(name)), examples.expected(name)
    for key in want:  # one field at a time, so a failure names it
        assert got[key] == want[key], key
    assert got == want  # and nothing more


def test_it_has_the_twelve_sample_transcripts():
    assert len(examples.names()) == 12


def test_it_gives_the_specs_worked_example():
    text = jsonl(
        GAME,
        {"at": "2026-05-01T10:05:30Z", "from": "white", "text": "1. e4"},
        {"at": "2026-05-01T10:16:30Z", "from": "black", "text": "1. e4 c5", "sent": "2026-05-01T10:16:25Z"},
    )
    out = replay_text(text)
    assert [(m["ply"], m["san"], m["used"]) for m in out["moves"]] == [(1, "e4", 270), (2, "c5", 595)]
    assert out["moves"][1]["sent"] == "2026-05-01T10:16:25Z"
    assert out["total"] == {"white": 270, "black": 595}
    assert (out["result"], out["termination"], out["referrals"], out["claims"]) == ("*", "in progress", [], [])


def test_it_files_and_concedes_by_the_end_line_and_not_without_it():
    flag = {"game": {**GAME["game"], "control": "60/30+60/10", "norm": 10}}
    assert replay_text(jsonl(flag))["claims"] == []
    # White's receipt 10:00:10, s = 10:01:11, filed at s + N = 10:01:21.
    filed = replay_text(jsonl(flag, {"end": "2026-05-01T10:01:22Z"}))
    assert filed["claims"] == [{"against": "white", "ply": 1, "filed": "2026-05-01T10:01:21Z", "status": "open"}]
    assert (filed["result"], filed["termination"]) == ("*", "pending claim")
    # The protest window ends at filed + N + 86 400 = 2026-05-02T10:01:31Z; the end in that very
    # second counts as before it.
    still = replay_text(jsonl(flag, {"end": "2026-05-02T10:01:31Z"}))
    assert still["claims"][0]["status"] == "open"
    conceded = replay_text(jsonl(flag, {"end": "2026-05-02T10:01:32Z"}))
    assert conceded["claims"][0]["status"] == "conceded"
    assert (conceded["result"], conceded["termination"]) == ("0-1", "time")


@pytest.mark.parametrize(
    ("lines", "line", "problem"),
    [
        ((GAME, "{not json"), 2, "not a JSON object"),
        ((GAME, "[1, 2]"), 2, "not a JSON object"),
        ((GAME, {"at": "2026-05-01T10:05:30Z", "from": "referee", "text": "1. e4"}), 2, "unknown sender"),
        (
            (
                GAME,
                {"at": "2026-05-01T10:05:30Z", "from": "white", "text": "1. e4"},
                {"at": "2026-05-01T10:05:29Z", "from": "black", "text": "1. e4 e5"},
            ),
            3,
            "backwards",
        ),
        ((GAME, {"at": "2026-05-01T09:59:59Z", "from": "white", "text": "1. e4"}), 2, "backwards"),
        (
            (GAME, {"at": "2026-05-01T10:05:30Z", "from": "white", "text": "1. e4"}, {"end": "2026-05-01T10:00:00Z"}),
            3,
            "backwards",
        ),
        (({"at": "2026-05-01T10:05:30Z", "from": "white", "text": "1. e4"},), 1, "must be the game"),
        ((), 1, "no game line"),
        ((GAME, GAME), 2, "second game line"),
        (
            (GAME, {"end": "2026-05-02T00:00:00Z"}, {"at": "2026-05-02T10:05:30Z", "from": "white", "text": "x"}),
            3,
            "after the end",
        ),
        ((GAME, {"at": "yesterday", "from": "white", "text": "1. e4"}), 2, "not an ISO"),
        ((GAME, {"at": "2026-05-01T10:05:30", "from": "white", "text": "1. e4"}), 2, "no time zone"),
        ((GAME, {"from": "white", "text": "1. e4"}), 2, "'at', 'from', 'text'"),
        (({"game": {**GAME["game"], "control": "3 hours"}},), 1, "time control"),
    ],
)
def test_it_refuses_a_bad_transcript_with_its_line_number(lines, line, problem):
    with pytest.raises(TranscriptError, match=problem) as refused:
        replay_text(jsonl(*lines))
    assert refused.value.line == line
    assert str(refused.value).startswith(f"line {line}: ")


def test_it_skips_blank_lines_and_counts_them_in_line_numbers():
    text = jsonl(GAME, "", {"at": "2026-05-01T10:05:30Z", "from": "black", "text": "1. e4"}, "", "oops")
    with pytest.raises(TranscriptError) as refused:
        read(text.splitlines())
    assert refused.value.line == 5


def test_it_reads_instants_in_any_zone_as_utc_truncated_to_the_second():
    text = jsonl(GAME, {"at": "2026-05-01T13:05:30.900+03:00", "from": "white", "text": "1. e4"})
    out = replay_text(text)
    assert out["moves"][0]["sent"] == "2026-05-01T10:05:30Z" and out["moves"][0]["used"] == 270
