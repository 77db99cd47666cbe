"""Mobile games as PGN (the PGN standard, "Portable Game Notation Specification and
Implementation Guide", 1994), built with python-chess from the stored machine value.

Tags: the Seven Tag Roster first (Event: the event's name, or "Mobile challenge" for a game
outside events; Site: the federation's site; Date: the game's start, UTC, "YYYY.MM.DD"; Round:
the all-play-all round the pairing gave the game, or "-" (not applicable); White and Black as
"Family, Given"; Result: "1-0", "0-1", "1/2-1/2", or "*" while the game is in progress or its
result waits on a time claim), then WhiteFideId / BlackFideId when the player has a FIDE id,
TimeControl and Termination. No Annotator tag: nobody annotated the game.

TimeControl (PGN standard 9.6.1: periods separated by ":", each "moves/seconds"): the
mobile control "B/M+E/X" (B seconds for M moves, then E seconds per X moves, repeated) is
written "M/B:X/E"; the default 10800/30+1200/10 is "30/10800:10/1200". The last period repeats
until the end of the game, as it does on the mobile clock. The transmission norm N has no PGN
field; it is not written.

Termination (PGN standard 9.8.1 values): "normal" for checkmate, resignation, an agreed or
claimed draw, stalemate, insufficient material, repetition and the 50- and 75-move rules;
"time forfeit" for a conceded or upheld time claim; "unterminated" while the game goes on or
its result is pending; "abandoned" for an annulled game. The site's own word for the ending
(play.rules.ending) is on the game page and in the replay output.

Each move carries one comment with its clock figures, in the %-command form of PGN comments
(as python-chess writes and reads them):
`{ [%sent 2026-05-01T10:05:30Z] [%used 0:04:30] }`: `%sent` is the move's sending time as the
rules count it (UTC, whole seconds), `%used` the time it used (u_k = sent − receipt of the
opponent's move, H:MM:SS). There is no `%clk`: its meaning (the time left on a running clock)
is not what the mobile clock keeps, whose allowance is cumulative per control.
"""

from __future__ import annotations

import datetime
import re

import chess
import chess.pgn

from play import state
from play.rules import ending, texts

CHALLENGE_EVENT = "Mobile challenge"

NORMAL_ENDINGS = {
    ending.CHECKMATE,
    ending.RESIGNATION,
    ending.DRAW_AGREED,
    ending.STALEMATE,
    ending.INSUFFICIENT_MATERIAL,
    ending.REPETITION,
    ending.FIFTY_MOVES,
    ending.SEVENTY_FIVE_MOVES,
}


def time_control(control: str) -> str:
    """The PGN TimeControl of a mobile control: 10800/30+1200/10 -> 30/10800:10/1200 (see above)."""
    from play.rules.clock import TimeControl

    parsed = TimeControl.parse(control)
    return f"{parsed.moves}/{parsed.base}:{parsed.every}/{parsed.extra}"


def termination(game, outcome: ending.Outcome) -> str:
    if game.status == "annulled":
        return "abandoned"
    if not outcome.finished:
        return "unterminated"
    if outcome.termination == ending.TIME:
        return "time forfeit"
    return "normal" if outcome.termination in NORMAL_ENDINGS else "unterminated"


def duration(secs: int) -> str:
    """4 min 30 s -> "0:04:30"; hours are not wrapped at 24 (as the messages write it)."""
    return texts.duration(max(0, int(secs)))


def instant(moment: datetime.datetime) -> str:
    return moment.astimezone(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def build(game, *, site: str, value=None) -> chess.pgn.Game:
    """One game as python-chess's PGN game. `game` is a MobileGame with its players (and event)
    loaded and an optional `round` attribute; `value` its machine value (loaded when omitted)."""
    value = value if value is not None else state.load(game)
    outcome = value.outcome
    result = outcome.result if game.status != "annulled" else ending.UNFINISHED
    pgn = chess.pgn.Game()
    headers = pgn.headers
    headers["Event"] = game.event.name if game.event_id else CHALLENGE_EVENT
    headers["Site"] = site or "?"
    headers["Date"] = game.start.astimezone(datetime.UTC).strftime("%Y.%m.%d")
    rnd = getattr(game, "round", None)
    headers["Round"] = str(rnd) if rnd else "-"
    headers["White"] = game.white.full_name
    headers["Black"] = game.black.full_name
    headers["Result"] = result
    if game.white.fide_id:
        headers["WhiteFideId"] = str(game.white.fide_id)
    if game.black.fide_id:
        headers["BlackFideId"] = str(game.black.fide_id)
    headers["TimeControl"] = time_control(game.control)
    headers["Termination"] = termination(game, outcome)
    node = pgn
    for move in value.moves:
        comment = f"[%sent {instant(move.timing.sent)}] [%used {duration(move.timing.used)}]"
        node = node.add_variation(move.move, comment=comment)
    return pgn


def text(games, *, site: str) -> str:
    """One or more games as PGN text: each game's tags, a blank line, its movetext, a blank line."""
    exporter_args = {"headers": True, "variations": False, "comments": True}
    parts = []
    for game in games:
        parts.append(build(game, site=site).accept(chess.pgn.StringExporter(**exporter_args)))
    return "\n\n".join(parts) + "\n"


def filename(name: str) -> str:
    """A file name any system accepts: letters, digits, '-' and '_' only, ending in .pgn."""
    safe = re.sub(r"[^A-Za-z0-9_-]+", "-", name).strip("-")[:60] or "games"
    return f"{safe}.pgn"
