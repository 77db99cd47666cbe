"""Move notation of mobile chess: one written move read against a position, and moves written back.

docs/rules/mobile-chess.md, "Messages (rules 2 and 4)", rule 2b: a move may be written

- in SAN with English piece letters (K Q R B N) or Russian ones (Кр K, Ф Q, Л R, С B, К N;
  К alone is the knight, Кр the king): `Nf3`, `Кf3`, `exd5`, `e8=Q`;
- as castling `O-O`, `0-0`, `O-O-O`, `0-0-0`;
- in long algebraic notation: `e2e4`, `e2-e4`, `Ng1-f3`, `e7e8q`, `e7-e8=Q` (without a piece
  letter the move is that of whatever piece stands on the first square);
- in ICCF numeric notation: `5254` (file a-h = 1-8, then the rank), a promotion adding a fifth
  digit 1 Q, 2 R, 3 B, 4 N (`57581` is e7-e8=Q); castling is the king's move (`5171` is e1-g1).

Indications are ignored (rule 4e): `+`, `#`, `x`, `:`, `e.p.`, `!`, `?` inside a move, and the
words "check" / "шах" (and "mate" / "мат") standing alone, which `message.py` skips.

SAN's case matters: a lowercase `b` is the b-file, never a bishop. A lowercase `n`, `r`, `q` or
`k` cannot be a file, so `nf3` is read as the knight move (the spec's "when no pawn move fits").

A reading has one of four outcomes: the move; "illegal" (it reads as a move but no legal move of
this position fits it); "ambiguous" (several legal moves fit, e.g. `Nd2` when two knights can go,
or a promotion written without its piece); "illegible" (it is not a move at all).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

import chess


class Reason(StrEnum):
    """Why a message is referred back (rule 4c, 4d); the values are the transcript's codes."""

    TURN = "turn"
    ILLEGIBLE = "illegible"
    NUMBER = "number"
    REPETITION = "repetition"
    ILLEGAL = "illegal"
    AMBIGUOUS = "ambiguous"


# "Several faults in one message: the reason given is the first of turn, illegible, number,
# repetition, illegal, ambiguous" (Edge cases).
FAULT_ORDER: tuple[Reason, ...] = tuple(Reason)


@dataclass(frozen=True)
class MovePattern:
    """What a written move says, before any position is looked at.

    `piece` is None when no piece letter was written: a pawn, unless the full starting square
    is given (`e2e4`, `5254`), when it is whatever piece stands there. `castle` is "short" or
    "long" for `O-O` / `O-O-O`. `from_file`/`from_rank` are 0-7 indexes or None.
    """

    to_square: int | None = None
    piece: chess.PieceType | None = None
    from_file: int | None = None
    from_rank: int | None = None
    to_file: int | None = None
    promotion: chess.PieceType | None = None
    castle: str | None = None

    @property
    def from_square_given(self) -> bool:
        return self.from_file is not None and self.from_rank is not None


@dataclass(frozen=True)
class MoveReading:
    """The outcome of reading one written move against a position.

    Exactly one of `move` and `fault` is set; `fault` is ILLEGIBLE, ILLEGAL or AMBIGUOUS.
    `candidates` lists the legal moves an ambiguous text could mean.
    """

    text: str
    move: chess.Move | None = None
    fault: Reason | None = None
    candidates: tuple[chess.Move, ...] = ()

    @property
    def ok(self) -> bool:
        return self.move is not None


