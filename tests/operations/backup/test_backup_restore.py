"""Backup and restore on PostgreSQL: a federation built through the real pipeline (load_demo: two
real example files and a children's season, rated, with mobile games), backed up, restored by a
separate process into a new empty database, which has the same rows and, after a full re-rate, the
same rating lists; a damaged backup and a non-empty database are refused; keep-N prunes."""

import hashlib
import io
import time
import uuid
from pathlib import Path

import psycopg
import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.db import connection
from psycopg import sql

from operations.backup import folders, services
from operations.backup.models import BackupRun
from ratings.models import System
from tests.operations.backup.processes import manage

# pg_dump and pg_restore need PostgreSQL (SQLite's backup is tested in test_runs.py).
pytestmark = [pytest.mark.needs("postgresql"), pytest.mark.django_db(transaction=True)]


def _server():
    database = connection.settings_dict
    return {
        "host": database["HOST"] or None,
        "port": database["PORT"] or None,
        "user": database["USER"] or None,
        "password": database["PASSWORD"] or None,
    }


@pytest.fixture
def empty_database():
    """A new empty database federation_restore_<random>, dropped afterwards; its URL."""
    name = f"federation_restore_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(dbname="postgres", autocommit=True, **_server()) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    server = _server()
    credentials = server["user"] + (f":{server['password']}" if server["password"] else "")
    yield name, f"postgres://{credentials}@{server['host'] or 'localhost'}:{server['port'] or 5432}/{name}"
    with psycopg.connect(dbname="postgres", autocommit=True, **server) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def restored_site(tmp_path: Path, url: str) -> dict[str, str]:
    """The restored site's settings: its database, its own storage folders."""
    return {
        "DATABASE_URL": url,
        "MEDIA_ROOT": str(tmp_path / "restored-media"),
        "PRIVATE_ROOT": str(tmp_path / "restored-private"),
    }


def table_counts(dsn_or_name: str) -> dict[str, int]:
    with psycopg.connect(dbname=dsn_or_name, **_server()) as database:
        tables = [
            row[0]
            for row in database.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename"
            ).fetchall()
        ]
        count = sql.SQL("SELECT count(*) FROM {}")
        return {table: database.execute(count.format(sql.Identifier(table))).fetchone()[0] for table in tables}


def files_of(root: Path) -> dict[str, str]:
    return {
        path.relative_to(root).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in root.rglob("*")
        if path.is_file()
    }


def source_lists() -> dict[str, str]:
    lists = {}
    for system in System.values:
        output = io.StringIO()
        call_command("export_list", system=system, format="csv", stdout=output)
        lists[system] = output.getvalue()
    return lists


def test_it_restores_a_federation_into_a_new_database_with_the_same_rows_and_lists(tmp_path, empty_database):
    call_command("load_demo", stdout=io.StringIO())
    source_counts = table_counts(connection.settings_dict["NAME"])
    lists = source_lists()
    private_files = files_of(Path(settings.PRIVATE_ROOT))
    call_command("backup", str(tmp_path / "backups"), stdout=io.StringIO())
    assert sum(len(rows.splitlines()) for rows in lists.values()) > 500, "the demo federation has rated players"
    assert private_files, "the uploaded result files are kept in the private storage"
    (backup,) = folders.complete_backups(tmp_path / "backups")
    manifest = folders.read_manifest(backup.path)
    assert manifest["row_counts"] == source_counts
    assert manifest["database"] == connection.settings_dict["NAME"]
    assert "operations.0001_initial" in manifest["migrations"]
    assert BackupRun.objects.get().succeeded

    name, url = empty_database
    restored = manage("restore", str(tmp_path / "backups"), **restored_site(tmp_path, url))
    assert restored.returncode == 0, restored.stderr
    assert "every table's row count equals the manifest's" in restored.stdout
    assert table_counts(name) == source_counts
    assert files_of(tmp_path / "restored-private") == private_files

    rerated = manage("rerate", **restored_site(tmp_path, url))
    assert rerated.returncode == 0, rerated.stderr
    for system, rows in lists.items():
        exported = manage("export_list", "--system", system, "--format", "csv", **restored_site(tmp_path, url))
        assert exported.returncode == 0, exported.stderr
        assert exported.stdout.splitlines() == rows.splitlines(), system


def test_it_refuses_a_damaged_backup_and_changes_nothing(tmp_path, empty_database):
    call_command("backup", str(tmp_path), stdout=io.StringIO())
    (backup,) = folders.complete_backups(tmp_path)
    dump = backup.path / services.DATABASE_DUMP
    data = bytearray(dump.read_bytes())
    data[len(data) // 2] ^= 0xFF
    dump.write_bytes(bytes(data))

    name, url = empty_database
    refused = manage("restore", str(tmp_path), **restored_site(tmp_path, url))
    assert refused.returncode == 1
    assert f"restore refused: {dump} is damaged: its sha256 is" in refused.stderr
    assert table_counts(name) == {}
    assert not (tmp_path / "restored-private").exists()


def test_it_refuses_a_database_that_has_tables(tmp_path):
    call_command("backup", str(tmp_path), stdout=io.StringIO())
    before = table_counts(connection.settings_dict["NAME"])
    with pytest.raises(CommandError, match=r"restore refused: the database \S+ is not empty: it has \d+ tables"):
        call_command("restore", str(tmp_path))
    assert table_counts(connection.settings_dict["NAME"]) == before


def test_it_keeps_the_newest_n_and_removes_the_oldest(tmp_path):
    names = []
    for _ in range(3):
        made = services.backup_create(directory=tmp_path, keep=2)
        names.append(made.name)
        time.sleep(1.1)  # backups are named by the second
    assert [found.name for found in folders.complete_backups(tmp_path)] == names[1:]
    assert made.removed == names[:1]
    assert sorted(path.name for path in tmp_path.iterdir()) == [".lock", *names[1:]]
