"""How a mobile-chess game ends (docs/rules/mobile-chess.md, "End of a game", "Time claims" and
"Edge cases"), on a python-chess board: plain data in and out, no Django.

The result and termination words are exactly those of the transcript output (`play_replay
--json`, the spec's last section, and examples/mobile/*.expected.json).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass

import chess

WHITE_WINS = "1-0"
BLACK_WINS = "0-1"
DRAWN = "1/2-1/2"
UNFINISHED = "*"

CHECKMATE = "checkmate"
RESIGNATION = "resignation"
TIME = "time"
DRAW_AGREED = "draw agreed"
STALEMATE = "stalemate"
INSUFFICIENT_MATERIAL = "insufficient material"
REPETITION = "repetition"  # threefold on a correct claim, fivefold at once
FIFTY_MOVES = "fifty moves"  # the 50-move rule on a correct claim
# Decision: the 75-move rule ends the game at once under its own word; the spec lists only
# "fifty moves" and ends its list with "...".
SEVENTY_FIVE_MOVES = "seventy-five moves"
PENDING_CLAIM = "pending claim"
IN_PROGRESS = "in progress"

# Claim statuses: open (protest window running), protested (waits for the TD), conceded (window
# ended without protest), upheld / dismissed (the TD's decision).
OPEN = "open"
PROTESTED = "protested"
CONCEDED = "conceded"
UPHELD = "upheld"
DISMISSED = "dismissed"
_UNDECIDED = (OPEN, PROTESTED)
_DECIDING = (CONCEDED, UPHELD)


@dataclass(frozen=True)
class Outcome:
    """A result ("1-0", "0-1", "1/2-1/2", "*") with its termination word."""

    result: str
    termination: str

    @property
    def finished(self) -> bool:
        return self.result != UNFINISHED


def color_named(name: str) -> chess.Color:
    """python-chess's colour for the clock's and the transcript's "white" / "black"."""
    if name not in ("white", "black"):
        raise ValueError(f"a colour is 'white' or 'black', not {name!r}")
    return chess.WHITE if name == "white" else chess.BLACK


def win_for(color: chess.Color) -> str:
    return WHITE_WINS if color == chess.WHITE else BLACK_WINS


def automatic_end(board: chess.Board) -> Outcome | None:
    """The endings that need no claim (FIDE Laws 5.1.1, 5.2.1, 5.2.2, 9.6): checkmate, stalemate,
    insufficient material (neither side can mate by any series of legal moves, as far as
    python-chess's material test sees it: see can_checkmate), fivefold repetition and the
    75-move rule. None while the game goes on. Checkmate is tested first: a mating move stands
    even if it also completes a fivefold repetition or the 75th move (FIDE 9.6.2)."""
    if board.is_checkmate():
        return Outcome(win_for(not board.turn), CHECKMATE)
    if board.is_stalemate():
        return Outcome(DRAWN, STALEMATE)
    if board.is_insufficient_material():
        return Outcome(DRAWN, INSUFFICIENT_MATERIAL)
    if board.is_fivefold_repetition():
        return Outcome(DRAWN, REPETITION)
    if board.is_seventyfive_moves():
        return Outcome(DRAWN, SEVENTY_FIVE_MOVES)
    return None


def draw_claim(board: chess.Board) -> Outcome | None:
    """`DRAW CLAIM` from the player on move (FIDE 9.2, 9.3): correct when the current position
    has occurred at least three times with the same player on move and the same possible moves
    (threefold repetition), or when the last 50 moves of each player were made without a capture
    or a pawn move. Returns the draw, or None for an incorrect claim (referred back as illegal).

    Only the position on the board is judged: a `DRAW CLAIM` message names no move, so the FIDE
    claim "by the move I am about to make" does not arise (python-chess's
    can_claim_threefold_repetition would also accept that one, so it is not used)."""
    if board.is_repetition(3):
        return Outcome(DRAWN, REPETITION)
    if board.is_fifty_moves():
        return Outcome(DRAWN, FIFTY_MOVES)
    return None


