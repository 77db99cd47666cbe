"""No invisible or direction-changing character from a file reaches the database.

A RIGHT-TO-LEFT OVERRIDE in a name turns the rest of a line around wherever the name is shown,
a ZERO WIDTH SPACE makes two equal names differ: every text field a file gives (names, clubs,
the tournament's name, city, arbiters) is cleaned by `players.names.strip_invisible`, and the
preview says what was removed, where, and from which field.
"""

from __future__ import annotations

from dataclasses import replace

from django.utils.translation import gettext_noop

from players.names import character_name, strip_invisible
from tournaments.importers.base import ParsedFile, Place, Text

REMOVED = gettext_noop("%(character)s removed from %(field)s")
FILE_NAME = Text(gettext_noop("the file name"))
HEADER_FIELDS = (
    ("name", gettext_noop("the tournament's name")),
    ("city", gettext_noop("the city")),
    ("federation", gettext_noop("the federation")),
    ("chief_arbiter", gettext_noop("the chief arbiter")),
    ("time_control", gettext_noop("the time control")),
)
PLAYER_FIELDS = (
    ("family_name", gettext_noop("the player's name")),
    ("given_names", gettext_noop("the player's name")),
    ("club", gettext_noop("the club")),
    ("country", gettext_noop("the federation")),
    ("title", gettext_noop("the title")),
    ("national_id", gettext_noop("the federation id")),
    ("local_id", gettext_noop("the federation id")),
)


def clean_text(parsed: ParsedFile, value: str | None, place: Place, field: str) -> str | None:
    """The value without invisible characters; a warning for each kind removed."""
    if not value:
        return value
    cleaned, removed = strip_invisible(value)
    for char in removed:
        parsed.warn(REMOVED, place, "invisible_character", character=character_name(char), field=Text(field))
    return cleaned


def clean_parsed(parsed: ParsedFile) -> None:
    file_place = Place(parsed.file_name)
    for attribute, field in HEADER_FIELDS:
        place = parsed.places.get(attribute, file_place)
        setattr(parsed, attribute, clean_text(parsed, getattr(parsed, attribute), place, field).strip())
    deputy_place = parsed.places.get("deputy_arbiters", file_place)
    parsed.deputy_arbiters = [
        clean_text(parsed, deputy, deputy_place, gettext_noop("a deputy arbiter")).strip()
        for deputy in parsed.deputy_arbiters
    ]
    # The other header lines are kept in the stored preview only: cleaned without a word.
    parsed.details = {strip_invisible(k)[0]: strip_invisible(v)[0] for k, v in parsed.details.items()}
    for player in parsed.players:
        for attribute, field in PLAYER_FIELDS:
            value = getattr(player, attribute)
            if not value:
                continue
            place = player.place or file_place
            column = parsed.columns.get(attribute)
            if column is not None:
                place = replace(place, column=column)
            cleaned = clean_text(parsed, value, place, field).strip()
            if attribute == "family_name" and not cleaned:
                parsed.error(gettext_noop("the name has nothing but invisible characters"), place, "no_name")
            setattr(player, attribute, cleaned or None if attribute == "national_id" else cleaned)
