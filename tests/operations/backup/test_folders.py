"""The backup folder's pure parts (names, manifest and checksums, keep-N, the files' tar) and the
PostgreSQL clients' invocation, with real files and real processes, no database."""

import datetime
import io
import json
import stat
import tarfile
from pathlib import Path

import pytest

from operations.backup import archive, folders, postgres
from operations.backup.folders import BackupError

UTC = datetime.UTC


def make_backup(directory: Path, moment: datetime.datetime, payload: bytes = b"data") -> Path:
    temporary = directory / (folders.INCOMPLETE + folders.folder_name(moment))
    temporary.mkdir(parents=True)
    (temporary / "database.dump").write_bytes(payload)
    folders.write_manifest(temporary, {"engine": "postgresql", "row_counts": {"t": 1}})
    final = directory / folders.folder_name(moment)
    folders.publish(temporary, final)
    return final


def test_it_names_a_backup_by_its_utc_time_and_refuses_a_naive_one():
    moment = datetime.datetime(2026, 3, 1, 2, 30, 5, tzinfo=datetime.timezone(datetime.timedelta(hours=3)))
    assert folders.folder_name(moment) == "backup-20260228T233005Z"
    with pytest.raises(ValueError, match="aware"):
        folders.folder_name(datetime.datetime(2026, 3, 1))


def test_it_lists_the_checksum_of_every_file_and_finds_a_damaged_one(tmp_path):
    backup = make_backup(tmp_path, datetime.datetime(2026, 1, 1, tzinfo=UTC), payload=b"x" * 5000)
    manifest = folders.read_manifest(backup)
    assert manifest["files"]["database.dump"]["bytes"] == 5000
    assert manifest["row_counts"] == {"t": 1}
    folders.verify(backup, manifest)

    data = bytearray((backup / "database.dump").read_bytes())
    data[2500] ^= 1
    (backup / "database.dump").write_bytes(bytes(data))
    with pytest.raises(BackupError, match=r"database\.dump is damaged: its sha256 is [0-9a-f]{64}"):
        folders.verify(backup, manifest)
    (backup / "database.dump").unlink()
    with pytest.raises(BackupError, match=r"database\.dump is missing"):
        folders.verify(backup, manifest)


def test_it_takes_only_renamed_folders_for_backups(tmp_path):
    make_backup(tmp_path, datetime.datetime(2026, 1, 1, tzinfo=UTC))
    half = tmp_path / (folders.INCOMPLETE + "backup-20260102T000000Z")
    half.mkdir()
    (half / "database.dump").write_bytes(b"half")
    no_manifest = tmp_path / "backup-20260103T000000Z"
    no_manifest.mkdir()

    assert [found.name for found in folders.complete_backups(tmp_path)] == ["backup-20260101T000000Z"]
    assert folders.choose(tmp_path, None).name == "backup-20260101T000000Z"
    with pytest.raises(BackupError, match="no complete backup named 'backup-20260103T000000Z'"):
        folders.choose(tmp_path, "backup-20260103T000000Z")
    assert folders.remove_incomplete(tmp_path) == [half.name]
    assert not half.exists()


def test_it_chooses_the_newest_the_named_or_the_folder_itself(tmp_path):
    for day in (3, 1, 2):
        make_backup(tmp_path, datetime.datetime(2026, 1, day, tzinfo=UTC))
    assert folders.choose(tmp_path, None).name == "backup-20260103T000000Z"
    assert folders.choose(tmp_path, "backup-20260101T000000Z").name == "backup-20260101T000000Z"
    one = tmp_path / "backup-20260102T000000Z"
    assert folders.choose(one, None) == one
    with pytest.raises(BackupError, match="holds no complete backup"):
        folders.choose(tmp_path / "elsewhere", None)


def test_it_keeps_the_newest_n(tmp_path):
    for day in range(1, 6):
        make_backup(tmp_path, datetime.datetime(2026, 1, day, tzinfo=UTC))
    assert folders.prune(tmp_path, 2) == [f"backup-2026010{day}T000000Z" for day in (1, 2, 3)]
    assert [found.name for found in folders.complete_backups(tmp_path)] == [
        "backup-20260104T000000Z",
        "backup-20260105T000000Z",
    ]
    assert folders.prune(tmp_path, 2) == []
    with pytest.raises(ValueError, match="at least one"):
        folders.to_prune([], 0)


def test_it_refuses_a_manifest_that_is_not_one(tmp_path):
    (tmp_path / "manifest.json").write_text(json.dumps({"format": 99}))
    with pytest.raises(BackupError, match="not a backup manifest of format 1"):
        folders.read_manifest(tmp_path)
    (tmp_path / "manifest.json").write_text("{half")
    with pytest.raises(BackupError, match="not readable JSON"):
        folders.read_manifest(tmp_path)


def test_it_names_the_tables_whose_counts_differ():
    assert folders.count_differences({"a": 1, "b": 2}, {"a": 1, "b": 3, "c": 0}) == [("b", 2, 3), ("c", None, 0)]
    assert folders.count_differences({"a": 1}, {"a": 1}) == []


