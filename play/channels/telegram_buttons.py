"""The buttons under a Telegram message of an open game, and what a press means (no Django).

Every press names its game (`#CODE` in the callback data), so a player with several games can
press a button under any of their messages. A press that acts on the game becomes the very text
a player would type (`#CODE RESIGN`, `#CODE DRAW`, ...), which the one message service applies
and the continuous record keeps, as from any channel.

Draw offers. The rules make an offer only *with a move* ("a draw offered with a move (`draw?`)
is accepted by the opponent's `DRAW` before his next move, and lapses when he moves"; the
grammar has no command that offers a draw by itself). A press carries no move, so "Offer draw"
cannot be a message of the grammar. Keeping a half-made offer somewhere until the next typed
move would put a piece of the game's state outside the continuous record (the record being what
the game is rebuilt from), and would make a move carry an offer its text does not show. So
"Offer draw" only tells how: it answers the press with the grammar's own form (`... draw?`) and
changes nothing. "Accept draw" (DRAW) is shown while the opponent's offer stands, and "Claim
draw" (DRAW CLAIM) while the player is on move in a position where the claim is correct
(threefold repetition, fifty moves): an incorrect claim is referred back, so the button is not
offered where it could only be refused.

Resigning takes two presses: "Resign" swaps the buttons for "Confirm resign" and "Cancel";
only "Confirm resign" sends RESIGN.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

OFFER, ACCEPT, CLAIM, RESIGN, CONFIRM, CANCEL, STATUS, RECORD = (
    "offer", "accept", "claim", "resign", "confirm", "cancel", "status", "record",
)  # fmt: skip

# The presses that are messages of the grammar, and the command each one types.
COMMANDS = {ACCEPT: "DRAW", CLAIM: "DRAW CLAIM", CONFIRM: "RESIGN", STATUS: "STATUS", RECORD: "RECORD"}
# The presses that only change the buttons or answer with a hint: nothing reaches the game.
STEPS = (OFFER, RESIGN, CANCEL)

OFFER_HINT = (
    "A draw is offered with a move: send your move with draw? after it, e.g. '12... Nc6 13. Bb5 draw?'. "
    "Your opponent accepts with DRAW before his next move; the offer lapses when he moves."
)

# Telegram allows 1-64 bytes of callback data; game codes are at most 24 characters.
_DATA = re.compile(r"(?P<action>[a-z]{1,8}) #(?P<code>[A-Za-z0-9-]{1,24})")


@dataclass(frozen=True)
class Press:
    action: str
    code: str

    @property
    def text(self) -> str:
        """The message a player would type for this press (only for COMMANDS)."""
        return f"#{self.code} {COMMANDS[self.action]}"


def data(action: str, code: str) -> str:
    return f"{action} #{code}"


def press_parse(callback_data: str | None) -> Press | None:
    """The press named by a button's callback data; None for anything this bot did not send."""
    match = _DATA.fullmatch(callback_data or "")
    if match is None or match["action"] not in (*COMMANDS, *STEPS):
        return None
    return Press(match["action"], match["code"].upper())


def _button(label: str, action: str, code: str) -> InlineKeyboardButton:
    return InlineKeyboardButton(label, callback_data=data(action, code))


def keyboard(code: str, *, may_accept: bool = False, may_claim: bool = False) -> InlineKeyboardMarkup:
    """The buttons of an open game's message: the draw (offer, or accept when the opponent's
    offer stands), a correct draw claim, resign; status and record."""
    first = [_button("Accept draw", ACCEPT, code) if may_accept else _button("Offer draw", OFFER, code)]
    if may_claim:
        first.append(_button("Claim draw", CLAIM, code))
    first.append(_button("Resign", RESIGN, code))
    return InlineKeyboardMarkup([first, [_button("Status", STATUS, code), _button("Record", RECORD, code)]])


def confirm_keyboard(code: str) -> InlineKeyboardMarkup:
    """The second step of resigning."""
    return InlineKeyboardMarkup([[_button("Confirm resign", CONFIRM, code), _button("Cancel", CANCEL, code)]])


# What the press's answer (the small notice Telegram shows) says after the service applied it.
APPLIED_NOTES = {
    "resign": "You resigned.",
    "draw agreed": "Draw agreed.",
    "draw claim": "Draw claimed.",
    "draw offer absent": "No draw offer stands.",
    "status": "Status sent.",
    "record": "Record sent.",
    "state": "Status sent.",
    "referral": "Referred back: see the message.",
    "after end": "The game is over.",
    "duplicate": "Already done.",
    "unknown game": "This game is not yours.",
    "unknown sender": "This chat is not linked to a player.",
}
