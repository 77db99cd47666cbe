"""FIDE's downloadable rating lists, read as a stream (no Django here).

The formats, as FIDE publishes them at ratings.fide.com/download_lists.phtml (followed: the
layout notes and test headers "copied from the real July 2026 file" in
jackstenglein/chess-dojo-scheduler, backend/api ratings tests, and the Perl FIDE header tests
that keep the pre-FOA header; checked against the column table of the current files):

TXT, fixed width, one header line whose words start their columns:
- combined with FOA titles, players_list_foa.txt (162-character lines)::

    ID Number      Name                                                         Fed Sex Tit  WTit OTit  (continued)
               FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag

- combined before the FOA column, players_list.txt (158 characters): the same without "FOA ";
- one kind, standard_rating_list.txt / rapid_... / blitz_... (inside the zip: standard_oct26frl.txt),
  136 characters, the rating column headed by the list's month::

    ID Number      Name                                                         Fed Sex Tit  WTit OTit  (continued)
               FOA OCT26 Gms K  B-day Flag

  Columns are taken from the header, so a year whose widths differ still parses. A few lines of
  the real combined list are one character longer (an other-titles text such as
  "SI,FI,LSI,SLI,NAAFM" overflows into FOA): the columns after OTit then move by the excess.
  Unrated is 0; B-day is the birth year (0 when unknown); Flag is i (inactive), w (woman), wi.

XML, <playerslist> without an XML declaration, one <player> per player, children in this order:
fideid, name, country, sex, title, w_title, o_title, foa_title, rating, games, k, rapid_rating,
rapid_games, rapid_k, blitz_rating, blitz_games, blitz_k, birthday, flag (players_list_xml_foa.xml);
the one-kind files (standard_rating_list_xml ...) have rating, games, k only. Empty elements are
written <title></title>. Read in chunks: expat checks well-formedness, one regular expression per
file layout reads the players (lxml those of a chunk that strays from the layout).
"""

from __future__ import annotations

import codecs
import datetime
import html
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO
from xml.parsers import expat

KINDS = ("standard", "rapid", "blitz")
MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTH_TOKEN = re.compile(r"^(" + "|".join(MONTHS) + r")(\d{2})$", re.IGNORECASE)
_MONTH_IN_NAME = re.compile(r"(" + "|".join(MONTHS) + r")(\d{2})frl", re.IGNORECASE)

# Header words of the combined TXT lists: (rating, games, K) per kind.
_COMBINED = {"standard": ("SRtng", "SGm", "SK"), "rapid": ("RRtng", "RGm", "Rk"), "blitz": ("BRtng", "BGm", "BK")}
_XML_KIND = {"standard": ("rating", "games", "k"), "rapid": ("rapid_rating", "rapid_games", "rapid_k"),
             "blitz": ("blitz_rating", "blitz_games", "blitz_k")}  # fmt: skip


class ListError(ValueError):
    """A file that is not a FIDE list, or a line of one that cannot be read: says where."""


@dataclass(frozen=True, slots=True)
class Entry:
    fide_id: int
    kind: str
    name: str
    federation: str
    sex: str
    title: str
    women_title: str
    other_titles: str
    foa_title: str
    rating: int | None  # None: not rated in this kind (FIDE writes 0)
    games: int
    k: int | None
    birth_year: int | None  # None: FIDE writes 0
    flag: str


@dataclass(frozen=True)
class ListInfo:
    fmt: str  # "txt" or "xml"
    kinds: tuple[str, ...]  # the kinds the file holds
    month: datetime.date | None  # from the header (one-kind TXT) or the file name


def month_from_token(token: str) -> datetime.date | None:
    match = _MONTH_TOKEN.match(token.strip())
    if not match:
        return None
    return datetime.date(2000 + int(match.group(2)), MONTHS.index(match.group(1).lower()) + 1, 1)


