"""Result file importers: one module per format, one common result (`base.ParsedFile`).

`read_result_file(name, data)` finds the format from the content (never the name),
reads the file and returns a ParsedFile whose `problems` list the warnings and
errors found, or raises ResultFileError when the file cannot be read at all.
"""

from __future__ import annotations

from tournaments.importers import chessresults, pgn, spreadsheets, trf
from tournaments.importers.base import ERROR, ParsedFile, Place, Problem, ResultFileError

FORMATS = ("xlsx", "xls", "trf", "pgn")
_OTHER_TYPES = (
    (b"%PDF", "a PDF document"),
    (b"\x89PNG", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF8", "a GIF image"),
    (b"Rar!", "a RAR archive"),
    (b"\x1f\x8b", "a gzip archive"),
    (b"7z\xbc\xaf", "a 7-Zip archive"),
)


def sniff(data: bytes) -> str | None:
    """The format from the first bytes: xlsx (a zip), xls (an OLE2 compound file), PGN or TRF text."""
    if data.startswith(b"PK\x03\x04"):
        return "xlsx"
    if data.startswith(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"):
        return "xls"
    text = trf.decode(data[:65536])
    if pgn.looks_like_pgn(text):
        return "pgn"
    if trf.looks_like_trf(text):
        return "trf"
    return None


def describe_unknown(data: bytes) -> str:
    for magic, what in _OTHER_TYPES:
        if data.startswith(magic):
            return f"this is {what}, not a result file"
    head = data[:2048].lstrip().lower()
    if head.startswith((b"<!doctype html", b"<html", b"<table")) or b"<html" in head:
        return (
            "this is a web page (HTML) saved with a spreadsheet's name; open it in your spreadsheet program "
            "and save it as .xlsx"
        )
    return "the content is not a result file this site reads (Excel .xlsx/.xls, FIDE TRF or PGN)"


def read_result_file(file_name: str, data: bytes, progress=None) -> ParsedFile:
    """`progress(games=, line=, lines=)`, if given, is told how far a long PGN is read every few hundred games."""
    if not data:
        raise ResultFileError([Problem(ERROR, "the file is empty", Place(file_name), "empty")])
    kind = sniff(data)
    if kind is None:
        raise ResultFileError([Problem(ERROR, describe_unknown(data), Place(file_name), "unknown_type")])
    if kind == "xlsx":
        return chessresults.parse(spreadsheets.read_xlsx(data, file_name), file_name, "xlsx")
    if kind == "xls":
        return chessresults.parse(spreadsheets.read_xls(data, file_name), file_name, "xls")
    if kind == "pgn":
        return pgn.parse(data, file_name, progress=progress)
    return trf.parse(data, file_name)


__all__ = ["FORMATS", "ParsedFile", "ResultFileError", "read_result_file", "sniff"]
