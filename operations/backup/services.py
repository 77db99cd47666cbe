"""Making a backup and restoring one: the database (PostgreSQL's pg_dump/pg_restore, or SQLite's
online backup API in embedded mode), the uploaded files and the manifest that checks them."""

from __future__ import annotations

import datetime
import fcntl
import logging
import shutil
import sqlite3
import subprocess
import tomllib
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.db import connection, transaction
from django.db.migrations.loader import MigrationLoader
from django.utils import timezone

from operations.backup import archive, folders, postgres
from operations.backup.folders import BackupError
from operations.backup.models import BackupRun

logger = logging.getLogger(__name__)

DATABASE_DUMP = "database.dump"
DATABASE_SQLITE = "database.sqlite3"
FILES = "files.tar.gz"
LOCK = ".lock"


@dataclass(frozen=True)
class Made:
    name: str
    path: Path
    size: int
    counts: dict[str, int]
    files: int
    removed: list[str]


@dataclass
class Restored:
    name: str
    counts: dict[str, int]
    differences: list = field(default_factory=list)
    files_written: int = 0
    files_present: int = 0
    unapplied: list[str] = field(default_factory=list)


def storage_roots() -> dict[str, Path]:
    """The uploaded files: public media and the private storage (result files, evidence)."""
    return {"media": Path(settings.MEDIA_ROOT), "private": Path(settings.PRIVATE_ROOT)}


def backup_scheduled() -> Made | None:
    """The nightly job: a backup into BACKUP_DIR keeping BACKUP_KEEP; nothing when it is unset or when
    a backup succeeded there within 20 hours (the job is idempotent, as beat's jobs must be)."""
    if not settings.BACKUP_DIR:
        return None
    directory = Path(settings.BACKUP_DIR)
    recent = timezone.now() - datetime.timedelta(hours=20)
    if BackupRun.objects.filter(directory=str(directory), succeeded=True, started_at__gte=recent).exists():
        return None  # beat fired twice (or a restart re-ran the job): one backup a night is enough
    return backup_create(directory=directory, keep=settings.BACKUP_KEEP)


def backup_create(*, directory: Path, keep: int) -> Made:
    """A complete backup in DIR/backup-<UTC time>, then the oldest beyond `keep` removed. A failure
    leaves the earlier backups as they were, is logged at error level and recorded (BackupRun)."""
    started = timezone.now()
    try:
        made = _backup(directory, keep, started)
    except Exception as error:
        logger.exception("backup into %s failed: %s", directory, error)
        _record(started, directory, succeeded=False, error=str(error) or type(error).__name__)
        raise
    _record(started, directory, succeeded=True, name=made.name, size=made.size)
    logger.info("backup %s written (%d bytes), removed %s", made.path, made.size, made.removed or "none")
    return made


def _record(started, directory: Path, *, succeeded: bool, name: str = "", size: int | None = None, error: str = ""):
    try:
        BackupRun.objects.create(
            started_at=started,
            finished_at=timezone.now(),
            succeeded=succeeded,
            directory=str(directory),
            name=name,
            size=size,
            error=error[:5000],
        )
    except Exception:  # the database itself may be what failed: the log line above still tells
        logger.exception("the backup run could not be recorded")


@contextmanager
def _locked(directory: Path):
    """One backup at a time per folder (a manual one during the nightly one waits for nothing: it stops)."""
    with (directory / LOCK).open("a") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise BackupError(f"another backup is being written into {directory}") from None
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _backup(directory: Path, keep: int, started: datetime.datetime) -> Made:
    if keep < 1:
        raise BackupError(f"keep must be at least 1, not {keep}")
    directory.mkdir(parents=True, exist_ok=True)
    with _locked(directory):
        folders.remove_incomplete(directory)
        name = folders.folder_name(started)
        temporary = directory / (folders.INCOMPLETE + name)
        temporary.mkdir()
        try:
            database = _database_copy(temporary)
            files = archive.write(temporary / FILES, storage_roots(), exclude=(directory,))
            manifest = {
                "created": started.astimezone(datetime.UTC).isoformat(),
                "engine": database["engine"],
                "database": database["name"],
                "server_version": database["server_version"],
                "migrations": database["migrations"],
                "row_counts": database["counts"],
                "uploaded_files": files,
                "version": app_version(),
            }
            folders.write_manifest(temporary, manifest)
            folders.publish(temporary, directory / name)
        except BaseException:
            shutil.rmtree(temporary, ignore_errors=True)
            raise
        removed = folders.prune(directory, keep)
    final = directory / name
    size = sum(path.stat().st_size for path in final.iterdir())
    return Made(name, final, size, database["counts"], files, removed)


def _database_copy(temporary: Path) -> dict:
    database = connection.settings_dict
    if connection.vendor == "postgresql":
        return _postgres_dump(temporary / DATABASE_DUMP)
    if connection.vendor == "sqlite":
        target = temporary / DATABASE_SQLITE
        _sqlite_copy(str(database["NAME"]), target)
        with sqlite3.connect(target) as copy:
            state = _state(copy.cursor(), _sqlite_tables(copy))
        copy.close()
        return {"engine": "sqlite", "name": str(database["NAME"]), "server_version": sqlite3.sqlite_version, **state}
    raise BackupError(f"backups know PostgreSQL and SQLite, not {connection.vendor}")


