"""A player's message in mobile chess: its grammar, and its check against the game.

docs/rules/mobile-chess.md, "Messages (rules 2 and 4)":

    [#GAME] [repetition] reply [DRAW?]      e.g.  "#G17 12. Nf3 Nc6"   "12... Nc6 13. Bb5+ draw?"
    [#GAME] COMMAND [text]                  RESIGN, DRAW, DRAW CLAIM, PROTEST text, DELAY minutes,
                                            STATUS, RECORD, HELP, FAILURE text, IF line,
                                            DISPUTE text, APPEAL text
    PLAY COMPUTER level [WHITE|BLACK]       a request for a new game, addressed to no game

`parse_request` reads a request for a new game (`PlayRequest`), which the message service hands
to the room that serves it (play.computer) before any game is looked for; any other text is a
game's message.

`parse_message` reads the text alone (no game needed); `check_reply` judges a move message
against the moves so far and gives either an `Accepted` reply or a `Referral` with its reason;
`check_conditional` does the same for an `IF` line ("Conditional moves"), and
`follow_conditional` plays registered lines when the opponent moves.

Move numbers: `12.` is White's 12th move, `12...` Black's, with or without a space before the
move. A move written without a number takes the one after the previous move's (`12. Nf3 Nc6`:
Nc6 is 12...). Plies are 0-based: White's 1st move is ply 0, Black's 12th ply 23.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

import chess

from play.rules.notation import INDICATION_WORDS, Reason, is_move_text, number_label, read_move, write_move


class Command(StrEnum):
    RESIGN = "resign"
    DRAW = "draw"  # accepts the opponent's pending draw offer
    DRAW_CLAIM = "draw claim"
    PROTEST = "protest"
    DELAY = "delay"
    STATUS = "status"
    RECORD = "record"
    HELP = "help"
    FAILURE = "failure"
    IF = "if"
    # Beyond the draft's list: a dispute for the TD (rule 5d) and an appeal of a TD decision to
    # the Appeals Commission chairman (rule 10c); both carry a free text.
    DISPUTE = "dispute"
    APPEAL = "appeal"


@dataclass(frozen=True)
class WrittenMove:
    """One move of a message as written, with the ply its number gives it.

    `ply` is None when no number in the message fixes it (a lone `e4`). `numbered` is true when
    the move's number was written before it or follows from a number written earlier in the
    message (`12. Nf3 Nc6`: both); a move whose number is only inferred backwards from a later
    number (`Nf3 12... Nc6`: Nf3) is not "with its number" (rule 4b).
    """

    text: str
    ply: int | None
    numbered: bool


@dataclass(frozen=True)
class Message:
    """A player's message, read without the game.

    Either `command` is set (with `text`, and `minutes` for DELAY; `lines` for IF), or `moves`
    holds the repetition and the reply (the reply last). `illegible` says why nothing usable was
    found (then the message is referred back as illegible if it was meant as a move).
    """

    game: str | None = None
    command: Command | None = None
    text: str = ""
    minutes: int | None = None
    moves: tuple[WrittenMove, ...] = ()
    draw_offer: bool = False
    lines: tuple[tuple[WrittenMove, ...], ...] = ()
    illegible: str | None = None

    @property
    def reply(self) -> WrittenMove | None:
        return self.moves[-1] if self.moves else None

    @property
    def repetition(self) -> tuple[WrittenMove, ...]:
        return self.moves[:-1]


@dataclass(frozen=True)
class Accepted:
    """A reply that is legal and correctly written: it becomes the sender's move (rule 4a)."""

    move: chess.Move
    san: str
    ply: int
    draw_offer: bool = False


@dataclass(frozen=True)
class Referral:
    """A message referred back (rule 4c, 4d): `reason` is the code, `explanation` plain English.

    The code is what records and transcripts show; the explanation is for the human reading it
    (callers translate by `reason` and may quote `explanation`).
    """

    reason: Reason
    explanation: str


@dataclass(frozen=True)
class ConditionalPair:
    """One step of a conditional line: if the opponent plays `expected`, play `reply`."""

    expected: chess.Move
    reply: chess.Move
    ply: int  # the ply of `expected`; `reply` is the next one


ConditionalLine = tuple[ConditionalPair, ...]

