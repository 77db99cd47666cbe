"""The board as inline SVG, drawn on the server by python-chess (no CDN, no client library).

python-chess writes a few `style="fill:…; stroke:…"` attributes on its piece drawings; the site's
Content-Security-Policy (style-src 'self') would make the browser refuse them, and the knights and
kings would lose their colours, so they are rewritten as the equivalent presentation attributes,
which the policy allows. The text description (`<desc>` with an ASCII board) is dropped: screen
readers get the aria-label instead.
"""

from __future__ import annotations

import re

import chess
import chess.svg
from django.utils.safestring import SafeString, mark_safe

_STYLE = re.compile(r'\sstyle="([^"]*)"')
_DESC = re.compile(r"<desc>.*?</desc>", re.S)
_TAG = re.compile(r"<[a-zA-Z][^<>]*\sstyle=\"[^\"]*\"[^<>]*>")


def _attributes(match: re.Match) -> str:
    """One element's style="a:b; c:d" as a="b" c="d", keeping any attribute it already had."""
    tag = match.group(0)
    declarations = _STYLE.search(tag).group(1)
    tag = _STYLE.sub("", tag, count=1)
    added = []
    for declaration in declarations.split(";"):
        name, _, value = declaration.partition(":")
        name, value = name.strip(), value.strip()
        if name and value and not re.search(rf"\s{re.escape(name)}=", tag):
            added.append(f'{name}="{value}"')
    if not added:
        return tag
    end = -2 if tag.endswith("/>") else -1
    return f"{tag[:end].rstrip()} {' '.join(added)} {tag[end:]}".replace("  ", " ")


def svg(
    board: chess.Board, *, lastmove: chess.Move | None = None, flipped: bool = False, label: str = ""
) -> SafeString:
    """The position of `board` from White's side, or Black's when `flipped`; the last move's
    squares highlighted, the king in check marked. Sized by CSS (a viewBox, no width)."""
    check = board.king(board.turn) if board.is_check() else None
    drawn = chess.svg.board(board, lastmove=lastmove, check=check, flipped=flipped, coordinates=True)
    drawn = _DESC.sub("", drawn)
    drawn = _TAG.sub(_attributes, drawn)
    label = label.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
    drawn = drawn.replace("<svg ", f'<svg class="board-svg" role="img" aria-label="{label}" ', 1)
    return mark_safe(drawn)  # noqa: S308 - python-chess's own markup; the label is escaped above


def position_at(moves, ply: int) -> tuple[chess.Board, chess.Move | None]:
    """The board after `ply` plies of `moves` (python-chess moves from the start) and the move
    that led to it (None at the start)."""
    board = chess.Board()
    for move in moves[:ply]:
        board.push(move)
    return board, (moves[ply - 1] if ply > 0 else None)
