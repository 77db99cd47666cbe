"""Bulk writes: PostgreSQL's COPY where it pays, Django's bulk_create elsewhere (SQLite).

COPY skips Django's field defaults, so the helper fills the fields the caller leaves out:
auto_now/auto_now_add timestamps with one "now", other defaults with their value.
"""

from __future__ import annotations

import datetime
import functools
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import BinaryIO

import orjson
from django.db import connection, models
from django.utils import timezone

BATCH = 5000


def copy_rows(model: type[models.Model], columns: Sequence[str], rows: Iterable[Sequence]) -> int:
    """Insert `rows` (tuples in the order of `columns`, attribute names such as 'player_id')."""
    fields = {field.attname: field for field in model._meta.concrete_fields}
    unknown = [name for name in columns if name not in fields]
    if unknown:
        raise ValueError(f"{model.__name__} has no column {unknown[0]!r}")
    extra_columns, extra_values = _filled_in(model, columns)
    json_columns = {index for index, name in enumerate(columns) if isinstance(fields[name], models.JSONField)}
    count = 0
    if connection.vendor == "postgresql":
        from psycopg import sql
        from psycopg.copy import QueuedLibpqWriter

        statement = sql.SQL("COPY {} ({}) FROM STDIN").format(
            sql.Identifier(model._meta.db_table),
            sql.SQL(", ").join(sql.Identifier(fields[name].column) for name in (*columns, *extra_columns)),
        )
        extra = tuple(
            json_text(value) if isinstance(fields[name], models.JSONField) else value
            for name, value in zip(extra_columns, extra_values, strict=True)
        )
        # A background thread sends while this one formats: the server ingests in parallel.
        with (
            connection.cursor() as cursor,
            cursor.cursor.copy(statement, writer=QueuedLibpqWriter(cursor.cursor)) as copy,
        ):
            for row in rows:
                if json_columns:
                    row = [json_text(v) if i in json_columns and v is not None else v for i, v in enumerate(row)]
                copy.write_row((*row, *extra))
                count += 1
        return count
    batch = []
    for row in rows:
        batch.append(
            model(**dict(zip(columns, row, strict=True)), **dict(zip(extra_columns, extra_values, strict=True)))
        )
        if len(batch) >= BATCH:
            model.objects.bulk_create(batch)
            count += len(batch)
            batch = []
    if batch:
        model.objects.bulk_create(batch)
        count += len(batch)
    return count


def _filled_in(model, columns) -> tuple[list[str], list]:
    now = timezone.now()
    names, values = [], []
    for field in model._meta.concrete_fields:
        if field.attname in columns or field.primary_key:
            continue
        if getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False):
            names.append(field.attname)
            values.append(now)
        elif field.has_default():
            names.append(field.attname)
            values.append(field.get_default())
        elif field.null:
            continue
        else:
            raise ValueError(f"{model.__name__}.{field.name} needs a value")
    return names, values


class CopyStream:
    """What copy_stream yields: `write(row)`; on PostgreSQL also `raw(data)` for lines already in
    COPY text format, which `text_line(row)` makes (in any process: it needs no connection)."""

    def __init__(self, json_columns: list[int], extra: tuple):
        self.write: Callable[[Sequence], None] = self._closed
        self.raw: Callable[[bytes], None] | None = None
        self.json_columns, self.extra = json_columns, extra
        # The columns filled in for every row (created_at, ...) and the newline: every line's end.
        self.line_end = "".join("\t" + _text(value) for value in extra) + "\n"

    def text_line(self, row: Sequence) -> str:
        json_columns = self.json_columns
        fields = []
        for index, value in enumerate(row):
            if index in json_columns and value is not None:
                value = json_text(value)
            fields.append(_text(value))
        return "\t".join(fields) + self.line_end

    @staticmethod
    def _closed(row) -> None:
        raise RuntimeError("the COPY stream is closed")


def json_text(value) -> str:
    """JSON text for a JSON column; named tuples (engine records) become arrays."""
    return orjson.dumps(value, default=_as_list).decode()


def _as_list(value):
    if isinstance(value, tuple):
        return list(value)
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


def _text(value) -> str:
    """One field in PostgreSQL's COPY text format."""
    if value is None:
        return "\\N"
    if value is True:
        return "t"
    if value is False:
        return "f"
    if isinstance(value, str):
        if "\\" in value or "\t" in value or "\n" in value or "\r" in value:
            value = value.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")
        return value
    if isinstance(value, datetime.datetime | datetime.date):
        return value.isoformat()
    return str(value)  # int, Decimal


def line_format(model: type[models.Model], columns: Sequence[str]) -> CopyStream:
    """A formatter of `model` rows (in the order of `columns`) as COPY text lines, `text_line(row)`,
    usable in any process (a forked child included: it needs no connection); copy_stream and
    copy_lines take its lines."""
    fields = {field.attname: field for field in model._meta.concrete_fields}
    extra_columns, extra_values = _filled_in(model, columns)
    json_columns = [index for index, name in enumerate(columns) if isinstance(fields[name], models.JSONField)]
    extra = tuple(
        json_text(value) if isinstance(fields[name], models.JSONField) else value
        for name, value in zip(extra_columns, extra_values, strict=True)
    )
    return CopyStream(json_columns, extra)