# A move number: `12.` (White) or `12...` / `12..` / `12…` (Black); never glued to a word before
# it, so an ICCF move `5254` is not split.
_NUMBER = re.compile(r"(?<![\w.])(\d{1,3})\s*(\.{2,}|…|\.)")
_TOKEN = re.compile(r"(?<![\w.])\d{1,3}\s*(?:\.{2,}|…|\.)|\S+")
_TAG = re.compile(r"#([\w-]+)")
_DRAW_OFFER = frozenset({"draw?", "ничья?"})
_SPACED_DRAW_OFFER = re.compile(r"\b(draw|ничья)\s+\?", re.IGNORECASE)  # "draw ?" is "draw?"
_INDICATION_ONLY = re.compile(r"[+#!?†‡]+")
_LINE_SEPARATOR = re.compile(r"[;\n]")
# A referral quotes the word it could not read, so the player sees which one; any move however
# written ("Nbxd7+!?", "e7-e8=Q+") is far shorter. A longer word is cut: a 10,000-character word
# quoted whole came back as 71 SMS.
QUOTE_LIMIT = 20
ELLIPSIS = "..."  # three full stops, not "…": the GSM alphabet has no ellipsis (an SMS would go UCS-2)


def excerpt(text: str, limit: int = QUOTE_LIMIT) -> str:
    """At most `limit` characters of `text`, and "..." after them when it was longer."""
    return text if len(text) <= limit else text[:limit] + ELLIPSIS


def _quoted(text: str) -> str:
    return f"'{excerpt(text)}'"


def _split_word(text: str) -> tuple[str, str]:
    parts = text.strip().split(None, 1)
    return (parts[0], parts[1].strip()) if len(parts) == 2 else ((parts[0], "") if parts else ("", ""))


def _split_tag(text: str) -> tuple[str | None, str]:
    head, rest = _split_word(text)
    if match := _TAG.fullmatch(head):
        return match.group(1), rest
    return None, text.strip()


def _read_moves(text: str) -> tuple[tuple[WrittenMove, ...], bool, str | None]:
    """The numbered moves of a text, whether it offers a draw, and why it is illegible if so."""
    written: list[tuple[str, int | None]] = []  # (move text, ply of an explicit number)
    draw_offer = False
    pending: int | None = None
    text = _SPACED_DRAW_OFFER.sub(lambda match: match.group(1) + "?", text)
    for token in _TOKEN.findall(text):
        lower = token.lower()
        if number := _NUMBER.fullmatch(token):
            if pending is not None:
                return (), draw_offer, f"the move number {token} follows another number"
            pending = 2 * (int(number.group(1)) - 1) + (0 if number.group(2) == "." else 1)
        elif lower in _DRAW_OFFER:
            draw_offer = True
        elif lower.strip("()").rstrip("!?.,+#") in INDICATION_WORDS or _INDICATION_ONLY.fullmatch(token):
            continue
        elif is_move_text(token):
            written.append((token, pending))
            pending = None
        else:
            return (), draw_offer, f"{_quoted(token)} is not a move"
    if pending is not None:
        return (), draw_offer, "a move number is not followed by a move"
    if not written:
        return (), draw_offer, "no move found"
    moves: list[WrittenMove] = []
    previous: int | None = None
    for token, explicit in written:
        if explicit is not None:
            ply, numbered = explicit, True
        elif previous is not None:
            ply, numbered = previous + 1, True
        else:
            ply, numbered = None, False
        moves.append(WrittenMove(token, ply, numbered))
        previous = ply
    # Moves before the first number take theirs backwards from it (not "with their number").
    first = next((i for i, m in enumerate(moves) if m.ply is not None), None)
    if first is not None:
        start = moves[first].ply
        for i in range(first):
            moves[i] = WrittenMove(moves[i].text, start - (first - i), False)
    return tuple(moves), draw_offer, None


# "PLAY COMPUTER 3", "play computer 3 white": a level's number and, if wanted, the colour.
PLAY_REQUEST = re.compile(r"\s*PLAY\s+COMPUTER\s+(\d{1,3})(?:\s+(WHITE|BLACK))?\s*", re.IGNORECASE)


@dataclass(frozen=True)
class PlayRequest:
    """A "PLAY COMPUTER 3 [WHITE|BLACK]" message: a new game against a computer level, not a move.
    `side` is "white", "black" or "random" (none written)."""

    level: int
    side: str


