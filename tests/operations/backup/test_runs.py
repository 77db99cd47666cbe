"""The nightly backup (beat's entry, the thin task, one a night), a failed backup visible to staff
with the earlier ones left intact, the settings' loud failures, and the embedded (SQLite) mode."""

import datetime
import fcntl
import logging
import shutil
import sqlite3

import pytest
from django.test import override_settings
from django.utils import timezone

from federation.celery import beat_schedule
from operations import tasks
from operations.backup import folders, selectors, services
from operations.backup.folders import BackupError
from operations.backup.models import BackupRun
from tests.operations.backup.processes import manage
from tests.operations.backup.test_folders import make_backup


@pytest.mark.parametrize(
    ("variables", "message"),
    [
        ({"BACKUP_HOUR": "24"}, "BACKUP_HOUR=24 must be an hour, 0 to 23"),
        ({"BACKUP_HOUR": "three"}, "BACKUP_HOUR='three' is not a whole number"),
        ({"BACKUP_KEEP": "0"}, "BACKUP_KEEP=0 is below the minimum of 1"),
        ({"BACKUP_DIR": "backups"}, "BACKUP_DIR='backups' must be an absolute folder"),
    ],
)
def test_it_stops_on_a_bad_backup_setting(variables, message):
    result = manage("check", **variables)
    assert result.returncode != 0
    assert message in result.stderr


def test_it_schedules_the_nightly_backup_only_when_a_folder_is_set(tmp_path):
    with override_settings(BACKUP_DIR=None):
        assert "nightly-backup" not in beat_schedule()
    with override_settings(BACKUP_DIR=str(tmp_path), BACKUP_HOUR=4):
        entry = beat_schedule()["nightly-backup"]
    assert entry["task"] == tasks.backup_nightly.name == "operations.tasks.backup_nightly"
    assert (entry["schedule"].hour, entry["schedule"].minute) == ({4}, {0})


@pytest.mark.django_db
def test_it_records_a_failed_backup_logs_it_and_leaves_the_earlier_ones(tmp_path, caplog):
    earlier = make_backup(tmp_path, datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC))
    before = sorted(path.name for path in earlier.iterdir())
    with (tmp_path / services.LOCK).open("a") as held, override_settings(BACKUP_DIR=str(tmp_path), BACKUP_KEEP=1):
        fcntl.flock(held, fcntl.LOCK_EX)  # another backup is running into the same folder
        with caplog.at_level(logging.ERROR, logger="operations.backup.services"), pytest.raises(BackupError):
            tasks.backup_nightly.delay()

    run = selectors.last_backup()
    assert not run.succeeded
    assert run.error == f"another backup is being written into {tmp_path}"
    assert run.directory == str(tmp_path)
    assert selectors.last_good_backup() is None
    assert [record.levelname for record in caplog.records] == ["ERROR"]
    assert f"backup into {tmp_path} failed" in caplog.records[0].getMessage()
    assert [found.name for found in folders.complete_backups(tmp_path)] == [earlier.name]
    assert sorted(path.name for path in earlier.iterdir()) == before
    assert not [path for path in tmp_path.iterdir() if path.name.startswith(folders.INCOMPLETE)]


@pytest.mark.django_db
def test_it_makes_one_backup_a_night_and_none_without_a_folder(tmp_path):
    with override_settings(BACKUP_DIR=None):
        assert services.backup_scheduled() is None
    now = timezone.now()
    BackupRun.objects.create(
        started_at=now - datetime.timedelta(hours=2), finished_at=now, succeeded=True, directory=str(tmp_path)
    )
    with override_settings(BACKUP_DIR=str(tmp_path)):
        tasks.backup_nightly.delay()
        assert services.backup_scheduled() is None
    assert list(tmp_path.iterdir()) == []
    assert BackupRun.objects.count() == 1


def test_it_backs_up_and_restores_an_embedded_sqlite_site(tmp_path, migrated_sqlite_template):
    """`make run` users: SQLite's online backup API, the same folder, manifest and checks."""
    source = {
        "DATABASE_URL": f"sqlite:///{tmp_path / 'site.sqlite3'}",
        "MEDIA_ROOT": str(tmp_path / "media"),
        "PRIVATE_ROOT": str(tmp_path / "private"),
    }
    shutil.copyfile(migrated_sqlite_template, tmp_path / "site.sqlite3")  # a migrated site, migrated once a run
    (tmp_path / "private" / "uploads").mkdir(parents=True)
    (tmp_path / "private" / "uploads" / "cup.trf").write_text("012 Cup\n", encoding="utf-8")

    made = manage("backup", str(tmp_path / "backups"), **source)
    assert made.returncode == 0, made.stderr
    (backup,) = folders.complete_backups(tmp_path / "backups")
    manifest = folders.read_manifest(backup.path)
    assert manifest["engine"] == "sqlite"
    assert set(manifest["files"]) == {services.DATABASE_SQLITE, services.FILES}
    with sqlite3.connect(tmp_path / "site.sqlite3") as database:
        permissions = database.execute("SELECT count(*) FROM auth_permission").fetchone()[0]
    assert manifest["row_counts"]["auth_permission"] == permissions > 0

    target = {
        "DATABASE_URL": f"sqlite:///{tmp_path / 'restored.sqlite3'}",
        "MEDIA_ROOT": str(tmp_path / "restored-media"),
        "PRIVATE_ROOT": str(tmp_path / "restored-private"),
    }
    restored = manage("restore", str(tmp_path / "backups"), **target)
    assert restored.returncode == 0, restored.stderr
    assert "every table's row count equals the manifest's" in restored.stdout
    assert (tmp_path / "restored-private" / "uploads" / "cup.trf").read_text(encoding="utf-8") == "012 Cup\n"

    again = manage("restore", str(tmp_path / "backups"), **target)
    assert again.returncode == 1
    assert "restore refused: the database" in again.stderr
    assert "is not empty" in again.stderr
