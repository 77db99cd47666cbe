"""The text a move box sends, composed from what the player typed (no Django).

The rules require a reply to repeat the opponent's latest move with its number (rule 4b). On a
phone the page shows that move, so when the player types only his own move ("Nf3", "e2-e4",
"5254", a tap on the board) the page writes the repetition in front of it, as he would have:
"1... e5 2. Nf3". The composed text is what is sent and what the record keeps, unchanged. A text
that already repeats a move, names a game, or is a command is sent exactly as typed.
"""

from __future__ import annotations

import chess

from play.rules.message import parse_message
from play.rules.notation import number_label, write_move

DRAW_OFFER = "draw?"


def compose(text: str, moves: list[chess.Move], color: str, *, draw_offer: bool = False) -> str:
    """The message for `text` typed by the player of `color` ("white"/"black") in a game whose
    moves so far are `moves`; `draw_offer` adds "draw?" to a move (the rules make an offer
    with a move only)."""
    text = " ".join(text.split())
    if not text:
        return ""
    message = parse_message(text)
    if message.command is not None or message.game is not None or message.illegible or not message.moves:
        return text
    if draw_offer and not message.draw_offer:
        text = f"{text} {DRAW_OFFER}"
    expected = len(moves)
    on_move = "white" if expected % 2 == 0 else "black"
    if len(message.moves) != 1 or expected == 0 or on_move != color:
        return text
    board = chess.Board()
    for move in moves[:-1]:
        board.push(move)
    repetition = write_move(board, moves[-1], expected - 1)
    if message.reply.ply is None and color == "white":
        # "1... e5 Nf3" would be read right too, but a player writes his own move's number.
        return f"{repetition} {number_label(expected)} {text}"
    return f"{repetition} {text}"
