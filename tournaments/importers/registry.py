"""Result file importers: one module per format, one common result (`base.ParsedFile`).

`read_result_file(name, data)` finds the format from the content (never the name),
reads the file and returns a ParsedFile whose `problems` list the warnings and
errors found, or raises ResultFileError when the file cannot be read at all.
"""

from __future__ import annotations

from django.utils.translation import gettext_noop

from players.names import character_name, strip_invisible
from tournaments.importers import (
    chessresults,
    html,
    pgn,
    spreadsheets,
    swissmanager,
    swissperfect,
    swissperfect_native,
    trf,
)
from tournaments.importers.base import ParsedFile, Place, ResultFileError, refusal
from tournaments.importers.invisible import FILE_NAME, REMOVED, clean_parsed

FORMATS = ("xlsx", "xls", "trf", "pgn", "tunx", "turx", "tumx", "sp", "html")
_OTHER_TYPES = (
    (b"%PDF", gettext_noop("this is a PDF document, not a result file")),
    (b"\x89PNG", gettext_noop("this is a PNG image, not a result file")),
    (b"\xff\xd8\xff", gettext_noop("this is a JPEG image, not a result file")),
    (b"GIF8", gettext_noop("this is a GIF image, not a result file")),
    (b"Rar!", gettext_noop("this is a RAR archive, not a result file")),
    (b"\x1f\x8b", gettext_noop("this is a gzip archive, not a result file")),
    (b"7z\xbc\xaf", gettext_noop("this is a 7-Zip archive, not a result file")),
)


def sniff(data: bytes) -> str | None:
    """The format from the first bytes: xlsx (a zip), xls (an OLE2 compound file), PGN or TRF text."""
    if data.startswith(b"PK\x03\x04"):
        return "sp" if swissperfect_native.is_native_zip(data) else "xlsx"
    if data.startswith(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"):
        return "xls"
    if swissmanager.looks_like_swissmanager(data):
        return "swissmanager"
    if html.looks_like_html(data):
        return "html"  # chess-results' "Excel" downloads are HTML inside, whatever their name
    text = trf.decode(data[:65536])
    if pgn.looks_like_pgn(text):
        return "pgn"
    if swissperfect.looks_like_export(text):
        return "sp"
    if trf.looks_like_trf(text):
        return "trf"
    return None


def describe_unknown(data: bytes) -> str:
    """The msgid that says what the file is instead."""
    for magic, msgid in _OTHER_TYPES:
        if data.startswith(magic):
            return msgid
    # Web pages (HTML), whatever their name, are read: sniff finds them before this is asked.
    if swissperfect_native.table_kind(data):
        return gettext_noop(
            "this is one table of Swiss Perfect (the players' .trn or the games' .sco) alone; choose the .trn, "
            ".sco and .ini files of the tournament together, or upload them zipped"
        )
    return gettext_noop(
        "the content is not a result file this site reads (Swiss-Manager, chess-results or Vega as Excel or "
        "HTML, Swiss Perfect, FIDE TRF or Krause, PGN)"
    )


def read_result_file(file_name: str, data: bytes, progress=None) -> ParsedFile:
    """`progress(games=, line=, lines=)`, if given, is told how far a long PGN is read every few hundred games."""
    # The file name is shown and stored too ("results\u202exslx.trf" would read "results.xlsx").
    file_name, removed_from_name = strip_invisible(file_name)
    if not data:
        raise refusal(gettext_noop("the file is empty"), Place(file_name), "empty")
    kind = sniff(data)
    if kind is None:
        raise refusal(describe_unknown(data), Place(file_name), "unknown_type")
    if kind == "xlsx":
        parsed = chessresults.parse(spreadsheets.read_xlsx(data, file_name), file_name, "xlsx")
    elif kind == "xls":
        parsed = chessresults.parse(spreadsheets.read_xls(data, file_name), file_name, "xls")
    elif kind == "swissmanager":
        parsed = swissmanager.parse(data, file_name)
    elif kind == "html":
        parsed = html.read_html(data, file_name)
    elif kind == "pgn":
        parsed = pgn.parse(data, file_name, progress=progress)
    elif kind == "sp":
        parsed = (swissperfect_native if data.startswith(b"PK") else swissperfect).parse(data, file_name)
    else:
        parsed = trf.parse(data, file_name)
    # Whatever an importer let through, no invisible or direction-changing character reaches the database.
    clean_parsed(parsed)
    for char in removed_from_name:
        parsed.warn(REMOVED, Place(file_name), "invisible_character", character=character_name(char), field=FILE_NAME)
    return parsed


__all__ = ["FORMATS", "ParsedFile", "ResultFileError", "read_result_file", "sniff"]
