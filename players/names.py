"""Player names in either script: one comparable key for Cyrillic and Latin spellings.

Arbiters type "Иванов Пётр", FIDE lists "Ivanov, Petr", a parent writes "Ivanov Pyotr".
All must find the same player. The key transliterates Cyrillic to Latin with a
simple scheme, strips accents, folds the usual alternative spellings of the
same sounds (ya/ia, yu/iu, kh/h, y/i, ...) and lower-cases. It is deliberately
coarse: it is used to *propose* matches and to search, never to merge silently.
Pure Python, no Django.
"""

from __future__ import annotations

import re
import unicodedata

_CYRILLIC_TO_LATIN = {
    "а": "a", "б": "b", "в": "v", "г": "g", "д": "d", "е": "e", "ё": "e", "ж": "zh",
    "з": "z", "и": "i", "й": "i", "к": "k", "л": "l", "м": "m", "н": "n", "о": "o",
    "п": "p", "р": "r", "с": "s", "т": "t", "у": "u", "ф": "f", "х": "kh", "ц": "ts",
    "ч": "ch", "ш": "sh", "щ": "shch", "ъ": "", "ы": "y", "ь": "", "э": "e", "ю": "yu",
    "я": "ya",
    # Ukrainian and Belarusian letters that appear in the same tournaments.
    "і": "i", "ї": "i", "є": "e", "ґ": "g", "ў": "u",
}  # fmt: skip

# Applied in order to both scripts after transliteration: several Latin spellings
# of one Russian sound become one. Longest patterns first.
_FOLDS = (
    ("shch", "sch"), ("sch", "sh"), ("iy", "i"), ("yy", "i"), ("ij", "i"),
    ("kh", "h"), ("ks", "x"), ("ya", "ia"), ("yu", "iu"), ("ye", "e"), ("yo", "e"),
    ("ja", "ia"), ("ju", "iu"), ("jo", "e"), ("je", "e"), ("ts", "c"), ("tz", "c"),
    ("zh", "j"), ("y", "i"), ("w", "v"), ("ph", "f"), ("ii", "i"),
)  # fmt: skip
_NON_LETTERS = re.compile(r"[^a-z0-9 ]+")
_SPACES = re.compile(r"\s+")


def transliterate(text: str) -> str:
    """Cyrillic letters to Latin (readable, keeps case of the first letter of each word)."""
    out = []
    for char in text:
        lower = char.lower()
        latin = _CYRILLIC_TO_LATIN.get(lower)
        if latin is None:
            out.append(char)
        elif char != lower and latin:
            out.append(latin[0].upper() + latin[1:])
        else:
            out.append(latin)
    return "".join(out)


