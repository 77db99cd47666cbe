"""The uploaded files of a backup: one tar holding each storage root under its own name
(`media/…`, `private/…`). Pure Python (no Django)."""

from __future__ import annotations

import hashlib
import tarfile
from pathlib import Path, PurePosixPath

from operations.backup.folders import BackupError


def _inside(path: Path, folder: Path) -> bool:
    try:
        path.resolve().relative_to(folder.resolve())
    except ValueError:
        return False
    return True


def write(target: Path, roots: dict[str, Path], *, exclude: tuple[Path, ...] = ()) -> int:
    """Writes the tar; returns how many files it holds. A root that does not exist yet holds nothing;
    anything inside `exclude` (the backup folder itself, when it lies in a storage root) is left out."""
    count = 0
    with tarfile.open(target, "w:gz", compresslevel=6) as archive:
        for name, root in sorted(roots.items()):
            if not root.is_dir():
                continue
            archive.add(root, arcname=name, recursive=False)
            for path in sorted(root.rglob("*")):
                if any(_inside(path, folder) for folder in exclude) or path.is_symlink():
                    continue
                if path.is_dir() or path.is_file():
                    archive.add(path, arcname=f"{name}/{path.relative_to(root).as_posix()}", recursive=False)
                    count += path.is_file()
    return count


def _digest(stream) -> str:
    digest = hashlib.sha256()
    for block in iter(lambda: stream.read(1 << 20), b""):
        digest.update(block)
    return digest.hexdigest()


def _file_digest(path: Path) -> str:
    with path.open("rb") as stream:
        return _digest(stream)


def plan(source: Path, roots: dict[str, Path]) -> tuple[int, list[str]]:
    """Checks the tar against the target folders before anything is written: every member belongs to
    a known root, stays inside it, and is a plain file or folder; a file already there must have the
    same content. Returns (files to write, files already there identical); raises otherwise."""
    new, same = 0, []
    with tarfile.open(source, "r:gz") as archive:
        for member in archive:
            parts = PurePosixPath(member.name).parts
            if not parts or parts[0] not in roots or member.name.startswith("/") or ".." in parts:
                raise BackupError(f"{source}: the member {member.name!r} lies outside the storage folders")
            if not (member.isfile() or member.isdir()):
                raise BackupError(f"{source}: the member {member.name!r} is neither a file nor a folder")
            if not member.isfile():
                continue
            target = roots[parts[0]].joinpath(*parts[1:])
            if not target.exists():
                new += 1
                continue
            stream = archive.extractfile(member)
            if not target.is_file() or _digest(stream) != _file_digest(target):
                raise BackupError(
                    f"{target} exists with other content than the backup's {member.name}: "
                    "restore into empty storage folders (MEDIA_ROOT, PRIVATE_ROOT)"
                )
            same.append(member.name)
    return new, same


def extract(source: Path, roots: dict[str, Path]) -> int:
    """Writes the tar's files into their roots (after plan() found nothing in the way)."""
    written = 0
    with tarfile.open(source, "r:gz") as archive:
        for member in archive:
            parts = PurePosixPath(member.name).parts
            root = roots[parts[0]]
            root.mkdir(parents=True, exist_ok=True)
            if len(parts) == 1:
                continue
            target = root.joinpath(*parts[1:])
            if member.isdir():
                target.mkdir(parents=True, exist_ok=True)
            elif not target.exists():
                target.parent.mkdir(parents=True, exist_ok=True)
                with archive.extractfile(member) as stream, target.open("wb") as out:
                    for block in iter(lambda: stream.read(1 << 20), b""):
                        out.write(block)
                written += 1
    return written
