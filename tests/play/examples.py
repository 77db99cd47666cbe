"""The sample transcripts of examples/mobile/ (mNNN.jsonl with the outcome each must give in
mNNN.expected.json). They are replayed by the real game machine in tests/play/rules/test_transcript.py;
other tests read their expected outcomes here."""

import json
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "mobile"


def names() -> list[str]:
    return sorted(path.name.removesuffix(".jsonl") for path in EXAMPLES.glob("m*.jsonl"))


def transcript(name: str) -> str:
    return (EXAMPLES / f"{name}.jsonl").read_text(encoding="utf-8")


def expected(name: str) -> dict:
    return json.loads((EXAMPLES / f"{name}.expected.json").read_text(encoding="utf-8"))
