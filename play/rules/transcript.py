"""Transcript replay (docs/rules/mobile-chess.md, "Transcript replay"): read a game played
outside the system from JSON lines, replay it through the game machine (play/rules/game.py)
with no TD, and give the outcome in the spec's output shape. Pure: no Django, nothing stored;
the `play_replay` command prints what `replay_text` returns.

Input: the first line is `{"game": {"white", "black", "start", "control", "norm"}}`; then
message lines `{"at", "from": "white" | "black", "text", "sent"?}` in time order; then an
optional `{"end": ISO}` line, the moment the replay stops (a flag that falls by then files its
claim; open claims whose protest window passed by then are conceded). Blank lines are skipped.
Bad input is refused with a `TranscriptError` naming its line number (counted from 1).
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Iterable
from dataclasses import dataclass

from play.rules import clock
from play.rules import game as machine
from play.rules.outbound import iso


class TranscriptError(ValueError):
    """A transcript that cannot be replayed: `line` is its 1-based line number."""

    def __init__(self, line: int, problem: str):
        super().__init__(f"line {line}: {problem}")
        self.line = line
        self.problem = problem


@dataclass(frozen=True)
class Line:
    """One message of a transcript, read and checked."""

    number: int
    at: datetime.datetime
    sender: str
    text: str
    sent: datetime.datetime | None


@dataclass(frozen=True)
class Transcript:
    """A transcript read and checked: the game's heading, its messages in order, the end."""

    white: str
    black: str
    start: datetime.datetime
    control: clock.TimeControl
    lines: tuple[Line, ...]
    end: datetime.datetime | None = None


def _instant(value, number: int, what: str) -> datetime.datetime:
    if not isinstance(value, str):
        raise TranscriptError(number, f"'{what}' must be an ISO date and time, not {value!r}")
    try:
        moment = datetime.datetime.fromisoformat(value.replace("Z", "+00:00") if value.endswith("Z") else value)
    except ValueError:
        raise TranscriptError(number, f"'{what}' is not an ISO date and time: {value!r}") from None
    if moment.tzinfo is None:
        raise TranscriptError(number, f"'{what}' has no time zone (write Z for UTC): {value!r}")
    return clock.whole_second(moment)


def read(lines: Iterable[str]) -> Transcript:
    """Read and check a transcript's lines; refuse the first bad one with its number."""
    heading = None
    messages: list[Line] = []
    end = None
    last = None  # the latest instant so far: the game's start, then each arrival
    last_number = 0
    for number, raw in enumerate(lines, start=1):
        last_number = number
        if not raw.strip():
            continue
        try:
            item = json.loads(raw)
        except ValueError as error:
            raise TranscriptError(number, f"not a JSON object: {error}") from None
        if not isinstance(item, dict):
            raise TranscriptError(number, "not a JSON object")
        if heading is None:
            heading = _heading(item, number)
            last = heading[2]
            continue
        if "game" in item:
            raise TranscriptError(number, "a second game line: a transcript holds one game")
        if end is not None:
            raise TranscriptError(number, "a line after the end line")
        if "end" in item:
            end = _instant(item["end"], number, "end")
            if end < last:
                raise TranscriptError(number, f"the end {iso(end)} is before {iso(last)}: times go backwards")
            continue
        unknown = set(item) - {"at", "from", "text", "sent"}
        if unknown or not {"at", "from", "text"} <= set(item):
            raise TranscriptError(number, "a message line has 'at', 'from', 'text' and an optional 'sent'")
        if item["from"] not in (clock.WHITE, clock.BLACK):
            raise TranscriptError(number, f"unknown sender {item['from']!r}: 'from' is 'white' or 'black'")
        if not isinstance(item["text"], str):
            raise TranscriptError(number, "'text' must be a string")
        at = _instant(item["at"], number, "at")
        if at < last:
            raise TranscriptError(number, f"arrival {iso(at)} is before {iso(last)}: times go backwards")
        sent = _instant(item["sent"], number, "sent") if item.get("sent") is not None else None
        messages.append(Line(number, at, item["from"], item["text"], sent))
        last = at
    if heading is None:
        raise TranscriptError(max(last_number, 1), 'no game line: the first line is {"game": {...}}')
    white, black, start, control = heading
    return Transcript(white, black, start, control, tuple(messages), end)


def _heading(item: dict, number: int):
    game = item.get("game")
    if not isinstance(game, dict) or set(item) != {"game"}:
        raise TranscriptError(number, 'the first line must be the game: {"game": {"white", "black", "start", ...}}')
    if "start" not in game:
        raise TranscriptError(number, "the game line has no 'start'")
    start = _instant(game["start"], number, "start")
    try:
        control = clock.TimeControl.parse(game.get("control", "10800/30+1200/10"), norm=game.get("norm", 60))
    except clock.ControlError as error:
        raise TranscriptError(number, str(error)) from None
    return str(game.get("white", "")), str(game.get("black", "")), start, control


def replay(transcript: Transcript) -> machine.Game:
    """The game as the machine leaves it after every message and, with an end, the sweep at the
    end moment. A message in the same second as a deadline counts as before it; so does the end."""
    game = machine.new_game(transcript.start, transcript.control)
    for line in transcript.lines:
        game, _ = machine.receive(game, line.sender, line.text, line.at, line.sent)
    if transcript.end is not None:
        game, _ = machine.advance(game, transcript.end)
    return game


def outcome(game: machine.Game) -> dict:
    """The spec's output object for a replayed game."""
    result = game.outcome
    return {
        "result": result.result,
        "termination": result.termination,
        "moves": [
            {
                "ply": move.ply,
                "san": move.san,
                "sent": iso(move.timing.sent),
                "receipt": iso(move.timing.receipt),
                "used": move.timing.used,
                "total": move.timing.total,
            }
            for move in game.moves
        ],
        "total": {"white": game.total(clock.WHITE), "black": game.total(clock.BLACK)},
        "referrals": [{"at": iso(r.at), "from": r.sender, "reason": r.reason.value} for r in game.referrals],
        "claims": [
            {"against": c.claim.against, "ply": c.claim.ply, "filed": iso(c.claim.filed), "status": c.status}
            for c in sorted(game.claims, key=lambda c: c.claim.filed)
        ],
    }


def replay_text(text: str) -> dict:
    """Read, replay and give the output object of a transcript's whole text (TranscriptError on
    bad input)."""
    return outcome(replay(read(text.splitlines())))