def month_from_name(path: str | Path) -> datetime.date | None:
    """standard_oct26frl.txt, blitz_jan24frl_xml.xml -> the first of that month."""
    match = _MONTH_IN_NAME.search(Path(path).name)
    return month_from_token(match.group(1) + match.group(2)) if match else None


def kind_from_name(path: str | Path) -> str | None:
    name = Path(path).name.lower()
    return next((kind for kind in KINDS if name.startswith(kind)), None)


def _decode(raw: bytes) -> str:
    # The lists are UTF-8 now; older ones were Latin-1: a line that is not UTF-8 is read as cp1252.
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("cp1252", errors="replace")


def _int(text: str, *, line: int, column: int, what: str) -> int:
    text = text.strip()
    if not text:
        return 0
    try:
        return int(text)
    except ValueError:
        raise ListError(f"line {line}, column {column}: {what} {text!r} is not a number") from None


class _TxtLayout:
    """Column positions from the header line: each word starts its column, which ends where the
    next word starts (the last runs to the end of the line)."""

    def __init__(self, header: str, kind: str | None):
        words = [(m.group(), m.start()) for m in re.finditer(r"\S+", header)]
        # "ID Number" is two words and one column.
        if len(words) < 2 or words[0][0].lower() != "id" or words[1][0].lower() != "number":
            raise ListError(f"line 1: not a FIDE rating list header (it starts {header[:30]!r})")
        words = [("ID", 0), *words[2:]]
        self.width = len(header.rstrip())
        self.columns: dict[str, tuple[int, int]] = {}
        for index, (word, start) in enumerate(words):
            end = words[index + 1][1] if index + 1 < len(words) else None
            self.columns[word.lower()] = (start, end or 10_000)
        missing = [w for w in ("id", "name", "fed", "sex", "tit", "b-day") if w not in self.columns]
        if missing:
            raise ListError(f"line 1: the header has no {missing[0]!r} column: {header.strip()!r}")
        self.month = None
        if "srtng" in self.columns:
            self.kinds = (kind,) if kind else KINDS
            self.kind_columns = {k: tuple(w.lower() for w in _COMBINED[k]) for k in self.kinds}
        else:
            # One kind: the rating column is headed by the month (OCT26), then Gms and K.
            rating_word = next((w for w, _ in words if month_from_token(w)), None)
            if rating_word is None or "gms" not in self.columns:
                raise ListError(f"line 1: no rating columns in the header: {header.strip()!r}")
            self.month = month_from_token(rating_word)
            self.kinds = (kind or "standard",)
            self.kind_columns = {self.kinds[0]: (rating_word.lower(), "gms", "k")}
        # Where an overflowing other-titles text pushes the rest of the line.
        self.shift_from = self.columns["otit"][1] if "otit" in self.columns else 10_000


def read_txt(stream: BinaryIO, *, kind: str | None = None) -> tuple[ListInfo, Iterator[Entry]]:
    header_raw = stream.readline()
    layout = _TxtLayout(_decode(header_raw).lstrip("\ufeff").rstrip("\r\n"), kind)
    info = ListInfo("txt", layout.kinds, layout.month)
    return info, _txt_entries(stream, layout)


