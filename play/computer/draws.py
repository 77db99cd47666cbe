"""When a computer opponent accepts the draw its human opponent offered (no Django).

A computer answers an offer as a sensible player would: never in the opening (a draw agreed
before move 15 is not a game, and a federation rates it), at once when its own search says it
stands worse, and in a level position only late in the game. Otherwise it declines the way the
rules let anyone decline, by playing its move. The judgement uses the level's own search, so a
weak level misjudges as a weak player does.
"""

from __future__ import annotations

MIN_PLIES = 30  # no draw before move 15
WORSE_CENTIPAWNS = -50  # half a pawn down (the computer's view): it takes the draw
LEVEL_CENTIPAWNS = 25  # a quarter of a pawn either way is a level position...
LATE_PLIES = 80  # ...which it agrees to draw from move 40 on


def accepts_draw(score: int | None, plies: int) -> bool:
    """`score`: the computer's evaluation in centipawns from its own side (mates as large
    numbers), None when the search gave none; `plies`: half-moves played so far."""
    if score is None or plies < MIN_PLIES:
        return False
    if score <= WORSE_CENTIPAWNS:
        return True
    return plies >= LATE_PLIES and abs(score) <= LEVEL_CENTIPAWNS
