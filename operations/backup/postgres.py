"""pg_dump and pg_restore: the client matching the server, connection parameters in the child's
environment (never the password on a command line, where `ps` shows it). Pure Python (no Django):
it takes a Django DATABASES entry as a plain dict."""

from __future__ import annotations

import glob
import os
import re
import shutil
import subprocess
from pathlib import Path

from operations.backup.folders import BackupError

_VERSION = re.compile(r"\(PostgreSQL\) (\d+)(?:\.(\d+))?")
DEBIAN_BINARIES = "/usr/lib/postgresql/*/bin"


def client_major(program: str) -> int | None:
    try:
        answer = subprocess.run(  # noqa: S603 - a PostgreSQL client found on PATH or in Debian's folders
            [program, "--version"], capture_output=True, text=True, timeout=30, check=False
        )
    except OSError:
        return None
    match = _VERSION.search(answer.stdout)
    return int(match.group(1)) if match else None


def candidates(tool: str, search: str = DEBIAN_BINARIES) -> list[str]:
    """The tool on PATH, then Debian's per-version folders, newest first."""
    found = [shutil.which(tool)] if shutil.which(tool) else []
    found += sorted(glob.glob(os.path.join(search, tool)), key=_folder_major, reverse=True)
    return found


def _folder_major(path: str) -> int:
    match = re.search(r"/(\d+)/bin/", path)
    return int(match.group(1)) if match else 0


def find_client(tool: str, server_major: int, *, search: str = DEBIAN_BINARIES) -> str:
    """The tool of the server's major version if there is one, else the oldest newer one (a newer
    client reads an older server; an older client refuses a newer server)."""
    versions = {}
    for program in candidates(tool, search):
        major = client_major(program)
        if major is not None and major >= server_major:
            versions.setdefault(major, program)
    if not versions:
        raise BackupError(
            f"no {tool} of PostgreSQL {server_major} or newer: install the client of the server's version "
            f"(on Debian: apt-get install postgresql-client-{server_major}); looked on PATH and in {search}"
        )
    return versions[min(versions)]


def child_environment(database: dict, base: dict[str, str] | None = None) -> dict[str, str]:
    """libpq's variables for a Django DATABASES entry; the password as PGPASSWORD (an operator's
    ~/.pgpass or PGPASSFILE still works when DATABASES has none)."""
    environment = dict(os.environ if base is None else base)
    for variable in ("PGHOST", "PGPORT", "PGUSER", "PGPASSWORD", "PGDATABASE", "PGSERVICE", "PGOPTIONS"):
        environment.pop(variable, None)
    pairs = {
        "PGHOST": database.get("HOST"),
        "PGPORT": database.get("PORT"),
        "PGUSER": database.get("USER"),
        "PGPASSWORD": database.get("PASSWORD"),
        "PGDATABASE": database.get("NAME"),
    }
    options = database.get("OPTIONS") or {}
    for key, variable in (
        ("sslmode", "PGSSLMODE"),
        ("sslrootcert", "PGSSLROOTCERT"),
        ("sslcert", "PGSSLCERT"),
        ("sslkey", "PGSSLKEY"),
    ):
        if options.get(key):
            pairs[variable] = options[key]
    environment.update({key: str(value) for key, value in pairs.items() if value not in (None, "")})
    return environment


def _run(arguments: list[str], environment: dict[str, str], what: str) -> None:
    answer = subprocess.run(  # noqa: S603 - pg_dump/pg_restore with our own arguments, no shell
        arguments, env=environment, capture_output=True, text=True, check=False
    )
    if answer.returncode != 0:
        message = (answer.stderr or answer.stdout).strip().splitlines()
        detail = "; ".join(message[-5:]) if message else f"exit status {answer.returncode}"
        raise BackupError(f"{what} failed: {detail}")


def dump(program: str, database: dict, target: Path, *, snapshot: str | None = None) -> None:
    """A custom-format dump (compressed; pg_restore can restore it table by table)."""
    arguments = [program, "--format=custom", "--no-password", f"--file={target}"]
    if snapshot:
        arguments.append(f"--snapshot={snapshot}")
    _run(arguments, child_environment(database), "pg_dump")


def restore(program: str, database: dict, source: Path) -> None:
    """Into the (empty) database in one transaction: all of it or nothing. Objects are owned by the
    restoring user (--no-owner), so a backup restores under another role name."""
    arguments = [
        program,
        "--no-password",
        "--no-owner",
        "--no-privileges",
        "--exit-on-error",
        "--single-transaction",
        f"--dbname={database.get('NAME')}",
        str(source),
    ]
    _run(arguments, child_environment(database), "pg_restore")