def draw_claim_refusal(board: chess.Board) -> str:
    """Why a `DRAW CLAIM` that draw_claim refuses is incorrect, in the claimant's figures: how
    often the position has occurred, and for how many moves of each player (FIDE 9.3: 50 needed)
    there has been no capture or pawn move. A referral that says only "incorrect" leaves the
    player to count the record himself."""
    if board.is_repetition(2):
        occurred = "the position has occurred only twice (three times are needed)"
    else:
        occurred = "the position has not occurred before"
    # The halfmove clock counts both players' moves; each player has made at least half of them.
    moves = board.halfmove_clock // 2
    if board.halfmove_clock == 0:
        quiet = "the last move was a capture or a pawn move"
    else:
        plural = "move" if moves == 1 else "moves"
        quiet = f"no capture or pawn move for only {moves} {plural} of each player (50 are needed)"
    return f"{occurred}, and {quiet}"


def can_checkmate(board: chess.Board, color: chess.Color) -> bool:
    """Whether `color` may still checkmate by some series of legal moves (FIDE Laws 6.9), judged
    by python-chess's Board.has_insufficient_material(color), which looks at material only:

    - it says "cannot mate" for a lone king; for king and one knight when the opponent has
      nothing but king and queens; for king and bishops when every bishop on the board (either
      side's) stands on squares of one colour and there is no pawn or knight on the board;
    - it says "can mate" whenever the side has a pawn, rook or queen; king, knight and any other
      piece; a knight when the opponent has a pawn, knight, bishop or rook (they can block the
      king's flight: a helpmate is enough under 6.9); bishops when bishops of both colours of
      square, or any pawn or knight, are on the board;
    - it is guaranteed never to say "cannot mate" when mate is possible, but it does not see the
      position: a blocked fortress or a mate that no legal sequence can reach is still "can
      mate". Such positions come to the TD (a protest), not to this function.
    """
    return not board.has_insufficient_material(color)


def time_claim_outcome(board_at_filing: chess.Board, against: chess.Color) -> Outcome:
    """The result of a conceded or upheld time claim (rule 6d, 7e): the player loses, unless the
    opponent cannot checkmate by any series of legal moves, which makes it a draw; judged on the
    position when the claim was filed (Edge cases). The termination is "time" either way."""
    winner = not against
    if can_checkmate(board_at_filing, winner):
        return Outcome(win_for(winner), TIME)
    return Outcome(DRAWN, TIME)


@dataclass(frozen=True)
class ClaimResult:
    """A time claim as the result rules need it: when it was filed, its status, and the outcome it
    gives if conceded or upheld (time_claim_outcome of the position at filing)."""

    filed: datetime.datetime
    status: str
    outcome: Outcome


def game_outcome(ended: Outcome | None, claims: Iterable[ClaimResult] = ()) -> Outcome:
    """The game's result as it stands (Time claims, Edge cases).

    Claims are taken in the order they were filed; dismissed ones count for nothing. The first
    claim that is not dismissed decides: conceded or upheld, its outcome is the result even if the
    game ended otherwise meanwhile (the excess came first), and of two conceded claims the
    earlier filed decides; still open or protested, the result is pending ("*", "pending claim")
    even if the game has ended otherwise, since that claim may yet decide it. Decision: a later
    claim that is open does not hold up a result already fixed by an earlier conceded one.

    Without a deciding or pending claim: how the game ended (`ended`), or "*", "in progress"."""
    for claim in sorted(claims, key=lambda c: c.filed):
        if claim.status in _DECIDING:
            return claim.outcome
        if claim.status in _UNDECIDED:
            return Outcome(UNFINISHED, PENDING_CLAIM)
        if claim.status != DISMISSED:
            raise ValueError(f"a claim cannot have the status {claim.status!r}")
    return ended if ended is not None else Outcome(UNFINISHED, IN_PROGRESS)


def resignation(resigning: chess.Color) -> Outcome:
    return Outcome(win_for(not resigning), RESIGNATION)


def draw_agreed() -> Outcome:
    return Outcome(DRAWN, DRAW_AGREED)
