"""Every message of the site has its Russian (issue 24, 1b).

A fresh extraction (the Makefile's own `make messages` command: templates, Python of every app,
the game's texts, the JavaScript's domain when a script has words) runs on a temporary copy of the
project, merging into a copy of the committed catalogue as msgmerge does; the repository is never
written. The merged catalogue must have a Russian text for every message and none marked fuzzy (a
fuzzy entry is an older translation msgmerge guessed for a new message: the page would show English,
or a wrong Russian text). The committed catalogue must hold exactly the messages of the code (none
missing, none stale), pass msgfmt's checks of its placeholders and plural forms, and its compiled
.mo must be what that catalogue compiles to.

The tests that run GNU gettext's programs need it (`needs("gettext")`, tests/optional.py): without it
they are skipped naming the package, and CI's full pass, which installs it, fails them instead.
"""

from __future__ import annotations

import gettext
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.optional import gettext_programs

ROOT = Path(__file__).resolve().parent.parent.parent
CATALOGUE = ROOT / "locale" / "ru" / "LC_MESSAGES"
# What the copy leaves out: the repository's history, environments and caches hold no messages.
NOT_COPIED = shutil.ignore_patterns(".git", ".venv", "__pycache__", ".pytest_cache", ".ruff_cache", "node_modules")


def makemessages_commands() -> list[list[str]]:
    """The makemessages lines of the Makefile's `messages` recipe: the test runs what `make
    messages` runs, so the two cannot drift apart."""
    lines = (ROOT / "Makefile").read_text().splitlines()
    start = lines.index(next(line for line in lines if line.startswith("messages:"))) + 1
    commands = []
    for line in lines[start:]:
        if not line.startswith("\t"):
            break
        words = shlex.split(line.strip())
        if words[:3] == ["$(PY)", "manage.py", "makemessages"]:
            commands.append([sys.executable, *words[1:]])
    assert commands, "the Makefile's messages recipe runs no makemessages"
    return commands


def parse_po(path: Path) -> dict[tuple[str, str, str], dict]:
    """The live entries of a .po file by (context, msgid, plural msgid): their translations and
    flags. Obsolete entries (#~) are not messages of the code and are left out; the header too."""
    entries: dict[tuple[str, str, str], dict] = {}
    current: dict = {}
    field = None

    def finish():
        if current.get("msgid") is not None and current["msgid"] != "":
            key = (current.get("msgctxt", ""), current["msgid"], current.get("msgid_plural", ""))
            entries[key] = {"msgstr": current.get("msgstr", {}), "flags": current.get("flags", set())}

    for raw in [*path.read_text(encoding="utf-8").splitlines(), ""]:
        line = raw.strip()
        if not line:
            finish()
            current, field = {}, None
        elif line.startswith("#,"):
            current.setdefault("flags", set()).update(flag.strip() for flag in line[2:].split(","))
        elif line.startswith("#"):
            continue
        elif line.startswith('"'):
            text = decode(line)
            if isinstance(field, tuple):
                current["msgstr"][field[1]] += text
            else:
                current[field] += text
        else:
            keyword, _, rest = line.partition(" ")
            if keyword.startswith("msgstr"):
                index = keyword[len("msgstr[") : -1] if "[" in keyword else "0"
                current.setdefault("msgstr", {})[index] = decode(rest)
                field = ("msgstr", index)
            else:
                current[keyword] = decode(rest)
                field = keyword
    return entries


ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


def decode(quoted: str) -> str:
    return re.sub(r"\\(.)", lambda escape: ESCAPES.get(escape[1], escape[0]), quoted.strip()[1:-1])


def describe(key: tuple[str, str, str]) -> str:
    context, msgid, _ = key
    return f"[{context}] {msgid}" if context else msgid


@pytest.fixture(scope="module")
def fresh(tmp_path_factory) -> Path:
    """The catalogue a fresh `make messages` extraction gives, in a temporary copy of the project."""
    copy = tmp_path_factory.mktemp("extraction") / "project"
    shutil.copytree(ROOT, copy, ignore=NOT_COPIED)
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "federation.settings_test", "PYTHONPATH": str(copy)}
    for command in makemessages_commands():
        done = subprocess.run(command, cwd=copy, env=env, capture_output=True, text=True, check=False)  # noqa: S603
        assert done.returncode == 0, f"{shlex.join(command)} failed:\n{done.stdout}\n{done.stderr}"
    return copy / "locale" / "ru" / "LC_MESSAGES"