def _postgres_dump(target: Path) -> dict:
    """The counts and migrations read in the very snapshot pg_dump dumps (an exported snapshot held
    open by this transaction), so the manifest describes exactly the dump."""
    if connection.in_atomic_block:
        raise BackupError("a backup must run outside a database transaction")
    program = postgres.find_client("pg_dump", _server_major())
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        cursor.execute("SELECT pg_export_snapshot()")
        snapshot = cursor.fetchone()[0]
        state = _state(cursor, connection.introspection.table_names(cursor))
        postgres.dump(program, connection.settings_dict, target, snapshot=snapshot)
    return {
        "engine": "postgresql",
        "name": connection.settings_dict["NAME"],
        "server_version": str(connection.pg_version),
        **state,
    }


def _server_major() -> int:
    connection.ensure_connection()
    return connection.pg_version // 10000


def _sqlite_copy(source: str, target: Path) -> None:
    """SQLite's online backup API: a consistent copy while the site keeps writing."""
    if source in ("", ":memory:") or source.startswith("file:"):
        raise BackupError(f"the SQLite database {source!r} is not a file that can be backed up")
    with sqlite3.connect(source) as origin, sqlite3.connect(target) as copy:
        origin.backup(copy)
    origin.close()
    copy.close()


def _sqlite_tables(database) -> list[str]:
    rows = database.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    return sorted(row[0] for row in rows)


def _state(cursor, tables: list[str]) -> dict:
    counts = {}
    for table in sorted(tables):
        cursor.execute(f"SELECT COUNT(*) FROM {connection.ops.quote_name(table)}")  # noqa: S608 - a quoted table name
        counts[table] = cursor.fetchone()[0]
    migrations = []
    if "django_migrations" in counts:
        cursor.execute("SELECT app, name FROM django_migrations ORDER BY app, name")
        migrations = [f"{app}.{name}" for app, name in cursor.fetchall()]
    return {"counts": counts, "migrations": migrations}


def app_version() -> dict:
    """The site's version (pyproject.toml) and, where the code is a git checkout, its commit."""
    base = Path(settings.BASE_DIR)
    version = commit = None
    with suppress(OSError, KeyError, tomllib.TOMLDecodeError):
        version = tomllib.loads((base / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    git = shutil.which("git")
    if git:
        with suppress(OSError, subprocess.TimeoutExpired):
            answer = subprocess.run(  # noqa: S603 - git by its full path, fixed arguments
                [git, "rev-parse", "HEAD"], cwd=base, capture_output=True, text=True, timeout=10, check=False
            )
            commit = answer.stdout.strip() if answer.returncode == 0 else None
    return {"version": version, "commit": commit}


# --- Restore -------------------------------------------------------------------------------------


def restore(*, directory: Path, name: str | None = None) -> Restored:
    """The chosen backup (the newest of DIR by default) into the empty database of the settings and
    its files into MEDIA_ROOT and PRIVATE_ROOT. Everything is checked before anything is written:
    the checksums, the engine, the migrations this code knows, an empty database, files not in the way."""
    folder = folders.choose(directory, name)
    manifest = folders.read_manifest(folder)
    folders.verify(folder, manifest)
    engine = "postgresql" if connection.vendor == "postgresql" else connection.vendor
    if manifest.get("engine") != engine:
        raise BackupError(
            f"{folder.name} is a {manifest.get('engine')} backup and the database of these settings is {engine}: "
            "restore it into the same kind of database"
        )
    unknown, unapplied = _migration_gap(manifest.get("migrations", []))
    if unknown:
        raise BackupError(
            f"{folder.name} was made by a newer version of the site ({len(unknown)} migrations this code does not "
            f"have, e.g. {unknown[0]}): restore it with the version of its manifest ({manifest.get('version')})"
        )
    _require_empty()
    roots = storage_roots()
    _, present = archive.plan(folder / FILES, roots)
    if engine == "postgresql":
        program = postgres.find_client("pg_restore", _server_major())
        connection.close()
        postgres.restore(program, connection.settings_dict, folder / DATABASE_DUMP)
    else:
        connection.close()
        _sqlite_copy(str(folder / DATABASE_SQLITE), Path(connection.settings_dict["NAME"]))
    written = archive.extract(folder / FILES, roots)
    counts = _current_counts()
    restored = Restored(folder.name, counts, files_written=written, files_present=len(present), unapplied=unapplied)
    restored.differences = folders.count_differences(manifest.get("row_counts", {}), counts)
    return restored


def _migration_gap(applied: list[str]) -> tuple[list[str], list[str]]:
    """(migrations of the backup this code lacks, migrations of this code the backup lacks)."""
    on_disk = {f"{app}.{name}" for app, name in MigrationLoader(None, ignore_no_migrations=True).disk_migrations}
    recorded = set(applied)
    return sorted(recorded - on_disk), sorted(on_disk - recorded)


def _require_empty() -> None:
    with connection.cursor() as cursor:
        tables = connection.introspection.table_names(cursor)
    if tables:
        shown = ", ".join(sorted(tables)[:3])
        raise BackupError(
            f"the database {connection.settings_dict['NAME']} is not empty: it has {len(tables)} tables "
            f"({shown}, …). Restore only into an empty database: create one (createdb NAME) and point "
            "DATABASE_URL at it; nothing was changed"
        )


def _current_counts() -> dict[str, int]:
    with connection.cursor() as cursor:
        return _state(cursor, connection.introspection.table_names(cursor))["counts"]
