"""The opening list's columns: canonical names, the headings they are known by (English and
Russian), and the compact form of stored games. Pure: no Django."""

from __future__ import annotations

import re

SYSTEMS = ("orr", "mchess", "playchess")  # GCR is computed from games only: it has no column
PLAYER_FIELDS = (
    "federation_id",
    "family_name",
    "given_names",
    "birth",
    "sex",
    "club",
    "region",
    "fide_id",
    "fide_rating",
)
STATE_FIELDS = ("rating", "provisional", "games", "tournaments", "last_played", "stored")
FIELDS = PLAYER_FIELDS + tuple(f"{system}_{name}" for system in SYSTEMS for name in STATE_FIELDS)

_PLAYER_ALIASES = {
    "federation_id": ("federation id", "id", "fed id", "id федерации", "федеральный id", "номер федерации"),
    "family_name": ("family name", "surname", "last name", "фамилия"),
    "given_names": ("given names", "first name", "имя", "имя отчество"),
    "birth": ("birth", "birth date", "birth year", "born", "дата рождения", "год рождения", "рождение"),
    "sex": ("sex", "gender", "пол"),
    "club": ("club", "клуб"),
    "region": ("region", "регион", "область"),
    "fide_id": ("fide id", "fide", "id fide", "фиде id", "id фиде"),
    "fide_rating": ("fide rating", "рейтинг fide", "рейтинг фиде"),
}
_STATE_ALIASES = {
    "rating": ("rating", "рейтинг"),
    "provisional": ("provisional", "предварительный"),
    "games": ("games", "партии", "партий"),
    "tournaments": ("tournaments", "турниры", "турниров"),
    "last_played": ("last played", "последняя партия"),
    "stored": ("stored", "stored games", "сохранённые партии", "сохраненные партии"),
}
_SYSTEM_NAMES = {"orr": ("orr", "орр"), "mchess": ("mchess", "мчесс"), "playchess": ("playchess", "плейчесс")}


def normal(heading: str) -> str:
    """A heading as compared: lower case, runs of spaces, underscores and hyphens as one space."""
    return re.sub(r"[\s_\-:]+", " ", str(heading or "")).strip().lower().replace("ё", "е")


def _known() -> dict[str, str]:
    known = {}
    for field, aliases in _PLAYER_ALIASES.items():
        for alias in (field, *aliases):
            known[normal(alias)] = field
    for system, names in _SYSTEM_NAMES.items():
        for name, aliases in _STATE_ALIASES.items():
            for system_name in names:
                for alias in (name, *aliases):
                    known[normal(f"{system_name} {alias}")] = f"{system}_{name}"
                    known[normal(f"{alias} {system_name}")] = f"{system}_{name}"
    return known


KNOWN = _known()


def field_of(heading: str) -> str | None:
    return KNOWN.get(normal(heading))


def stored_text(stored) -> str:
    """Stored games as "opponent rating:half points" joined by ";" (tournament and opponent are
    the old site's and are not carried)."""
    return ";".join(f"{game[0]}:{game[1]}" for game in stored)


def stored_parse(text: str) -> tuple:
    """The compact column back to the engines' stored games: (rating, half points, None, 0, None)."""
    games = []
    for part in text.split(";"):
        part = part.strip()
        if not part:
            continue
        rating, sep, half = part.partition(":")
        if not sep or not rating.strip().isdigit() or half.strip() not in ("0", "1", "2"):
            raise ValueError(part)
        games.append((int(rating), int(half), None, 0, None))
    return tuple(games)