def parse_request(text: str) -> PlayRequest | None:
    """The request for a new game a message is, or None for a game's message (read by
    `parse_message`)."""
    match = PLAY_REQUEST.fullmatch(text or "")
    if match is None:
        return None
    return PlayRequest(int(match.group(1)), (match.group(2) or "random").lower())


def parse_message(text: str) -> Message:
    """Read a player's message by the spec's grammar (commands and `draw?` in any case)."""
    game, body = _split_tag(text)
    word, rest = _split_word(body)
    try:
        # A full stop or exclamation after a command word is punctuation, not part of it.
        command = Command(word.lower().rstrip(".!")) if word else None
    except ValueError:
        command = None
    if command is Command.DRAW and rest.lower().split()[:1] == ["claim"]:
        command, rest = Command.DRAW_CLAIM, rest[len("claim") :].strip()
    if command is Command.DELAY:
        minutes = rest.split()[0] if rest else ""
        if not minutes.isdigit() or int(minutes) <= 0:
            return Message(game=game, command=command, text=rest, illegible="DELAY needs a number of minutes")
        return Message(game=game, command=command, text=rest, minutes=int(minutes))
    if command is Command.IF:
        lines: list[tuple[WrittenMove, ...]] = []
        for part in _LINE_SEPARATOR.split(rest):
            if not part.strip():
                continue
            moves, _, why = _read_moves(part)
            if why:
                return Message(game=game, command=command, text=rest, illegible=why)
            lines.append(moves)
        if not lines:
            return Message(game=game, command=command, text=rest, illegible="IF needs a line of moves")
        return Message(game=game, command=command, text=rest, lines=tuple(lines))
    if command in (Command.DISPUTE, Command.APPEAL) and not rest:
        return Message(game=game, command=command, illegible=f"{command.value.upper()} needs a text saying why")
    if command is not None:
        return Message(game=game, command=command, text=rest)
    moves, draw_offer, why = _read_moves(body)
    return Message(game=game, moves=moves, draw_offer=draw_offer, illegible=why)


def _history(game: Sequence[chess.Move] | chess.Board) -> list[chess.Move]:
    if isinstance(game, chess.Board):
        return list(game.move_stack)
    return list(game)


def _root(game: Sequence[chess.Move] | chess.Board) -> chess.Board:
    return game.root() if isinstance(game, chess.Board) else chess.Board()


def _current(game: Sequence[chess.Move] | chess.Board) -> chess.Board:
    """The game's current position with its moves (only read, never pushed on: copies are made from it)."""
    if isinstance(game, chess.Board):
        return game
    board = chess.Board()
    for move in game:
        board.push(move)
    return board


def check_reply(message: Message, game: Sequence[chess.Move] | chess.Board, sender: chess.Color) -> Accepted | Referral:
    """Judge a move message from `sender` against the game (rule 4), faults in the spec's order.

    `game` is the moves so far from the standard start position (or a board carrying them);
    `sender` is the colour the sender plays in this game. The first
    fault of turn, illegible, number, repetition, illegal, ambiguous is the reason given.
    """
    if message.command is not None:
        raise ValueError("check_reply judges move messages; a command is handled by the game")
    source = _current(game)
    history = list(source.move_stack)
    expected = len(history)
    board = source.copy(stack=False)  # the position is all a reply is judged on

    def before(ply: int) -> chess.Board:
        # The position before `ply`, taken back from the current one with only the moves it needs:
        # a message repeats one or two recent moves, so this is a few pops, where a board per ply
        # (or a copy of the whole game) made every message cost as much as the game is long.
        back = expected - ply
        position = source.copy(stack=back)
        for _ in range(back):
            position.pop()
        return position

    if board.turn != sender:
        return Referral(Reason.TURN, "it is not your turn: your opponent is on move")
    if message.illegible or message.reply is None:
        return Referral(Reason.ILLEGIBLE, f"the message cannot be read: {message.illegible or 'no move found'}")
    reply = message.reply
    reply_ply = reply.ply if reply.ply is not None else expected
    if reply_ply != expected:
        return Referral(
            Reason.NUMBER, f"your move is {number_label(expected)}, the message numbers it {number_label(reply_ply)}"
        )
    # Plies of the repetition, counted back from the reply when no number is written at all.
    count = len(message.repetition)
    plies = [m.ply if m.ply is not None else expected - (count - i) for i, m in enumerate(message.repetition)]
    if expected > 0 and not any(
        ply == expected - 1 and m.numbered for ply, m in zip(plies, message.repetition, strict=True)
    ):
        latest = write_move(before(expected - 1), history[-1], expected - 1)
        return Referral(Reason.REPETITION, f"the reply must be preceded by your opponent's latest move, {latest}")
    for ply, written in zip(plies, message.repetition, strict=True):
        if not 0 <= ply < expected:
            return Referral(Reason.REPETITION, f"{_quoted(written.text)} repeats a move that has not been played")
        position = before(ply)
        reading = read_move(position, written.text)
        if reading.move != history[ply]:
            recorded = write_move(position, history[ply], ply)
            return Referral(Reason.REPETITION, f"{_quoted(written.text)} does not match the record: {recorded}")
    reading = read_move(board, reply.text)
    if reading.fault is Reason.ILLEGAL:
        return Referral(Reason.ILLEGAL, f"{_quoted(reply.text)} is not a legal move in this position")
    if reading.fault is Reason.AMBIGUOUS:
        options = ", ".join(board.san(move) for move in reading.candidates)
        return Referral(Reason.AMBIGUOUS, f"{_quoted(reply.text)} can mean more than one move: {options}")
    if reading.move is None:  # not reached: the text was checked to be a move's shape
        return Referral(Reason.ILLEGIBLE, f"{_quoted(reply.text)} is not a move")
    return Accepted(move=reading.move, san=board.san(reading.move), ply=expected, draw_offer=message.draw_offer)


