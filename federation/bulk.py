"""Bulk writes: PostgreSQL's COPY where it pays, Django's bulk_create elsewhere (SQLite).

COPY skips Django's field defaults, so the helper fills the fields the caller leaves out:
auto_now/auto_now_add timestamps with one "now", other defaults with their value.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

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

        statement = sql.SQL("COPY {} ({}) FROM STDIN").format(
            sql.Identifier(model._meta.db_table),
            sql.SQL(", ").join(sql.Identifier(fields[name].column) for name in (*columns, *extra_columns)),
        )
        extra = tuple(
            json.dumps(value) if isinstance(fields[name], models.JSONField) else value
            for name, value in zip(extra_columns, extra_values, strict=True)
        )
        with connection.cursor() as cursor, cursor.cursor.copy(statement) as copy:
            for row in rows:
                if json_columns:
                    row = [json.dumps(v) if i in json_columns and v is not None else v for i, v in enumerate(row)]
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