def _txt_entries(stream: BinaryIO, layout: _TxtLayout) -> Iterator[Entry]:
    cols = layout.columns
    shift_from, width = layout.shift_from, layout.width
    has_otit = "otit" in cols
    names = ["name", "fed", "sex", "tit", "wtit", "otit", "foa", "b-day", "flag"]
    kinds = list(layout.kind_columns.items())
    whats = ("the rating", "the games", "K")
    numbers = [("b-day", "the birth year")] + [
        (column, what) for _kind, columns in kinds for column, what in zip(columns, whats, strict=True)
    ]
    cache: dict[int, tuple] = {}

    def slices(shift: int) -> tuple:
        # Where each column is on a line `shift` characters longer than the header (cached).
        if shift not in cache:
            cut = []
            for name in names:
                if name not in cols:
                    cut.append(slice(0, 0))
                    continue
                start, end = cols[name]
                if name == "otit":
                    end += shift
                elif start >= shift_from:
                    start, end = start + shift, end + shift
                cut.append(slice(start, end))
            number_cuts = []
            for name, what in numbers:
                start, end = cols[name]
                if start >= shift_from:
                    start, end = start + shift, end + shift
                number_cuts.append((slice(start, end), start + 1, what))
            cache[shift] = (tuple(cut), tuple(number_cuts))
        return cache[shift]

    id_end = cols["name"][0]
    for number, raw in enumerate(stream, start=2):
        line = _decode(raw).rstrip("\r\n")
        if not line.strip():
            continue
        shift = len(line) - width if has_otit and len(line) > width else 0  # lines are padded to full width
        cut, number_cuts = slices(shift)
        try:
            fide_id = int(line[:id_end])
        except ValueError:
            fide_id = _int(line[:id_end], line=number, column=1, what="the FIDE id")
        if fide_id <= 0:
            raise ListError(f"line {number}, column 1: no FIDE id")
        name, fed, sex, tit, wtit, otit, foa, _birth, flag = (line[c].strip() for c in cut)
        values = []
        for part, column, what in number_cuts:
            text = line[part]
            try:
                values.append(int(text) if text.strip() else 0)
            except ValueError:
                values.append(_int(text, line=number, column=column, what=what))
        birth = values[0] or None
        for index, (kind, _columns) in enumerate(kinds):
            rating, games, k_factor = values[1 + 3 * index : 4 + 3 * index]
            yield Entry(fide_id, kind, name, fed, sex, tit, wtit, otit, foa, rating or None, games, k_factor or None,
                        birth, flag)  # fmt: skip


def read_xml(stream: BinaryIO, *, kind: str | None = None) -> tuple[ListInfo, Iterator[Entry]]:
    kinds = (kind,) if kind else None
    info = ListInfo("xml", kinds or KINDS, None)
    return info, _xml_entries(stream, kinds)


# The XML is read in chunks of this many bytes: expat checks each chunk's well-formedness in C, and
# the players of the chunk are read by one regular expression built for the file's own layout (the
# children of its first <player>, in their order). Reading a player element by element through lxml
# cost 12 s per 100,000 players, four times the TXT list; this costs about as much as the TXT.
_XML_CHUNK = 1 << 20
_XML_PLAYER = re.compile(r"<player[\s/>]")
_XML_FIRST = re.compile(r"<player>(.*?)</player>", re.S)
_XML_CHILD = re.compile(r"<([A-Za-z_][\w.-]*)[\s/>]")


def _xml_layout(tags: tuple[str, ...]) -> re.Pattern:
    """One player with exactly these children in this order, each <tag>text</tag> or <tag/>."""
    children = r"\s*".join(rf"(?:<{re.escape(t)}>([^<]*)</{re.escape(t)}>|<{re.escape(t)}\s*/>)" for t in tags)
    return re.compile(rf"<player>\s*{children}\s*</player>")


def _xml_entries(stream: BinaryIO, kinds: tuple[str, ...] | None) -> Iterator[Entry]:
    check = expat.ParserCreate()
    decoder = codecs.getincrementaldecoder("utf-8")()
    layout = None
    tail, line, players = "", 1, 0
    while True:
        chunk = stream.read(_XML_CHUNK)
        try:
            check.Parse(chunk, not chunk)
            text = tail + decoder.decode(chunk, final=not chunk)
        except expat.ExpatError as error:
            where = f"line {error.lineno}, column {error.offset + 1}"
            raise ListError(f"{where}: not well-formed XML: {expat.ErrorString(error.code)}") from None
        end = text.rfind("</player>")
        end = end + len("</player>") if end >= 0 else 0
        if end:
            if layout is None:
                first = _XML_FIRST.search(text, 0, end)
                tags = tuple(_XML_CHILD.findall(first.group(1))) if first else ()
                layout = (tags, _xml_layout(tags))
            for index, (fields, at) in enumerate(_xml_chunk(text, end, layout, line)):
                players += 1
                if at is None:
                    try:
                        yield from _xml_player(fields, kinds, 0)
                        continue
                    except ListError:
                        # The fast path keeps no player's line: find this one's, then say it.
                        at = line + text.count("\n", 0, _nth(_XML_PLAYER, text, index))
                yield from _xml_player(fields, kinds, at)
            line += text.count("\n", 0, end)
        tail = text[end:]
        if not chunk:
            break
    if not players:
        raise ListError("no <player> element: not a FIDE XML rating list")


