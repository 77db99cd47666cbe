"""What the game machine sends, as plain JSON-ready data (docs/rules/mobile-chess.md, rule 2e-2h
and 7b): a move with its number, the receipt of the opponent's previous move, the sending time,
the time used and both clocks; the state (STATUS), the full record (RECORD), a claim with its
details for the TD. A later message service turns these dicts into texts per channel.

The functions read a game (play/rules/game.py's Game) by its attributes only, so this module
does not import the machine.
"""

from __future__ import annotations

import datetime

import chess

from play.rules import clock
from play.rules.clock import BLACK, WHITE
from play.rules.notation import write_moves, write_position
from play.rules.texts import gettext_noop

HELP_TEXT = gettext_noop(
    "Send your move with your opponent's latest move before it, e.g. '12. Nf3 Nc6' or '12... Nc6 13. Bb5'; "
    "add 'draw?' to offer a draw. Commands: RESIGN, DRAW, DRAW CLAIM, PROTEST text, DELAY minutes, "
    "FAILURE text, DISPUTE text, APPEAL text, STATUS, RECORD, HELP, IF line. "
    "Start with #GAME when you play several games."
)


def iso(moment: datetime.datetime | None) -> str | None:
    """An instant as the transcript output writes it: UTC, whole seconds, with a Z."""
    return None if moment is None else clock.whole_second(moment).strftime("%Y-%m-%dT%H:%M:%SZ")


def clocks(game, now: datetime.datetime) -> dict:
    """Both players' clock faces at `now`: time used and time left to the next control."""
    faces = {}
    for color in (WHITE, BLACK):
        used, left = game.clock.shown(color, now)
        faces[color] = {"used": used, "left": left}
    return faces


def move_data(game, move, before: chess.Board) -> dict:
    """A move as the acknowledgement, the opponent's copy and the record show it (rule 2e-2h)."""
    timing = move.timing
    return {
        "ply": move.ply,
        "move": write_moves([move.move], first_ply=move.ply - 1, board=before),
        "san": move.san,
        "conditional": move.conditional,
        "draw_offer": move.draw_offer,
        "previous_receipt": iso(timing.receipt),
        "sent": iso(timing.sent),
        "used": timing.used,
        "clocks": clocks(game, timing.arrival),
    }


def record(game) -> list[dict]:
    """The full record (RECORD): every move with its sending time and time used; the clocks are
    given once, as they stand now, beside it."""
    board = chess.Board()
    rows = []
    for move in game.moves:
        row = move_data(game, move, board)
        del row["clocks"]
        rows.append(row)
        board.push(move.move)
    return rows


def position(game) -> str:
    return write_position([m.move for m in game.moves])


def state(game, now: datetime.datetime) -> dict:
    outcome = game.outcome
    return {
        "result": outcome.result,
        "termination": outcome.termination,
        "position": position(game),
        "on_move": None if game.over else game.on_move,
        "clocks": clocks(game, now),
        "draw_offer": game.draw_offer,
        "claims": [claim_data(c, game.clock.pauses) for c in game.claims],
    }


def claim_data(record, pauses=()) -> dict:
    """A claim as its notices and pages say it; `pauses` (the game's leave periods) move the end of
    its protest window (clock.protest_deadline)."""
    claim = record.claim
    return {
        "against": claim.against,
        "ply": claim.ply,
        "kind": claim.kind,
        "filed": iso(claim.filed),
        "total": claim.total,
        "allowance": claim.allowance,
        "status": record.status,
        "protest_until": iso(clock.protest_deadline(claim.filed, claim.norm, pauses)),
    }


def claim_details(game, record) -> dict:
    """The claim with full details for the TD (rule 7b): the moves with receipts, sending times,
    u, T and A."""
    data = claim_data(record, game.clock.pauses)
    data["moves"] = [
        {
            "ply": m.ply,
            "san": m.san,
            "color": m.color,
            "receipt": iso(m.timing.receipt),
            "sent": iso(m.timing.sent),
            "used": m.timing.used,
            "total": m.timing.total,
            "allowance": m.timing.allowance,
        }
        for m in game.moves
    ]
    return data


def result(game) -> dict:
    outcome = game.outcome
    return {"result": outcome.result, "termination": outcome.termination, "finished": iso(game.finished_at)}
