"""The backup folder's layout, the manifest and which backups to keep. Pure Python (no Django).

A backup is a folder DIR/backup-YYYYMMDDTHHMMSSZ holding `manifest.json` and the files it lists
with their sha256. It is written as DIR/.incomplete-backup-…, and renamed only when every file and
the manifest are on disk and synced: a folder without the prefix is a complete backup."""

from __future__ import annotations

import datetime
import hashlib
import json
import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

MANIFEST = "manifest.json"
FORMAT = 1
PREFIX = "backup-"
INCOMPLETE = ".incomplete-"
_NAME = re.compile(r"backup-(\d{8}T\d{6}Z)")
_STAMP = "%Y%m%dT%H%M%SZ"


class BackupError(Exception):
    """A backup that cannot be made or restored, with a message that says what and why."""


def folder_name(moment: datetime.datetime) -> str:
    if moment.tzinfo is None:
        raise ValueError("an aware datetime is needed for a backup's name")
    return PREFIX + moment.astimezone(datetime.UTC).strftime(_STAMP)


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def fsync_tree(folder: Path) -> None:
    """Every file of the folder, then the folder itself, on disk before the rename makes it a backup."""
    for path in folder.iterdir():
        if path.is_file():
            with path.open("rb") as stream:
                os.fsync(stream.fileno())
    _fsync_dir(folder)


def _fsync_dir(folder: Path) -> None:
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def write_manifest(folder: Path, manifest: dict) -> None:
    """The manifest, with the checksum and size of every other file of the folder."""
    files = {}
    for path in sorted(folder.iterdir()):
        if path.is_file() and path.name != MANIFEST:
            files[path.name] = {"sha256": sha256(path), "bytes": path.stat().st_size}
    body = {"format": FORMAT, **manifest, "files": files}
    (folder / MANIFEST).write_text(json.dumps(body, indent=2, sort_keys=True, ensure_ascii=False), encoding="utf-8")


def publish(temporary: Path, final: Path) -> None:
    """The rename that turns a finished temporary folder into a backup."""
    fsync_tree(temporary)
    if final.exists():
        raise BackupError(f"{final} exists already: two backups in the same second?")
    temporary.rename(final)
    _fsync_dir(final.parent)


def read_manifest(folder: Path) -> dict:
    path = folder / MANIFEST
    if not path.is_file():
        raise BackupError(f"{folder} is not a complete backup: it has no {MANIFEST}")
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise BackupError(f"{path} is not readable JSON: {error}") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise BackupError(f"{path} is not a backup manifest of format {FORMAT}")
    if not isinstance(manifest.get("files"), dict):
        raise BackupError(f"{path} is not a backup manifest of format {FORMAT}")
    return manifest


def verify(folder: Path, manifest: dict) -> None:
    """Every file the manifest lists is there with its checksum; raises naming the first that is not."""
    for name, expected in sorted(manifest["files"].items()):
        path = folder / name
        if not path.is_file():
            raise BackupError(f"{path} is missing: the backup is incomplete")
        actual = sha256(path)
        if actual != expected["sha256"]:
            raise BackupError(
                f"{path} is damaged: its sha256 is {actual}, the manifest says {expected['sha256']}; "
                "nothing was restored"
            )


@dataclass(frozen=True)
class Found:
    name: str
    path: Path


def complete_backups(directory: Path) -> list[Found]:
    """The complete backups of DIR, oldest first (their names sort by time)."""
    if not directory.is_dir():
        return []
    found = [
        Found(path.name, path)
        for path in directory.iterdir()
        if path.is_dir() and _NAME.fullmatch(path.name) and (path / MANIFEST).is_file()
    ]
    return sorted(found, key=lambda backup: backup.name)


def choose(directory: Path, name: str | None) -> Path:
    """The backup to restore: DIR itself when it is one, the named one, or the newest of DIR."""
    if (directory / MANIFEST).is_file() and name is None:
        return directory
    backups = complete_backups(directory)
    if name is not None:
        for backup in backups:
            if backup.name == name:
                return backup.path
        known = ", ".join(backup.name for backup in backups) or "none"
        raise BackupError(f"{directory} has no complete backup named {name!r} (complete backups: {known})")
    if not backups:
        raise BackupError(f"{directory} holds no complete backup (a folder backup-…Z with a {MANIFEST})")
    return backups[-1].path


def to_prune(backups: list[Found], keep: int) -> list[Found]:
    """The oldest backups beyond the newest `keep`."""
    if keep < 1:
        raise ValueError("keep at least one backup")
    return backups[:-keep] if len(backups) > keep else []


def prune(directory: Path, keep: int) -> list[str]:
    removed = []
    for backup in to_prune(complete_backups(directory), keep):
        shutil.rmtree(backup.path)
        removed.append(backup.name)
    return removed


def remove_incomplete(directory: Path) -> list[str]:
    """Temporary folders of backups that died half-way (the caller holds the folder's lock)."""
    removed = []
    for path in directory.iterdir():
        if path.is_dir() and path.name.startswith(INCOMPLETE):
            shutil.rmtree(path)
            removed.append(path.name)
    return removed


def count_differences(expected: dict[str, int], actual: dict[str, int]) -> list[tuple[str, int | None, int | None]]:
    """(table, in the manifest, in the database) for every table whose counts differ."""
    return [
        (table, expected.get(table), actual.get(table))
        for table in sorted(set(expected) | set(actual))
        if expected.get(table) != actual.get(table)
    ]