def _unescaped(value: str) -> str:
    return html.unescape(value).strip()


def _nth(pattern: re.Pattern, text: str, index: int) -> int:
    """Where the index-th (from 0) match of `pattern` in `text` starts."""
    for number, match in enumerate(pattern.finditer(text)):
        if number == index:
            return match.start()
    return 0


def _xml_chunk(text: str, end: int, layout, line: int) -> Iterator[tuple[dict[str, str], int | None]]:
    """The players in text[:end] as ({child: text}, line): line None on the fast path, where every
    player has the file's layout; otherwise lxml reads them one by one, with their lines."""
    tags, pattern = layout
    rows = pattern.findall(text, 0, end)
    if len(rows) == len(_XML_PLAYER.findall(text, 0, end)):
        if len(tags) < 2:  # findall gives a string, not a tuple, for one group or none
            rows = [(values,) if tags else () for values in rows]
        strip = str.strip if text.find("&", 0, end) < 0 else _unescaped
        for values in rows:
            yield dict(zip(tags, map(strip, values), strict=True)), None
        return
    from lxml import etree

    start = _XML_PLAYER.search(text, 0, end).start()
    try:
        players = etree.fromstring(f"<chunk>{text[start:end]}</chunk>")
    except etree.XMLSyntaxError:
        raise ListError(f"line {line + text.count(chr(10), 0, start)}: a <player> inside another element: "
                        "not a FIDE XML rating list") from None  # fmt: skip
    offset = line + text.count("\n", 0, start) - 1
    for element in players.iterchildren("player"):
        yield {child.tag: (child.text or "").strip() for child in element}, offset + element.sourceline


def _xml_player(fields: dict[str, str], kinds: tuple[str, ...] | None, line: int) -> Iterator[Entry]:
    def number(tag: str) -> int:
        text = fields.get(tag, "")
        try:
            return int(text) if text else 0
        except ValueError:
            raise ListError(f"line {line}: <{tag}> {text!r} is not a number") from None

    fide_id = number("fideid")
    if fide_id <= 0:
        raise ListError(f"line {line}: a <player> without a <fideid>")
    if kinds is None:
        # The combined file has rapid_rating ...; a one-kind file only rating: then it is standard
        # unless told (the caller passes the kind from the option or the file name).
        kinds = KINDS if "rapid_rating" in fields or "blitz_rating" in fields else ("standard",)
    common = (
        fields.get("name", ""),
        fields.get("country", ""),
        fields.get("sex", ""),
        fields.get("title", ""),
        fields.get("w_title", ""),
        fields.get("o_title", ""),
        fields.get("foa_title", ""),
    )
    birth, flag = number("birthday"), fields.get("flag", "")
    combined = "rapid_rating" in fields or "blitz_rating" in fields
    for kind in kinds:
        r, g, k = _XML_KIND[kind] if combined else _XML_KIND["standard"]
        rating = number(r)
        yield Entry(fide_id, kind, *common, rating or None, number(g), number(k) or None, birth or None, flag)


def open_list(stream: BinaryIO, *, kind: str | None = None, name: str = "") -> tuple[ListInfo, Iterator[Entry]]:
    """The list's description and its entries, whichever format: XML starts with '<'."""
    kind = kind or kind_from_name(name)
    head = stream.peek(64)[:64] if hasattr(stream, "peek") else b""
    if head.lstrip(b"\xef\xbb\xbf \r\n\t").startswith(b"<"):
        return read_xml(stream, kind=kind)
    return read_txt(stream, kind=kind)