def strip_accents(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def name_key(*parts: str) -> str:
    """The comparable key of a name given in any script: 'Пётр Иванов' == 'Petr Ivanov'."""
    text = " ".join(p for p in parts if p)
    # Transliterate before stripping accents, because NFKD would split й into и + breve.
    text = strip_accents(transliterate(text)).lower()
    text = _NON_LETTERS.sub(" ", text)
    # Until nothing changes: a fold can make a pattern an earlier one folds ('yj' -> 'ij' -> 'i'),
    # and a key must be its own key. Every fold shortens the text or removes a y, j or w, so
    # this ends after a few passes.
    previous = None
    while previous != text:
        previous = text
        for old, new in _FOLDS:
            text = text.replace(old, new)
    return _SPACES.sub(" ", text).strip()


# A query of more words than this is searched as typed only (each order is one more index lookup).
SEARCH_ORDERS_MAX_WORDS = 4


def search_keys(text: str) -> list[str]:
    """The keys a name search looks for: the query's key as typed and, for a name typed given name
    first ('Иван Орлов', 'Ivan Orlov', 'Jorden van Foreest'), each order that brings a trailing
    run of its words to the front, where a stored key has the family name ('orlov ivan'). Empty
    for a query with no letters."""
    words = name_key(text).split()
    if len(words) > SEARCH_ORDERS_MAX_WORDS:
        return [" ".join(words)]
    orders = [" ".join(words[cut:] + words[:cut]) for cut in range(len(words))]
    return list(dict.fromkeys(orders))


def split_full_name(full: str) -> tuple[str, str]:
    """'Carlsen, Magnus', 'Van Foreest  Jorden ' (pairing programs put two spaces
    between family and given names), or 'Carlsen Magnus' into (family, given)."""
    full = full.replace("\u00a0", " ").strip()
    if "," in full:
        family, _, given = full.partition(",")
    elif "  " in full:
        family, _, given = full.partition("  ")
    else:
        family, _, given = full.partition(" ")
    return _SPACES.sub(" ", family).strip(), _SPACES.sub(" ", given).strip()


# Default_Ignorable_Code_Point (Unicode's DerivedCoreProperties) outside the format category:
# characters every renderer shows as nothing. The format (Cf) characters, among them the bidi
# controls U+202A–U+202E and U+2066–U+2069, the marks U+200B–U+200F, U+FEFF, U+00AD and the tag
# characters, are found by their category.
_IGNORABLE_RANGES = (
    (0x034F, 0x034F),  # combining grapheme joiner
    (0x115F, 0x1160),  # Hangul choseong and jungseong fillers
    (0x17B4, 0x17B5),  # Khmer inherent vowels
    (0x180B, 0x180F),  # Mongolian variation selectors and vowel separator
    (0x3164, 0x3164),  # Hangul filler
    (0xFE00, 0xFE0F),  # variation selectors
    (0xFFA0, 0xFFA0),  # halfwidth Hangul filler
    (0x1BCA0, 0x1BCA3),  # shorthand format controls
    (0x1D173, 0x1D17A),  # musical symbol format controls
    (0xE0000, 0xE0FFF),  # tags and variation selectors supplement
)
# Line breaks and tabs are left to the callers, which turn whitespace into single spaces.
_KEPT_CONTROLS = frozenset("\t\n\r")
_IGNORABLE = re.compile("[" + "".join(f"\\U{first:08x}-\\U{last:08x}" for first, last in _IGNORABLE_RANGES) + "]")


def is_invisible(char: str) -> bool:
    """An invisible, direction-changing or control character: never part of a name.

    Format characters (Cf) include ZERO WIDTH JOINER and NON-JOINER. They are removed too: in
    Persian and Indic spellings they shape the letters around them, but names here are written
    in Cyrillic and Latin, where they show nothing and only make two names that look alike
    compare different (and the FIDE spelling of any name is Latin).
    """
    if char in _KEPT_CONTROLS:
        return False
    category = unicodedata.category(char)
    if category in ("Cf", "Cc", "Cs", "Zl", "Zp"):
        return True
    code = ord(char)
    return any(first <= code <= last for first, last in _IGNORABLE_RANGES)


def character_name(char: str) -> str:
    """'RIGHT-TO-LEFT OVERRIDE (U+202E)': the Unicode name and the code point."""
    name = unicodedata.name(char, "")
    if not name:
        name = "CONTROL CHARACTER" if unicodedata.category(char) == "Cc" else "UNNAMED CHARACTER"
    return f"{name} (U+{ord(char):04X})"


def strip_invisible(text: str) -> tuple[str, list[str]]:
    """The text without invisible and direction-changing characters, and the characters removed
    (each once, in the order met). Letters of every script, accents and spaces stay."""
    # Most names: every character printable (no Cc, Cf, Cs, Zl, Zp) and none of the other ignorables.
    if text.isprintable() and not _IGNORABLE.search(text):
        return text, []
    removed: list[str] = []
    kept = []
    for char in text:
        if is_invisible(char):
            if char not in removed:
                removed.append(char)
        else:
            kept.append(char)
    return ("".join(kept) if removed else text), removed