def check_conditional(
    message: Message, game: Sequence[chess.Move] | chess.Board, sender: chess.Color
) -> tuple[ConditionalLine, ...] | Referral:
    """Judge an `IF` message: each line is pairs (opponent's move, sender's reply) from now on.

    The opponent must be on move; each line starts with the opponent's next move and is read
    move by move along the line, so every move is checked for legality in its own position
    ("Conditional moves": an illegal line is referred back).
    """
    if message.command is not Command.IF:
        raise ValueError("check_conditional judges IF messages")
    history = _history(game)
    board = _root(game)
    for move in history:
        board.push(move)
    if board.turn == sender:
        return Referral(Reason.TURN, "conditional moves are registered while your opponent is on move")
    if message.illegible:
        return Referral(Reason.ILLEGIBLE, f"the message cannot be read: {message.illegible}")
    expected = len(history)
    result: list[ConditionalLine] = []
    for line in message.lines:
        if len(line) % 2:
            return Referral(Reason.ILLEGIBLE, "a conditional line is pairs: your opponent's move, then your reply")
        first = line[0].ply if line[0].ply is not None else expected
        if first != expected:
            return Referral(
                Reason.NUMBER,
                f"a line starts with your opponent's move {number_label(expected)}, not {number_label(first)}",
            )
        position = board.copy(stack=False)
        moves: list[chess.Move] = []
        for offset, written in enumerate(line):
            if written.ply is not None and written.ply != expected + offset:
                return Referral(Reason.NUMBER, f"{_quoted(written.text)} is numbered {number_label(written.ply)}")
            reading = read_move(position, written.text)
            if reading.move is None:
                return Referral(
                    reading.fault or Reason.ILLEGAL,
                    f"{_quoted(written.text)} is not one legal move at {number_label(expected + offset)} of the line",
                )
            moves.append(reading.move)
            position.push(reading.move)
        result.append(
            tuple(
                ConditionalPair(expected=moves[i], reply=moves[i + 1], ply=expected + i)
                for i in range(0, len(moves), 2)
            )
        )
    return tuple(result)


def follow_conditional(
    lines: Sequence[ConditionalLine], opponent_move: chess.Move
) -> tuple[chess.Move | None, tuple[ConditionalLine, ...]]:
    """The reply registered for the opponent's move, and the lines that stay registered.

    The first line (in registration order) whose next expected move is the one played gives the
    reply; the rest of every line that agrees with it (same expected move and reply) stays; a
    move that matches no line cancels all of them ("Conditional moves").
    """
    matching = [line for line in lines if line and line[0].expected == opponent_move]
    if not matching:
        return None, ()
    reply = matching[0][0].reply
    remaining = tuple(line[1:] for line in matching if line[0].reply == reply and len(line) > 1)
    return reply, remaining