@pytest.mark.needs("gettext")
def test_it_has_a_russian_text_for_every_message_of_a_fresh_extraction(fresh):
    entries = parse_po(fresh / "django.po")
    assert len(entries) > 500  # the extraction found the site's messages
    missing = [describe(key) for key, entry in entries.items() if not all(entry["msgstr"].values())]
    fuzzy = [describe(key) for key, entry in entries.items() if "fuzzy" in entry["flags"]]
    assert (missing, fuzzy) == ([], []), (
        f"{len(missing)} messages without a Russian translation, {len(fuzzy)} marked fuzzy "
        "(run `make messages` and translate them)"
    )


@pytest.mark.needs("gettext")
def test_it_commits_the_catalogue_of_exactly_the_messages_of_the_code(fresh):
    """A message the code no longer has (stale) or a new one not yet in the catalogue fails."""
    committed = set(parse_po(CATALOGUE / "django.po"))
    extracted = set(parse_po(fresh / "django.po"))
    assert sorted(map(describe, extracted - committed)) == []
    assert sorted(map(describe, committed - extracted)) == []


@pytest.mark.needs("gettext")
def test_it_commits_a_javascript_catalogue_exactly_when_a_script_has_words(fresh):
    """The scripts carry no words today (the pages give them theirs through data- attributes), so
    the extraction of the djangojs domain finds none; a script that calls gettext makes one, which
    must then be committed (and translated: the same checks apply to it)."""
    assert (fresh / "djangojs.po").exists() == (CATALOGUE / "djangojs.po").exists()
    if (fresh / "djangojs.po").exists():
        entries = parse_po(fresh / "djangojs.po")
        assert [describe(key) for key, entry in entries.items() if "fuzzy" in entry["flags"]] == []
        assert [describe(key) for key, entry in entries.items() if not all(entry["msgstr"].values())] == []
        assert set(entries) == set(parse_po(CATALOGUE / "djangojs.po"))


@pytest.mark.needs("gettext")
def test_it_passes_msgfmt_checks_of_placeholders_and_plural_forms():
    msgfmt = gettext_programs()["msgfmt"]
    done = subprocess.run(  # noqa: S603
        [msgfmt, "--check", "-o", os.devnull, str(CATALOGUE / "django.po")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")


def test_it_uses_russian_plural_forms_and_fills_every_one():
    header = (CATALOGUE / "django.po").read_text(encoding="utf-8").split("\n\n", 1)[0]
    # Django's own Russian catalogue's rule (one, few, many, and the fourth form for fractions):
    # both catalogues merge into one translation, so they must count alike.
    assert "nplurals=4; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && " in header
    with_plurals = {key: entry for key, entry in parse_po(CATALOGUE / "django.po").items() if key[2]}
    assert with_plurals
    assert {describe(key) for key, entry in with_plurals.items() if sorted(entry["msgstr"]) != list("0123")} == set()
    with open(CATALOGUE / "django.mo", "rb") as compiled:
        russian = gettext.GNUTranslations(compiled)
    assert russian.ngettext("%(tries)s try left.", "%(tries)s tries left.", 1) == "Осталась %(tries)s попытка."
    assert russian.ngettext("%(tries)s try left.", "%(tries)s tries left.", 3) == "Осталось %(tries)s попытки."
    assert russian.ngettext("%(tries)s try left.", "%(tries)s tries left.", 5) == "Осталось %(tries)s попыток."


@pytest.mark.needs("gettext")
def test_it_commits_the_compiled_catalogue_of_the_committed_one(tmp_path):
    msgfmt = gettext_programs()["msgfmt"]
    compiled = tmp_path / "django.mo"
    subprocess.run([msgfmt, "--check-format", "-o", str(compiled), str(CATALOGUE / "django.po")], check=True)  # noqa: S603
    with open(compiled, "rb") as fresh_mo, open(CATALOGUE / "django.mo", "rb") as committed_mo:
        expected = gettext.GNUTranslations(fresh_mo)._catalog
        actual = gettext.GNUTranslations(committed_mo)._catalog
    stale = sorted(str(key) for key in expected.keys() | actual.keys() if expected.get(key) != actual.get(key))
    assert stale == [], "the .mo is out of date: run `manage.py compilemessages --ignore=.venv`"
