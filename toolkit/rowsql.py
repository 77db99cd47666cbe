"""Hot single-row statements as SQL built once per model and database, for paths where building
the ORM's query costs more than the database's work (the mobile message path: issue 28, where
compiling the lock query, the game's UPDATE and the record's INSERT was half of a move's Python).

Only names from the models' metadata are formatted into the SQL; every value is a parameter,
prepared by its field (get_db_prep_save) exactly as the ORM prepares it, and every value read is
passed through the converters the ORM would apply, so the instances are the ones the ORM builds.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from django.db import DatabaseError, connection, models


@cache
def _columns(model: type[models.Model], vendor: str) -> tuple[tuple[str, ...], tuple]:
    """(attnames, per field its read converters) of the model's concrete fields, in order."""
    del vendor  # part of the cache key: converters differ per backend
    names, converters = [], []
    for field in model._meta.concrete_fields:
        col = field.get_col(model._meta.db_table)
        names.append(field.attname)
        converters.append((col, tuple(connection.ops.get_db_converters(col) + col.get_db_converters(connection))))
    return tuple(names), tuple(converters)


def select_list(model: type[models.Model], alias: str) -> str:
    """The quoted columns of the model's concrete fields under table alias `alias`."""
    quote = connection.ops.quote_name
    return ", ".join(f"{quote(alias)}.{quote(field.column)}" for field in model._meta.concrete_fields)


def width(model: type[models.Model]) -> int:
    return len(model._meta.concrete_fields)


def instance(model: type[models.Model], row: Sequence, start: int = 0):
    """The model instance of the row's columns from `start` (in select_list's order), as the ORM
    makes it (converted values, from_db: not adding, on the default database)."""
    names, converters = _columns(model, connection.vendor)
    values = list(row[start : start + len(names)])
    for index, (col, functions) in enumerate(converters):
        value = values[index]
        for function in functions:
            value = function(value, col, connection)
        values[index] = value
    return model.from_db(connection.alias, names, values)


@cache
def _update_sql(model: type[models.Model], fields: tuple[str, ...], vendor: str) -> str:
    del vendor
    meta, quote = model._meta, connection.ops.quote_name
    assignments = ", ".join(f"{quote(meta.get_field(name).column)} = %s" for name in fields)
    return f"UPDATE {quote(meta.db_table)} SET {assignments} WHERE {quote(meta.pk.column)} = %s"  # noqa: S608


def update_one(obj: models.Model, fields: Sequence[str]) -> None:
    """obj.save(update_fields=fields) in one cached statement (auto_now fields stamped as save
    stamps them). No model signals: callers use it for models that have no receivers."""
    meta = obj._meta
    params = []
    for name in fields:
        field = meta.get_field(name)
        if getattr(field, "auto_now", False):
            setattr(obj, field.attname, field.pre_save(obj, add=False))
        params.append(field.get_db_prep_save(getattr(obj, field.attname), connection))
    params.append(meta.pk.get_db_prep_save(obj.pk, connection))
    with connection.cursor() as cursor:
        cursor.execute(_update_sql(type(obj), tuple(fields), connection.vendor), params)
        if cursor.rowcount != 1:
            raise DatabaseError("Save with update_fields did not affect any rows.")


@cache
def _insert_sql(model: type[models.Model], rows: int, vendor: str) -> str:
    del vendor
    meta, quote = model._meta, connection.ops.quote_name
    fields = [f for f in meta.concrete_fields if not f.primary_key]
    one = "(" + ", ".join(["%s"] * len(fields)) + ")"
    names = ", ".join(quote(f.column) for f in fields)
    return (
        f"INSERT INTO {quote(meta.db_table)} ({names}) VALUES {', '.join([one] * rows)} "  # noqa: S608
        f"RETURNING {quote(meta.pk.column)}"
    )


def insert_returning(objs: Sequence[models.Model]) -> None:
    """Model.objects.bulk_create(objs) for a few new rows of one model without auto_now fields
    nor model signals, in one cached INSERT ... RETURNING: each object gets its primary key and
    is marked saved, as bulk_create leaves it. Falls back to bulk_create where the database cannot
    return the rows' ids."""
    if not objs:
        return
    model = type(objs[0])
    if not connection.features.can_return_rows_from_bulk_insert:
        model.objects.bulk_create(objs)
        return
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    params = []
    for obj in objs:
        obj._prepare_related_fields_for_save(operation_name="bulk_create")
        for field in fields:
            params.append(field.get_db_prep_save(field.pre_save(obj, add=True), connection))
    with connection.cursor() as cursor:
        cursor.execute(_insert_sql(model, len(objs), connection.vendor), params)
        ids = [row[0] for row in cursor.fetchall()]
    # PostgreSQL and SQLite return the ids of a multi-row VALUES insert in the rows' order.
    for obj, pk in zip(objs, ids, strict=True):
        obj.pk = pk
        obj._state.adding = False
        obj._state.db = connection.alias


@cache
def _get_sql(model: type[models.Model], name: str, vendor: str) -> str:
    del vendor
    meta, quote = model._meta, connection.ops.quote_name
    column = quote(meta.get_field(name).column)
    return f"SELECT {select_list(model, meta.db_table)} FROM {quote(meta.db_table)} WHERE {column} = %s LIMIT 2"  # noqa: S608


def get_by(model: type[models.Model], name: str, value):
    """model.objects.get(name=value) in one cached statement; None when there is no such row."""
    prepared = model._meta.get_field(name).get_db_prep_value(value, connection, prepared=False)
    with connection.cursor() as cursor:
        cursor.execute(_get_sql(model, name, connection.vendor), (prepared,))
        rows = cursor.fetchall()
    if len(rows) > 1:
        raise model.MultipleObjectsReturned(f"more than one {model.__name__} with {name} = {value!r}")
    return instance(model, rows[0]) if rows else None


@cache
def _exists_sql(model: type[models.Model], names: tuple[str, ...], vendor: str) -> str:
    del vendor
    meta, quote = model._meta, connection.ops.quote_name
    where = " AND ".join(f"{quote(meta.get_field(name).column)} = %s" for name in names)
    return f"SELECT 1 FROM {quote(meta.db_table)} WHERE {where} LIMIT 1"  # noqa: S608


def exists(model: type[models.Model], **equals) -> bool:
    """model.objects.filter(**equals).exists() for plain equalities on non-null values, cached."""
    names = tuple(equals)
    meta = model._meta
    params = [meta.get_field(name).get_db_prep_value(equals[name], connection, prepared=False) for name in names]
    with connection.cursor() as cursor:
        cursor.execute(_exists_sql(model, names, connection.vendor), params)
        return cursor.fetchone() is not None
