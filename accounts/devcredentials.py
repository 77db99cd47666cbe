"""The passwords of the development accounts `make run` makes (the admin, the demo's arbiter, TD and
players), kept so that every `make run` ends with them, the second as well as the first.

Development only: with DEV_CREDENTIALS_FILE unset (production) nothing is written nor read, and a
password is printed once, as ever. The file (var/credentials.json) is 0600 in a 0700 folder that git
ignores; it holds passwords of a local demo, which the same person can reset at will. Each entry keeps
the password's hash as stored when it was made: an account whose password was changed since (through
the site or the admin) is listed as changed, without hashing anything again (a check of the password
itself costs a third of a second per account, at every start of the server). Entries are kept per
database: a developer who tries PostgreSQL (DATABASE_URL) and comes back to db.sqlite3 finds each
one's passwords.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection

WIDTH = 78


def _file() -> Path | None:
    path = getattr(settings, "DEV_CREDENTIALS_FILE", None)
    return Path(path) if path else None


def _read(path: Path) -> dict:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        # Missing or damaged: the accounts are listed without their passwords, never a crash at start.
        return {}


def _database() -> str:
    """Which database the accounts are in (its engine, server and name; never its password)."""
    config = connection.settings_dict
    return f"{config['ENGINE']} {config.get('HOST') or ''}:{config.get('PORT') or ''} {config['NAME']}"


def remember(user, password: str, *, what: str, path: str) -> bool:
    """Keep `user`'s new `password` (just set) with what to try with the account and where; False in
    production, where nothing is kept."""
    file = _file()
    if file is None:
        return False
    file.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    file.parent.chmod(0o700)
    known = _read(file)
    entry = {"password": password, "hash": user.password, "what": what, "path": path}
    known.setdefault(_database(), {})[user.get_username()] = entry
    # Written whole under another name, made 0600 before a byte is in it, then renamed over the old one.
    temporary = file.with_suffix(".tmp")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as out:
        json.dump(known, out, indent=1, ensure_ascii=False)
    temporary.chmod(0o600)
    temporary.replace(file)
    return True


def accounts() -> list[dict]:
    """The kept accounts that still exist, in the order they were made: username, what, path and the
    password, or None when it was changed since."""
    file = _file()
    if file is None:
        return []
    known = _read(file).get(_database(), {})
    hashes = dict(get_user_model().objects.filter(username__in=list(known)).values_list("username", "password"))
    found = []
    for username, entry in known.items():
        if username not in hashes:
            continue  # the database was made anew without this account (db.sqlite3 deleted)
        password = entry.get("password") if hashes[username] == entry.get("hash") else None
        found.append({"username": username, "password": password, "what": entry["what"], "path": entry["path"]})
    return found


def welcome(address: str, *, everywhere: bool = False) -> str:
    """The block `make run` ends with: where the site is, who can log in with what, where to start
    (`everywhere`: the server listens on every interface, not only at `address`)."""
    site = address.rstrip("/")
    listed = accounts()
    rule = "=" * WIDTH
    lines = [
        "",
        rule,
        f"  The site is running at {site}/",
        "  (stop it with Ctrl-C; `make run` again keeps the data, delete db.sqlite3 to start afresh)",
        "",
    ]
    if everywhere:
        lines[-1:-1] = ["  It listens on every interface: from another machine use this one's name or address."]
    if listed:
        changed = any(entry["password"] is None for entry in listed)
        for entry in listed:
            entry["password"] = entry["password"] or "(changed)"
        name_width = max(len(entry["username"]) for entry in listed)
        password_width = max(len(entry["password"]) for entry in listed)
        lines.append(f"  Log in at {site}/accounts/login/ as:")
        for entry in listed:
            password = entry["password"]
            lines.append(f"    {entry['username']:<{name_width}}  {password:<{password_width}}  {entry['what']}")
            lines.append(f"    {'':<{name_width}}  {'':<{password_width}}  {site}{entry['path']}")
        lines.append(f"  (development passwords, kept in {_shown(_file())} for the next `make run`)")
        if changed:
            lines.append("  (changed): changed since; `.venv/bin/python manage.py changepassword NAME` sets another")
    else:
        # A database made before `make run` kept them, or production (which keeps none).
        lines.append("  No passwords are kept for this database: `.venv/bin/python manage.py changepassword admin`.")
    lines += [
        "",
        "  Start from:",
        f"    {site}/              the home page: this month's lists and the latest tournaments",
        f"    {site}/ratings/      the rating lists, each player's history a click away",
        f"    {site}/tournaments/  the tournaments rated, each with its report",
    ]
    logs = sorted((Path(settings.VAR_DIR) / "log").glob("*.log"))
    if logs:
        lines += ["", "  Logs: " + ", ".join(_shown(log) for log in logs) + "; below, the requests as they come."]
    lines += [rule, ""]
    return "\n".join(lines)


def _shown(path: Path | None) -> str:
    """A path under the project folder as the developer typed `make run` there: var/log/demo.log."""
    if path is None:
        return ""
    try:
        return str(path.relative_to(settings.BASE_DIR))
    except ValueError:
        return str(path)
