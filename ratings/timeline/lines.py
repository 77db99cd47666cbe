"""RatingChange rows as PostgreSQL COPY text: the replay's writer (a fifth of a full re-rating's
main process went to psycopg adapting value by value before this)."""

from __future__ import annotations

from collections.abc import Callable

from toolkit.bulk import json_text

# The foreign keys that anchor a change to its event: exactly one of them is set in a row.
ANCHORS = ("tournament_id", "mobile_game_id")
CHANGE_COLUMNS = ("player_id", *ANCHORS, "system", "rating_before", "rating_after", "provisional_before",
                  "provisional_after", "games", "score", "is_guest", "enters_list", "details")  # fmt: skip

_NULL = "\\N"


def anchor(column: str, event_id: int) -> tuple:
    """The anchor columns' values of a change of this event."""
    return tuple(event_id if name == column else None for name in ANCHORS)


def change_line(row: tuple, tail: str) -> str:
    """A RatingChange row (CHANGE_COLUMNS) as a line of COPY text, `tail` holding the columns filled
    in for every row and the newline: one format string where psycopg adapts value by value."""
    player_id = row[0]
    anchors = "\t".join(_NULL if value is None else str(value) for value in row[1 : 1 + len(ANCHORS)])
    (system, before, after, was_provisional, provisional, games, score, guest, enters, details) = row[
        1 + len(ANCHORS) :
    ]
    text = json_text(details)
    if "\\" in text:  # JSON escapes (\", \n, \u...) are backslashes, which COPY text doubles
        text = text.replace("\\", "\\\\")
    return (
        f"{player_id}\t{anchors}\t{system}\t{_NULL if before is None else before}\t"
        f"{_NULL if after is None else after}\t{'t' if was_provisional else 'f'}\t{'t' if provisional else 'f'}\t"
        f"{games}\t{score}\t{'t' if guest else 'f'}\t{'t' if enters else 'f'}\t{text}{tail}"
    )


def line_writer(stream) -> tuple[Callable[[tuple], None], Callable[[], None]]:
    """write(row) and flush() sending RatingChange rows to a PostgreSQL COPY as text, in blocks."""
    tail = stream.line_end
    block: list[str] = []
    send = stream.raw

    def write(row: tuple) -> None:
        block.append(change_line(row, tail))
        if len(block) >= 2000:
            flush()

    def flush() -> None:
        if block:
            send("".join(block).encode())
            block.clear()

    return write, flush