# Longest first: Кр (king) must win over К (knight). Latin look-alikes typed on a Russian
# keyboard (Kp, КР) and Cyrillic letters that look like Latin ones (а, с, е, х, О, В) are
# read as what they look like: a player cannot see the difference on a phone.
_LETTERS = (
    ("Кр", "K"),
    ("КР", "K"),
    ("кр", "K"),
    ("Kp", "K"),
    ("KP", "K"),
    ("К", "N"),
    ("к", "n"),
    ("Ф", "Q"),
    ("ф", "q"),
    ("Л", "R"),
    ("л", "r"),
    ("С", "B"),
    ("В", "B"),
    ("с", "c"),
    ("а", "a"),
    ("е", "e"),
    ("х", "x"),
    ("Х", "x"),
    ("О", "O"),
    ("о", "o"),
)
_PIECES = {"K": chess.KING, "Q": chess.QUEEN, "R": chess.ROOK, "B": chess.BISHOP, "N": chess.KNIGHT}
# Lowercase piece letters that cannot be a file (a-h): read as pieces. `b` is the b-file.
_LOWER_PIECES = {"k": chess.KING, "q": chess.QUEEN, "r": chess.ROOK, "n": chess.KNIGHT}
_PROMOTIONS = {"q": chess.QUEEN, "r": chess.ROOK, "b": chess.BISHOP, "n": chess.KNIGHT}
_ICCF_PROMOTIONS = {"1": chess.QUEEN, "2": chess.ROOK, "3": chess.BISHOP, "4": chess.KNIGHT}

_EN_PASSANT = re.compile(r"\(?e\.\s?p\.?\)?$", re.IGNORECASE)
_INDICATION_CHARS = str.maketrans("", "", "+#!?†‡")
_SEPARATOR_CHARS = str.maketrans("", "", "x:-–—=()/")
_CASTLING = re.compile(r"[Oo0]{2,3}")
_ICCF = re.compile(r"([1-8])([1-8])([1-8])([1-8])([1-4])?")
_ALGEBRAIC = re.compile(r"([KQRBNkqrn])?([a-h])?([1-8])?([a-h])([1-8])([QRBNqrbn])?")
_PAWN_FILES = re.compile(r"([a-h])([a-h])")  # old short form of a pawn capture: `ed` for exd5

# Words a player may add that say nothing about the move (rule 4e).
INDICATION_WORDS = frozenset({"check", "шах", "mate", "мат", "checkmate", "e.p.", "ep", "e.p"})


def _normalise(text: str) -> str:
    # A full stop or comma closing a move ("1. e4, draw?") is punctuation of the sentence.
    text = _EN_PASSANT.sub("", text.strip().rstrip(".,;"))
    text = text.translate(_INDICATION_CHARS)
    for written, latin in _LETTERS:
        text = text.replace(written, latin)
    return text


def pattern_of(text: str) -> MovePattern | None:
    """The move a text describes, position aside; None when the text is no move at all."""
    text = _normalise(text)
    bare = text.translate(_SEPARATOR_CHARS)
    if _CASTLING.fullmatch(bare):
        return MovePattern(castle="short" if len(bare) == 2 else "long")
    if match := _ICCF.fullmatch(bare):
        digits = [int(d) - 1 for d in match.groups()[:4]]
        return MovePattern(
            from_file=digits[0],
            from_rank=digits[1],
            to_square=chess.square(digits[2], digits[3]),
            promotion=_ICCF_PROMOTIONS.get(match.group(5) or ""),
        )
    if match := _ALGEBRAIC.fullmatch(bare):
        letter, from_file, from_rank, to_file, to_rank, promotion = match.groups()
        piece = None
        if letter:
            piece = _PIECES.get(letter) or _LOWER_PIECES[letter]
        return MovePattern(
            piece=piece,
            from_file=chess.FILE_NAMES.index(from_file) if from_file else None,
            from_rank=int(from_rank) - 1 if from_rank else None,
            to_square=chess.parse_square(to_file + to_rank),
            promotion=_PROMOTIONS[promotion.lower()] if promotion else None,
        )
    if match := _PAWN_FILES.fullmatch(bare):
        from_file, to_file = match.groups()
        if from_file != to_file:
            return MovePattern(from_file=chess.FILE_NAMES.index(from_file), to_file=chess.FILE_NAMES.index(to_file))
    return None


def is_move_text(text: str) -> bool:
    """Whether a text has the shape of a move in one of the notations (no position needed)."""
    return pattern_of(text) is not None


