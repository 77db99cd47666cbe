"""Importing FIDE's rating list: streamed from the file into a staging table with COPY, then the
kinds the file holds replaced in one transaction, so a file that fails half-way leaves the
previous list as it was."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from pathlib import Path

from django.db import connection, transaction

from players.fide import lists
from players.fide.models import FideListEntry

COLUMNS = ("fide_id", "kind", "month", "name", "federation", "sex", "title", "women_title", "other_titles",
           "foa_title", "rating", "games", "k", "birth_year", "flag")  # fmt: skip
STAGING = "players_fidelistentry_staging"


@dataclass(frozen=True)
class ImportResult:
    path: str
    month: datetime.date
    counts: dict[str, int]  # per kind


def import_list(path: str | Path, *, kind: str | None = None, month: datetime.date | None = None) -> ImportResult:
    """Read the list at `path` (TXT or XML, combined or one kind) and make it the stored list of
    each kind it holds. The month: `month`, else the TXT header's, else the file name's."""
    path = Path(path)
    if kind is not None and kind not in lists.KINDS:
        raise lists.ListError(f"{path.name}: the kind is standard, rapid or blitz, not {kind!r}")
    counts: dict[str, int] = {}
    with path.open("rb") as stream:
        info, entries = lists.open_list(stream, kind=kind, name=path.name)
        month = month or info.month or lists.month_from_name(path)
        if month is None:
            raise lists.ListError(f"{path.name}: the list's month is in neither the file nor its name: give --month")
        rows = _rows(entries, month, counts)
        try:
            with transaction.atomic():
                if connection.vendor == "postgresql":
                    _load_postgresql(rows, counts)
                else:
                    _load_other(rows, counts)
        except lists.ListError as error:
            raise lists.ListError(f"{path.name}: {error}") from None
    return ImportResult(str(path), month, counts)


def _rows(entries, month, counts):
    seen_kinds = counts
    for e in entries:
        seen_kinds[e.kind] = seen_kinds.get(e.kind, 0) + 1
        yield (e.fide_id, e.kind, month, e.name[:100], e.federation[:3], e.sex[:1], e.title[:4], e.women_title[:4],
               e.other_titles[:40], e.foa_title[:4], e.rating, e.games, e.k, e.birth_year, e.flag[:4])  # fmt: skip


def _load_postgresql(rows, counts) -> None:
    from toolkit.bulk import copy_stream

    table = FideListEntry._meta.db_table
    with connection.cursor() as cursor:
        # The staging table: no index while it fills, dropped at the end of the transaction.
        cursor.execute(f"DROP TABLE IF EXISTS {STAGING}")
        cursor.execute(f"CREATE TEMPORARY TABLE {STAGING} (LIKE {table} INCLUDING DEFAULTS) ON COMMIT DROP")
        cursor.execute(f"ALTER TABLE {STAGING} DROP COLUMN id")
    with copy_stream(FideListEntry, COLUMNS, table=STAGING) as stream:
        write = stream.write
        for row in rows:
            write(row)
    if not counts:
        raise lists.ListError("the file holds no player")
    names = ", ".join(COLUMNS)
    with connection.cursor() as cursor:
        duplicate = _duplicate(cursor)
        if duplicate:
            raise lists.ListError(f"FIDE id {duplicate[0]} is in the {duplicate[1]} list twice")
        cursor.execute(f"DELETE FROM {table} WHERE kind = ANY(%s)", [list(counts)])  # noqa: S608
        cursor.execute(f"INSERT INTO {table} ({names}) SELECT {names} FROM {STAGING}")  # noqa: S608
        # Dropped now too: inside an outer transaction (a test, a caller's atomic) the commit is later.
        cursor.execute(f"DROP TABLE {STAGING}")


def _duplicate(cursor):
    cursor.execute(f"SELECT fide_id, kind FROM {STAGING} GROUP BY fide_id, kind HAVING count(*) > 1 LIMIT 1")  # noqa: S608
    return cursor.fetchone()


def _load_other(rows, counts) -> None:
    # SQLite (tests): the same in one transaction, without COPY; the unique constraint refuses
    # a FIDE id twice.
    from django.db import IntegrityError

    from toolkit.bulk import copy_rows

    first = next(rows, None)
    if first is None:
        raise lists.ListError("the file holds no player")
    FideListEntry.objects.filter(kind=first[1]).delete()

    def all_rows():
        yield first
        for row in rows:
            if row[1] not in done:
                done.add(row[1])
                FideListEntry.objects.filter(kind=row[1]).delete()
            yield row

    done = {first[1]}
    try:
        copy_rows(FideListEntry, COLUMNS, all_rows())
    except IntegrityError:
        raise lists.ListError("a FIDE id is in the list twice") from None
