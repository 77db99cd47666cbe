"""The board as a PNG picture, for a Telegram move notice (no Django: a position in, bytes out).

Drawn with Pillow, whose wheels carry their own FreeType, so it needs no system library (cairo,
which python-chess's SVG would need to become a bitmap, is not on every machine this runs on).
The pieces are the chess glyphs of DejaVu Sans (U+2654-U+265F), a free font shipped beside this
module with its licence (play/assets/). A white piece is the solid ("black") glyph filled white
with the outline ("white") glyph drawn over it in black, so it reads on both square colours; a
black piece is the solid glyph in black.

The board is seen from the side of the player who receives it (Black: a1 top right), with the
last move's two squares highlighted and a king in check marked, as on the game's web page.
"""

from __future__ import annotations

import functools
import io
from pathlib import Path

import chess
from PIL import Image, ImageDraw, ImageFont

FONT = Path(__file__).resolve().parent / "assets" / "DejaVuSans.ttf"

SQUARE = 56  # pixels per square
MARGIN = 20  # the frame that carries the coordinates
SIZE = 8 * SQUARE + 2 * MARGIN

# python-chess's SVG colours (the web page's board), and its highlight of the last move.
LIGHT = (240, 217, 181)
DARK = (181, 136, 99)
LIGHT_LASTMOVE = (205, 210, 106)
DARK_LASTMOVE = (170, 162, 58)
CHECK = (230, 70, 60)
FRAME = (64, 64, 64)
COORDINATE = (230, 230, 230)
WHITE_PIECE = (255, 255, 255)
BLACK_PIECE = (0, 0, 0)

# The glyphs by piece type: solid ("black") ones for the body, outlined ("white") ones for the line.
_SOLID = {chess.KING: "♚", chess.QUEEN: "♛", chess.ROOK: "♜", chess.BISHOP: "♝", chess.KNIGHT: "♞", chess.PAWN: "♟"}
_OUTLINE = {chess.KING: "♔", chess.QUEEN: "♕", chess.ROOK: "♖", chess.BISHOP: "♗", chess.KNIGHT: "♘", chess.PAWN: "♙"}


@functools.cache
def _font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT), size)


def square_box(square: chess.Square, orientation: chess.Color = chess.WHITE) -> tuple[int, int, int, int]:
    """The pixel box (left, top, right, bottom; right and bottom exclusive) of a square."""
    file, rank = chess.square_file(square), chess.square_rank(square)
    column, row = (file, 7 - rank) if orientation == chess.WHITE else (7 - file, rank)
    left, top = MARGIN + column * SQUARE, MARGIN + row * SQUARE
    return left, top, left + SQUARE, top + SQUARE


def square_colour(square: chess.Square, *, highlighted: bool = False) -> tuple[int, int, int]:
    light = (chess.square_file(square) + chess.square_rank(square)) % 2 == 1
    if highlighted:
        return LIGHT_LASTMOVE if light else DARK_LASTMOVE
    return LIGHT if light else DARK


def render(board: chess.Board, *, orientation: chess.Color = chess.WHITE, lastmove: chess.Move | None = None) -> bytes:
    """The position as PNG bytes, SIZE x SIZE pixels, from `orientation`'s side."""
    image = Image.new("RGB", (SIZE, SIZE), FRAME)
    draw = ImageDraw.Draw(image)
    marked = {lastmove.from_square, lastmove.to_square} if lastmove else set()
    checked = board.king(board.turn) if board.is_check() else None
    pieces = _font(int(SQUARE * 0.86))
    for square in chess.SQUARES:
        left, top, right, bottom = square_box(square, orientation)
        draw.rectangle((left, top, right - 1, bottom - 1), fill=square_colour(square, highlighted=square in marked))
        if square == checked:
            # A ring inside the square: its corners keep the square's (or the highlight's) colour.
            inset = SQUARE // 8
            draw.ellipse((left + inset, top + inset, right - 1 - inset, bottom - 1 - inset), fill=CHECK)
        piece = board.piece_at(square)
        if piece is None:
            continue
        centre = (left + SQUARE / 2, top + SQUARE / 2 + SQUARE * 0.04)  # glyphs sit a little high
        if piece.color == chess.WHITE:
            draw.text(centre, _SOLID[piece.piece_type], font=pieces, fill=WHITE_PIECE, anchor="mm")
            draw.text(centre, _OUTLINE[piece.piece_type], font=pieces, fill=BLACK_PIECE, anchor="mm")
        else:
            draw.text(centre, _SOLID[piece.piece_type], font=pieces, fill=BLACK_PIECE, anchor="mm")
    labels = _font(MARGIN * 3 // 5)
    for index in range(8):
        file_name = chess.FILE_NAMES[index if orientation == chess.WHITE else 7 - index]
        rank_name = chess.RANK_NAMES[7 - index if orientation == chess.WHITE else index]
        middle = MARGIN + index * SQUARE + SQUARE / 2
        for edge in (MARGIN / 2, SIZE - MARGIN / 2):
            draw.text((middle, edge), file_name, font=labels, fill=COORDINATE, anchor="mm")
            draw.text((edge, middle), rank_name, font=labels, fill=COORDINATE, anchor="mm")
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def after_moves(moves: list[chess.Move], *, orientation: chess.Color) -> bytes:
    """The position after `moves` from the standard start, the last of them highlighted."""
    board = chess.Board()
    for move in moves:
        board.push(move)
    return render(board, orientation=orientation, lastmove=moves[-1] if moves else None)
