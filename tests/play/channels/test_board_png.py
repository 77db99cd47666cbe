"""The board picture (play/channels/board_png.py): a PNG of the right size, the last move's squares in the
highlight colours, seen from the receiving player's side."""

import io

import chess
from PIL import Image

from play.channels import board_png

E2E4 = chess.Move.from_uci("e2e4")


def picture(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


def corner(image: Image.Image, square: chess.Square, orientation: chess.Color) -> tuple:
    """A pixel just inside the square's top-left corner, where no piece or ring reaches."""
    left, top, _, _ = board_png.square_box(square, orientation)
    return image.getpixel((left + 2, top + 2))


def test_it_is_a_png_of_eight_squares_and_the_frame():
    png = board_png.after_moves([E2E4], orientation=chess.WHITE)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    image = picture(png)
    assert image.format == "PNG"
    assert image.size == (8 * 56 + 2 * 20, 8 * 56 + 2 * 20) == (board_png.SIZE, board_png.SIZE)


def test_it_highlights_the_last_move_from_whites_side():
    image = picture(board_png.after_moves([E2E4], orientation=chess.WHITE))
    # e2 is a light square, e4 a light one too (e-file, even rank is light): python-chess's colours.
    assert corner(image, chess.E2, chess.WHITE) == board_png.LIGHT_LASTMOVE == (205, 210, 106)
    assert corner(image, chess.E4, chess.WHITE) == board_png.LIGHT_LASTMOVE
    assert corner(image, chess.D2, chess.WHITE) == board_png.DARK == (181, 136, 99)
    # White's side: e2 is in the 5th column from the left and the 7th row from the top.
    assert board_png.square_box(chess.E2, chess.WHITE)[:2] == (20 + 4 * 56, 20 + 6 * 56)
    assert image.getpixel((20 + 4 * 56 + 2, 20 + 6 * 56 + 2)) == board_png.LIGHT_LASTMOVE


def test_it_shows_the_board_from_blacks_side_for_black():
    image = picture(board_png.after_moves([E2E4], orientation=chess.BLACK))
    # Black's side: e2 is in the 4th column from the left and the 2nd row from the top.
    assert image.getpixel((20 + 3 * 56 + 2, 20 + 1 * 56 + 2)) == board_png.LIGHT_LASTMOVE
    # Where White's side has e2, Black's has d7: a light square, not highlighted.
    assert image.getpixel((20 + 4 * 56 + 2, 20 + 6 * 56 + 2)) == board_png.LIGHT
    # a1 is top right, h8 bottom left.
    assert board_png.square_box(chess.A1, chess.BLACK)[:2] == (20 + 7 * 56, 20)
    assert board_png.square_box(chess.H8, chess.BLACK)[:2] == (20, 20 + 7 * 56)


def test_it_draws_the_pieces_in_their_colours():
    image = picture(board_png.after_moves([E2E4], orientation=chess.WHITE))

    def dark_pixels(square):
        left, top, right, bottom = board_png.square_box(square, chess.WHITE)
        box = image.crop((left, top, right, bottom)).convert("L")
        return sum(1 for value in box.get_flattened_data() if value < 40)

    def white_pixels(square):
        left, top, right, bottom = board_png.square_box(square, chess.WHITE)
        box = image.crop((left, top, right, bottom)).convert("L")
        return sum(1 for value in box.get_flattened_data() if value > 250)

    assert dark_pixels(chess.E3) == 0 and white_pixels(chess.E3) == 0  # empty
    assert white_pixels(chess.E4) > 100  # the white pawn that moved, filled white
    assert dark_pixels(chess.E7) > 300  # a black pawn, solid black
    assert dark_pixels(chess.E1) > 50 and white_pixels(chess.E1) > 100  # the white king: outlined


def test_it_marks_a_king_in_check_and_draws_the_same_picture_twice():
    board = chess.Board()
    for san in ("e4", "f5", "Qh5+"):
        board.push_san(san)
    png = board_png.render(board, orientation=chess.BLACK, lastmove=board.peek())
    image = picture(png)
    left, top, _, bottom = board_png.square_box(chess.E8, chess.BLACK)
    # The ring's left edge, beside the king glyph.
    assert image.getpixel((left + 56 // 8 + 1, (top + bottom) // 2)) == board_png.CHECK
    assert corner(image, chess.E8, chess.BLACK) == board_png.LIGHT  # e8 is light; not a move square
    assert board_png.render(board, orientation=chess.BLACK, lastmove=board.peek()) == png
