"""Trigram indexes for name search on PostgreSQL (LIKE '%...%' on the name keys uses them).

SQLite has no such index; there the migration does nothing.
"""

from django.db import migrations

INDEXES = (
    ("players_player_name_key_trgm", "name_key"),
    ("players_player_latin_key_trgm", "latin_key"),
)


def create(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    for name, column in INDEXES:
        schema_editor.execute(
            f"CREATE INDEX IF NOT EXISTS {name} ON players_player USING gin ({column} gin_trgm_ops)"  # noqa: S608
        )


def drop(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for name, _ in INDEXES:
        schema_editor.execute(f"DROP INDEX IF EXISTS {name}")


class Migration(migrations.Migration):
    dependencies = [("players", "0001_initial")]

    operations = [migrations.RunPython(create, drop)]
