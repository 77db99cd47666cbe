"""Model fields the project needs beyond Django's own."""

from __future__ import annotations

from django.db import models
from django.db.models.fields.json import KeyTransform, KeyTransformFactory


class PlainJSONField(models.JSONField):
    """A JSONField kept in PostgreSQL's `json` type (the text, checked) instead of `jsonb` (parsed
    into a binary tree on the way in).

    For rows written by the hundred thousand, read back whole and never searched inside: the
    calculation details and engine states of rating runs. Storing a full re-rating's 800,000
    rating changes took PostgreSQL 18.9 s as jsonb and 8.2 s as json. Lookups into the document
    into keys (details__category="newcomer") work: the column is cast to jsonb for them. The
    lookups on the whole document that need jsonb operators (has_key, contains) do not.
    """

    def get_transform(self, name):
        transform = super().get_transform(name)
        if transform is not None and not isinstance(transform, KeyTransformFactory):
            return transform
        return lambda *args, **kwargs: _JsonbKeyTransform(name, *args, **kwargs)

    def db_type(self, connection):
        if connection.vendor == "postgresql":
            return "json"
        return super().db_type(connection)

    def from_db_value(self, value, expression, connection):
        if value is not None and not isinstance(value, str):
            return value  # psycopg decodes `json` itself (Django asks it for jsonb as text)
        return super().from_db_value(value, expression, connection)


class _JsonbKeyTransform(KeyTransform):
    """A key of a `json` column, read through a cast to jsonb (whose operators the lookups use)."""

    def preprocess_lhs(self, compiler, connection):
        lhs, params, key_transforms = super().preprocess_lhs(compiler, connection)
        if connection.vendor == "postgresql":
            lhs = f"({lhs})::jsonb"
        return lhs, params, key_transforms