def test_it_archives_both_storage_roots_and_restores_them_elsewhere(tmp_path):
    media, private = tmp_path / "media", tmp_path / "private"
    (private / "uploads" / "2026").mkdir(parents=True)
    (private / "uploads" / "2026" / "swiss.trf").write_bytes("Карл 1-0".encode())
    (media / "boards").mkdir(parents=True)
    (media / "boards" / "a.png").write_bytes(b"\x89PNG")
    (private / "backups").mkdir()
    (private / "backups" / "old.dump").write_bytes(b"not in the tar")
    target = tmp_path / "files.tar.gz"

    count = archive.write(target, {"media": media, "private": private}, exclude=(private / "backups",))
    assert count == 2
    with tarfile.open(target) as tar:
        assert "private/backups/old.dump" not in tar.getnames()

    roots = {"media": tmp_path / "new" / "media", "private": tmp_path / "new" / "private"}
    assert archive.plan(target, roots) == (2, [])
    assert archive.extract(target, roots) == 2
    assert (roots["private"] / "uploads" / "2026" / "swiss.trf").read_bytes() == "Карл 1-0".encode()
    assert archive.plan(target, roots) == (0, ["media/boards/a.png", "private/uploads/2026/swiss.trf"])

    (roots["media"] / "boards" / "a.png").write_bytes(b"other")
    with pytest.raises(BackupError, match=r"a\.png exists with other content than the backup's media/boards/a\.png"):
        archive.plan(target, roots)


@pytest.mark.parametrize("name", ["../evil", "private/../../evil", "/etc/evil", "other/file"])
def test_it_refuses_a_tar_member_outside_the_storage_roots(tmp_path, name):
    target = tmp_path / "files.tar.gz"
    with tarfile.open(target, "w:gz") as tar:
        info = tarfile.TarInfo(name)
        info.size = 1
        tar.addfile(info, io.BytesIO(b"x"))
    with pytest.raises(BackupError, match="outside the storage folders"):
        archive.plan(target, {"media": tmp_path / "m", "private": tmp_path / "p"})
    assert not (tmp_path / "evil").exists()


def fake_client(folder: Path, name: str, version: str, record: Path | None = None) -> Path:
    """A stand-in PostgreSQL client: a real program that prints its version and writes down its
    arguments and the libpq variables it was given."""
    folder.mkdir(parents=True, exist_ok=True)
    program = folder / name
    lines = ["#!/bin/sh", f'if [ "$1" = "--version" ]; then echo "{name} (PostgreSQL) {version}"; exit 0; fi']
    if record is not None:
        lines.append(f'echo "ARGS $*" > {record}; env | grep ^PG >> {record}')
    program.write_text("\n".join(lines) + "\n")
    program.chmod(program.stat().st_mode | stat.S_IEXEC)
    return program


def test_it_chooses_the_client_of_the_servers_version(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path / "nowhere"))
    for major in (13, 15, 17):
        fake_client(tmp_path / str(major) / "bin", "pg_dump", f"{major}.2")
    search = str(tmp_path / "*" / "bin")
    assert postgres.find_client("pg_dump", 15, search=search) == str(tmp_path / "15" / "bin" / "pg_dump")
    assert postgres.find_client("pg_dump", 14, search=search) == str(tmp_path / "15" / "bin" / "pg_dump")
    with pytest.raises(BackupError, match="no pg_dump of PostgreSQL 18 or newer: install the client"):
        postgres.find_client("pg_dump", 18, search=search)


def test_it_gives_the_password_in_the_environment_never_on_the_command_line(tmp_path):
    record = tmp_path / "record.txt"
    program = fake_client(tmp_path / "bin", "pg_dump", "15.2", record=record)
    database = {
        "NAME": "federation",
        "USER": "fed",
        "PASSWORD": "s3cret",
        "HOST": "db.local",
        "PORT": 5433,
        "OPTIONS": {"sslmode": "require"},
    }
    postgres.dump(str(program), database, tmp_path / "out.dump", snapshot="00000003-1")
    written = record.read_text()
    arguments = written.splitlines()[0]
    assert "s3cret" not in arguments
    assert "--format=custom" in arguments and "--snapshot=00000003-1" in arguments
    assert {
        "PGPASSWORD=s3cret",
        "PGUSER=fed",
        "PGHOST=db.local",
        "PGPORT=5433",
        "PGDATABASE=federation",
        "PGSSLMODE=require",
    } <= set(written.splitlines()[1:])


def test_it_reports_the_clients_own_error(tmp_path):
    program = tmp_path / "pg_restore"
    program.write_text('#!/bin/sh\necho "pg_restore: error: connection to server failed: no such host" >&2\nexit 1\n')
    program.chmod(0o755)
    with pytest.raises(BackupError, match="pg_restore failed: pg_restore: error: connection to server failed"):
        postgres.restore(str(program), {"NAME": "x"}, tmp_path / "in.dump")


def test_it_drops_libpq_variables_of_the_parent_that_would_point_elsewhere():
    environment = postgres.child_environment({"NAME": "mine"}, base={"PGDATABASE": "theirs", "PGHOST": "h", "A": "1"})
    assert environment == {"PGDATABASE": "mine", "A": "1"}
