"""Drive the pure clock and ending rules over the sample transcripts of examples/mobile/.

No message parser here (play/rules/notation.py is another module's work): the accepted moves are
taken, in order, from the expected outcome file itself, the referred-back messages from its
`referrals`, and the few commands are recognised by their first word. Everything the clock and
the result say (sent, receipt, used, total, claims and their filing instants and statuses, the
result and termination) is then recomputed by play.rules.clock and play.rules.ending from the
transcript's `at` and `sent` times alone, to be compared with the expected file."""

import datetime
import json
from collections import Counter
from pathlib import Path

import chess

from play.rules import clock, ending

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "mobile"
COMMANDS = {"STATUS", "HELP", "RECORD", "RESIGN", "DRAW", "PROTEST", "DELAY", "FAILURE", "IF"}


def names() -> list[str]:
    return sorted(path.name.removesuffix(".jsonl") for path in EXAMPLES.glob("m*.jsonl"))


def instant(text: str) -> datetime.datetime:
    return clock.whole_second(datetime.datetime.fromisoformat(text))


def iso(moment: datetime.datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def _command(text: str) -> tuple[str, str] | None:
    words = text.split()
    if words and words[0].startswith("#"):
        words = words[1:]
    if not words or words[0].upper() not in COMMANDS:
        return None
    return words[0].upper(), " ".join(words[1:]).upper()


def expected(name: str) -> dict:
    return json.loads((EXAMPLES / f"{name}.expected.json").read_text())


def replay(name: str) -> dict:
    """The outcome of a transcript in the expected file's shape, as the clock and ending rules
    compute it."""
    lines = [json.loads(line) for line in (EXAMPLES / f"{name}.jsonl").read_text().splitlines() if line.strip()]
    want = expected(name)
    game = lines[0]["game"]
    control = clock.TimeControl.parse(game.get("control", "10800/30+1200/10"), norm=game.get("norm", 60))
    state = clock.start(control, instant(game["start"]))
    referred = Counter((instant(r["at"]), r["from"]) for r in want["referrals"])
    to_play = [move["san"] for move in want["moves"]]
    board = chess.Board()
    moves: list[dict] = []
    claims: dict[clock.Claim, dict] = {}  # claim -> {"status", "board"}
    ended: ending.Outcome | None = None
    offer_by: str | None = None

    def note(events, board_before, board_after):
        for event in events:
            if isinstance(event, clock.Claim):
                position = board_after if event.kind == clock.EXCEEDED_BY_MOVE else board_before
                claims[event] = {"status": ending.OPEN, "board": position.copy()}
            elif isinstance(event, clock.Conceded):
                claims[event.claim]["status"] = ending.CONCEDED

    for line in lines[1:]:
        if "end" in line:
            state, events = clock.advance(state, instant(line["end"]))
            note(events, board, board)
            continue
        arrival, color = instant(line["at"]), line["from"]
        state, events = clock.advance(state, arrival)
        note(events, board, board)
        if referred[(arrival, color)]:
            referred[(arrival, color)] -= 1
            continue
        command = _command(line["text"])
        if command and command[0] == "PROTEST":
            # a protest counts even after the game ended otherwise: the open claim still decides
            state, protested = clock.protest(state, color, arrival)
            if protested is not None:
                claims[protested]["status"] = ending.PROTESTED
            continue
        if ended is not None:
            continue  # any message after the game's end changes nothing
        if command:
            verb, rest = command
            if verb == "RESIGN":
                ended = ending.resignation(ending.color_named(color))
            elif verb == "DRAW" and rest == "CLAIM":
                ended = ending.draw_claim(board)
                assert ended is not None, f"{name}: an incorrect draw claim must be among the referrals"
            elif verb == "DRAW" and offer_by == clock.opponent(color):
                ended = ending.draw_agreed()
            if ended is not None:
                state = clock.finish(state)
            continue
        assert color == state.on_move, f"{name}: {line} is no referral, so it must be the move on turn"
        before = board.copy()
        board.push_san(to_play[len(moves)])
        reported = instant(line["sent"]) if "sent" in line else None
        state, timing, events = clock.apply_move(state, arrival, reported)
        note(events, before, board)
        offer_by = color if "draw?" in line["text"].lower() else None
        moves.append(
            {
                "ply": timing.ply,
                "san": to_play[timing.ply - 1],
                "sent": iso(timing.sent),
                "receipt": iso(timing.receipt),
                "used": timing.used,
                "total": timing.total,
            }
        )
        ended = ending.automatic_end(board)
        if ended is not None:
            state = clock.finish(state)

    results = [
        ending.ClaimResult(
            filed=claim.filed,
            status=kept["status"],
            outcome=ending.time_claim_outcome(kept["board"], ending.color_named(claim.against)),
        )
        for claim, kept in claims.items()
    ]
    outcome = ending.game_outcome(ended, results)
    return {
        "result": outcome.result,
        "termination": outcome.termination,
        "moves": moves,
        "total": {"white": state.white_total, "black": state.black_total},
        "claims": [
            {"against": claim.against, "ply": claim.ply, "filed": iso(claim.filed), "status": kept["status"]}
            for claim, kept in sorted(claims.items(), key=lambda item: item[0].filed)
        ],
    }
