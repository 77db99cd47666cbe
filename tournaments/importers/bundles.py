"""Several files chosen at once in the upload form.

Only Swiss Perfect 98 keeps one tournament in several files (the players' table .trn, the games'
table .sco, the settings .ini); an arbiter who picks the three together gets the same reading as
for the three zipped. Which file is which is told by the content (the tables' fields, the
settings' sections), never by the names. Any other choice of several files is refused: one
upload is one tournament.
"""

from __future__ import annotations

import io
import zipfile

from django.utils.translation import gettext_noop

from tournaments.importers.base import Place, ResultFileError, refusal
from tournaments.importers.swissperfect_native import table_kind

# A fixed time in the zip, so that the same three files always make the same bytes: the site
# refuses a file uploaded twice by its digest.
ZIP_TIME = (1980, 1, 1, 0, 0, 0)
SETTINGS_SECTION = b"[Tournament Info]"


def _role(data: bytes) -> str | None:
    kind = table_kind(data)
    if kind:
        return kind
    return "ini" if SETTINGS_SECTION in data[:65536] else None


def group(files: list[tuple[str, bytes]]) -> list[list[tuple[str, bytes]]]:
    """Files named on a command line, one group a tournament: Swiss Perfect's tables and settings
    (told by their content) grouped by their common name, every other file alone, in order."""
    groups: list[list[tuple[str, bytes]]] = []
    by_stem: dict[str, list[tuple[str, bytes]]] = {}
    for name, data in files:
        if _role(data) is None:
            groups.append([(name, data)])
            continue
        stem = name.rsplit(".", 1)[0].lower()
        if stem not in by_stem:
            by_stem[stem] = []
            groups.append(by_stem[stem])
        by_stem[stem].append((name, data))
    return groups


def combine(files: list[tuple[str, bytes]]) -> tuple[str, bytes]:
    """One (name, data) for the upload: the file itself, or Swiss Perfect's files zipped together."""
    if len(files) == 1:
        return files[0]
    names = ", ".join(name for name, _ in files)
    roles: dict[str, tuple[str, bytes]] = {}
    for name, data in files:
        role = _role(data)
        if role is None or role in roles:
            raise _several(names)
        roles[role] = (name, data)
    if not {"trn", "sco"} <= set(roles):
        missing = ".sco" if "trn" in roles else ".trn"
        raise refusal(
            gettext_noop(
                "these Swiss Perfect files lack the %(missing)s table; choose the .trn, .sco and .ini files "
                "of the tournament together"
            ),
            Place(names),
            "sp_missing",
            missing=missing,
        )
    buffer = io.BytesIO()
    stem = roles["trn"][0].rsplit(".", 1)[0] or "swiss-perfect"
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for role in ("trn", "sco", "ini"):
            if role in roles:
                archive.writestr(zipfile.ZipInfo(f"{stem}.{role}", ZIP_TIME), roles[role][1])
    return names[:255], buffer.getvalue()


def _several(names: str) -> ResultFileError:
    return refusal(
        gettext_noop(
            "several files were chosen; upload one result file at a time (only Swiss Perfect's .trn, .sco "
            "and .ini files are read together)"
        ),
        Place(names),
        "several_files",
    )
