"""How many SMS a text costs, and a long text cut into numbered parts of one SMS each (no Django).

GSM 03.38: a text written only in the 7-bit default alphabet travels as GSM-7, 160 septets in a
single message; a character of the extension table (`€`, `[`, `{`, `|`, `^`, `~`, ...) is an
escape plus its code, so it costs 2 septets. Any other character (Cyrillic, an em dash, an
emoji) forces the whole message into UCS-2: 70 UTF-16 code units, an emoji outside the BMP being
2 of them. A longer text is sent concatenated: each part loses room to the user data header,
153 septets or 67 code units, and a part never ends between an escape and its character, or
between the two halves of a surrogate pair (phones reject such parts), which is why parts are
packed here rather than counted with a division.
"""

from __future__ import annotations

import re

GSM7 = "GSM-7"
UCS2 = "UCS-2"

# The default alphabet in code order (0x00-0x7F); 0x1B is the escape to the extension table and
# is not a character a text may carry.
BASIC = (
    "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞ\x1bÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?"
    "¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà"
)
_BASIC = frozenset(BASIC) - {"\x1b"}
# The extension table's characters a phone sends (form feed, ^ { } \ [ ~ ] | €): 2 septets each.
EXTENSION = frozenset("\f^{}\\[~]|€")

SINGLE = {GSM7: 160, UCS2: 70}
CONCATENATED = {GSM7: 153, UCS2: 67}
# The Bot API refuses a message longer than this (sendMessage's `text`, counted in UTF-16 code
# units as Telegram counts its entities): a longer text goes as numbered messages.
TELEGRAM_LIMIT = 4096


def septets(char: str) -> int | None:
    """The septets one character costs in GSM-7, or None when GSM-7 cannot carry it."""
    if char in _BASIC:
        return 1
    if char in EXTENSION:
        return 2
    return None


def units(char: str) -> int:
    """UTF-16 code units of one character: 2 outside the Basic Multilingual Plane."""
    return 2 if ord(char) > 0xFFFF else 1


def encoding(text: str) -> str:
    """ "GSM-7" when every character is in the default alphabet or its extension, else "UCS-2"."""
    return GSM7 if all(septets(c) is not None for c in text) else UCS2


def _costs(text: str) -> list[int]:
    cost = septets if encoding(text) == GSM7 else units
    return [cost(c) for c in text]


def length(text: str) -> int:
    """The text's size in its own encoding: septets for GSM-7, UTF-16 code units for UCS-2."""
    return sum(_costs(text))


def fits_one(text: str) -> bool:
    """True when the text goes as a single SMS."""
    return length(text) <= SINGLE[encoding(text)]


def segment_count(text: str) -> int:
    """How many SMS the text is sent as (an empty text is still one message)."""
    costs = _costs(text)
    if sum(costs) <= SINGLE[encoding(text)]:
        return 1
    room, count, used = CONCATENATED[encoding(text)], 1, 0
    for cost in costs:
        # A character is never cut: the part ends before it when it does not fit whole.
        if used + cost > room:
            count, used = count + 1, 0
        used += cost
    return count


def _label(index: int, total: int) -> str:
    return f"({index}/{total}) "


def fits_units(limit: int):
    """A test of whether a text is at most `limit` UTF-16 code units (a message's own limit)."""
    # Encoded in C: the packing measures the growing part once a word.
    return lambda text: len(text.encode("utf-16-le")) // 2 <= limit


def split_telegram(text: str, *, prefix: str = "") -> list[str]:
    """`prefix + text` as Telegram messages of at most TELEGRAM_LIMIT code units each: one when it
    fits, else numbered parts cut at word boundaries exactly as split_numbered cuts an SMS."""
    return split_numbered(text, prefix=prefix, fits=fits_units(TELEGRAM_LIMIT))


def split_numbered(text: str, *, prefix: str = "", fits=fits_one) -> list[str]:
    """`prefix + text` when that is one SMS; else the text cut at word boundaries into parts
    `prefix + "(i/n) " + words`, each part one SMS in its own encoding (a part with a Cyrillic
    word is UCS-2 and holds 70, its neighbours in Latin stay GSM-7 and hold 160). Whitespace
    between words of one part is kept; the whitespace where the text is cut is dropped. A word too
    long for a part on its own is cut between characters. `fits` says what one part may hold
    (one SMS by default).
    """
    if fits(prefix + text):
        return [prefix + text]
    text = text.strip()
    if fits(prefix + text):  # only blanks made it long: what is left is one SMS, never none
        return [prefix + text]
    # The label's width depends on the total: pack assuming `digits` digits for it, and again
    # with more when the parts turn out to be more (more digits only shrink the room, so the
    # count never falls back and this ends).
    digits = 1
    while True:
        chunks = _pack(text, prefix, digits, fits)
        if len(str(len(chunks))) <= digits:
            total = len(chunks)
            return [prefix + _label(i, total) + chunk for i, chunk in enumerate(chunks, 1)]
        digits = len(str(len(chunks)))


def _pack(text: str, prefix: str, digits: int, fits) -> list[str]:
    tokens = [t for t in re.split(r"(\s+)", text) if t]
    chunks: list[str] = []
    current = ""
    for token in tokens:
        head = prefix + _label(len(chunks) + 1, 10**digits - 1)
        if token.isspace():
            current += token if current else ""
            continue
        if fits(head + current + token):
            current += token
            continue
        if current:
            chunks.append(current.rstrip())
            current = ""
            head = prefix + _label(len(chunks) + 1, 10**digits - 1)
        while not fits(head + token):
            # One word longer than a whole part: as much of it as fits, the rest in the next part.
            cut = _longest_fitting(head, token, fits)
            chunks.append(token[:cut])
            token = token[cut:]
            head = prefix + _label(len(chunks) + 1, 10**digits - 1)
        current = token
    if current.strip():
        chunks.append(current.rstrip())
    return chunks


def _longest_fitting(head: str, word: str, fits) -> int:
    # Bisection: a word may be thousands of characters long, and each test measures the whole part.
    low, high = 1, len(word)
    while low < high:
        middle = (low + high + 1) // 2
        low, high = (middle, high) if fits(head + word[:middle]) else (low, middle - 1)
    if not fits(head + word[:low]):
        raise ValueError(f"the prefix {head!r} leaves no room in one part")
    return low
