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