def _fits(board: chess.Board, pattern: MovePattern, move: chess.Move) -> bool:
    if pattern.castle:
        return board.is_castling(move) and (
            board.is_kingside_castling(move) if pattern.castle == "short" else board.is_queenside_castling(move)
        )
    piece = board.piece_type_at(move.from_square)
    if pattern.piece is not None:
        if piece != pattern.piece:
            return False
    elif not pattern.from_square_given and piece != chess.PAWN:
        return False
    if pattern.from_file is not None and chess.square_file(move.from_square) != pattern.from_file:
        return False
    if pattern.from_rank is not None and chess.square_rank(move.from_square) != pattern.from_rank:
        return False
    if pattern.to_square is not None and move.to_square != pattern.to_square:
        return False
    if pattern.to_file is not None and (
        chess.square_file(move.to_square) != pattern.to_file or not board.is_capture(move)
    ):
        return False
    # A promotion written without its piece fits all four promotions: ambiguous, not illegal.
    return pattern.promotion is None or move.promotion == pattern.promotion


def read_move(board: chess.Board, text: str) -> MoveReading:
    """Read one written move (rule 2b) in the position `board` (the side to move is the mover)."""
    pattern = pattern_of(text)
    if pattern is None:
        return MoveReading(text=text, fault=Reason.ILLEGIBLE)
    candidates = tuple(move for move in board.legal_moves if _fits(board, pattern, move))
    if not candidates:
        return MoveReading(text=text, fault=Reason.ILLEGAL)
    if len(candidates) > 1:
        return MoveReading(text=text, fault=Reason.AMBIGUOUS, candidates=candidates)
    return MoveReading(text=text, move=candidates[0])


def ply_of(number: int, color: chess.Color) -> int:
    """The 0-based ply of move `number` of `color`: White's 1st is 0, Black's 12th is 23."""
    return 2 * (number - 1) + (0 if color == chess.WHITE else 1)


def move_number(ply: int) -> int:
    """The move a ply (0 for White's first) belongs to."""
    return ply // 2 + 1


def number_label(ply: int) -> str:
    """The move number as written before the move of a ply: `12.` for White, `12...` for Black."""
    return f"{move_number(ply)}." if ply % 2 == 0 else f"{move_number(ply)}..."


def write_move(board: chess.Board, move: chess.Move, ply: int | None = None) -> str:
    """A move written back for an outbound message: `12. Nf3` or `12... Nc6` (SAN, English).

    `board` is the position before the move; `ply` defaults to that position's ply.
    """
    if ply is None:
        ply = ply_of(board.fullmove_number, board.turn)
    return f"{number_label(ply)} {board.san(move)}"


def write_moves(moves: list[chess.Move], first_ply: int = 0, board: chess.Board | None = None) -> str:
    """Several consecutive moves as a record: `12. Nf3 Nc6 13. Bb5` (Black's number only first).

    `board` is the position before the first move (default: the start position).
    """
    # Without its move stack: writing a move needs the position only, and the stack grows with the game.
    board = board.copy(stack=False) if board is not None else chess.Board()
    parts: list[str] = []
    for offset, move in enumerate(moves):
        ply = first_ply + offset
        san = board.san(move)
        if ply % 2 == 0 or offset == 0:
            parts.append(f"{number_label(ply)} {san}")
        else:
            parts.append(san)
        board.push(move)
    return " ".join(parts)


def write_position(moves: list[chess.Move], board: chess.Board | None = None) -> str:
    """The position as a referral states it (rule 4c): the moves so far and whose turn it is.

    `1. e4 c5 2. Nf3 — Black to play move 2`; before any move, `White to play move 1`.
    `board` is the starting position (default: the standard one).

    The turn says "move N" rather than the label `N.` / `N...`: a message ends the position with
    a full stop, and `White to play 9..` or `Black to play 9....` read as a typo, or as the other
    side's number. The colour already says which half of move N is due.
    """
    start = board.copy() if board is not None else chess.Board()
    ply = ply_of(start.fullmove_number, start.turn) + len(moves)
    side = "White" if ply % 2 == 0 else "Black"
    record = write_moves(moves, first_ply=ply - len(moves), board=start)
    turn = f"{side} to play move {move_number(ply)}"
    return f"{record} — {turn}" if record else turn
