"""Names written without a comma, split the way the file's program writes them.

Pairing programs (chess-results, Swiss-Manager, TRF writers, Vega) write the family name first.
'Carlsen, Magnus' and 'Van Foreest  Jorden' (two spaces) say where the family name ends; 'Guijarro
Galan Jose Luis' does not, and a split at the first space may be wrong. Such names are split family
first and the preview says so, with examples, so the arbiter checks them before confirming.
"""

from __future__ import annotations

from django.utils.translation import gettext_noop

from players.names import split_full_name
from tournaments.importers.base import ParsedFile, Place

EXAMPLES = 5


def split_name(full: str, guessed: list[str]) -> tuple[str, str]:
    """(family, given); a name split at its first space only is added to `guessed`."""
    text = full.replace("\u00a0", " ").strip()
    family, given = split_full_name(text)
    if given and "," not in text and "  " not in text:
        guessed.append(f"{family} / {given}")
    return family, given


def warn_guessed(parsed: ParsedFile, guessed: list[str]) -> None:
    if not guessed:
        return
    parsed.warn(
        gettext_noop(
            "%(count)s names have no comma: each is split at its first space, family name first as pairing "
            "programs write it (for example %(examples)s); check the names with two family names"
        ),
        Place(parsed.file_name),
        "names_split",
        count=len(guessed),
        examples="; ".join(guessed[:EXAMPLES]),
    )
