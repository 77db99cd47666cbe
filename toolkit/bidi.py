"""Keeping user-supplied text from turning the page around.

In HTML, names and places go inside <bdi> (and blocks of user text get dir="auto"). Where markup
is impossible (a <select>'s options), the text itself is wrapped in FIRST STRONG ISOLATE … POP
DIRECTIONAL ISOLATE, but only when it holds right-to-left letters or direction controls: plain
names stay exactly as written.
"""

import unicodedata

FSI, PDI = "\u2068", "\u2069"
_TURNING = {"R", "AL", "RLE", "LRE", "RLO", "LRO", "PDF", "RLI", "LRI", "FSI", "PDI"}


def needs_isolation(text: str) -> bool:
    return any(unicodedata.bidirectional(char) in _TURNING for char in text)


def isolate(text: str) -> str:
    return f"{FSI}{text}{PDI}" if text and needs_isolation(text) else text