def copy_lines(model: type[models.Model], columns: Sequence[str], data: bytes | BinaryIO) -> None:
    """COPY text lines made by line_format(model, columns).text_line into the table (PostgreSQL):
    `data` is the text, or a binary file holding it, sent from its start a megabyte at a time (tens
    of megabytes of rows cost the process no memory while they wait in a temporary file)."""
    if isinstance(data, bytes | bytearray):
        chunks = iter((data,) if data else ())
    else:
        data.seek(0)
        chunks = iter(functools.partial(data.read, 1 << 20), b"")
    first = next(chunks, None)
    if first is None:
        return
    with copy_stream(model, columns) as stream:
        if stream.raw is None:
            raise RuntimeError("COPY text lines go to PostgreSQL only")
        stream.raw(first)
        for chunk in chunks:
            stream.raw(chunk)


@contextmanager
def copy_stream(model: type[models.Model], columns: Sequence[str], *, table: str | None = None) -> Iterator[CopyStream]:
    """Write rows one by one while the caller keeps computing: `with copy_stream(...) as stream`.

    On PostgreSQL one COPY stays open for the whole block and a background thread sends the
    data, so the server parses and indexes rows while Python computes the next ones. The
    connection cannot run other queries inside the block. Elsewhere rows go in batches.
    """
    fields = {field.attname: field for field in model._meta.concrete_fields}
    extra_columns, _ = _filled_in(model, columns)
    stream = line_format(model, columns)
    json_columns, extra = stream.json_columns, stream.extra
    if connection.vendor != "postgresql":
        batch: list = []

        def write_batch(row):
            batch.append(row)
            if len(batch) >= BATCH:
                copy_rows(model, columns, batch)
                batch.clear()

        stream.write = write_batch
        yield stream
        copy_rows(model, columns, batch)
        stream.write = stream._closed
        return

    from psycopg import sql
    from psycopg.copy import QueuedLibpqWriter

    statement = sql.SQL("COPY {} ({}) FROM STDIN").format(
        sql.Identifier(table or model._meta.db_table),
        sql.SQL(", ").join(sql.Identifier(fields[name].column) for name in (*columns, *extra_columns)),
    )
    with connection.cursor() as cursor:
        raw = cursor.cursor
        with raw.copy(statement, writer=QueuedLibpqWriter(raw)) as copy:
            write_row = copy.write_row
            if json_columns:

                def write(row):
                    row = list(row)
                    for index in json_columns:
                        if row[index] is not None:
                            row[index] = json_text(row[index])
                    write_row((*row, *extra))

            else:

                def write(row):
                    write_row((*row, *extra))

            stream.write = write
            stream.raw = copy.write
            try:
                yield stream
            finally:
                stream.write, stream.raw = stream._closed, None


def raw_rows(queryset, chunk: int = 50_000) -> Iterator[tuple]:
    """The rows of a values_list query straight from a client-side cursor: a million games read in
    half the time of Django's row-by-row iterator over a server-side cursor (for queries whose
    values need no conversion by their fields: ints, texts, dates)."""
    if connection.vendor != "postgresql":
        # SQLite gives dates back as text and booleans as ints: there the fields convert them.
        yield from queryset.iterator(chunk_size=chunk)
        return
    sql, params = queryset.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        while rows := cursor.fetchmany(chunk):
            yield from rows


def update_rows(objects: Sequence[models.Model], fields: Sequence[str]) -> None:
    """Save `fields` of many rows of one model in one statement. On PostgreSQL an UPDATE ... FROM
    (VALUES ...): Django's bulk_update builds a CASE per field and row, which costs milliseconds of
    Python per row (the sweeper's pass spent 80 % of its time there). Elsewhere each row is saved."""
    if not objects:
        return
    model = type(objects[0])
    if connection.vendor != "postgresql":
        for obj in objects:
            obj.save(update_fields=list(fields))
        return
    meta = model._meta
    columns = [meta.get_field(name) for name in fields]
    pk = meta.pk
    rows, params = [], []
    for obj in objects:
        cells = [f"%s::{pk.db_type(connection)}"]
        params.append(pk.get_db_prep_save(obj.pk, connection))
        for field in columns:
            if getattr(field, "auto_now", False):
                setattr(obj, field.attname, field.pre_save(obj, add=False))
            params.append(field.get_db_prep_save(getattr(obj, field.attname), connection))
            cells.append(f"%s::{field.db_type(connection)}")
        rows.append(f"({', '.join(cells)})")
    quote = connection.ops.quote_name
    names = ", ".join(quote(c.column) for c in [pk, *columns])
    assignments = ", ".join(f"{quote(c.column)} = v.{quote(c.column)}" for c in columns)
    # Only quoted names from the model's metadata are formatted in; every value is a parameter.
    values = ", ".join(rows)
    sql = f"UPDATE {quote(meta.db_table)} AS t SET {assignments} FROM (VALUES {values}) AS v({names}) WHERE t.{quote(pk.column)} = v.{quote(pk.column)}"  # noqa: S608, E501
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
