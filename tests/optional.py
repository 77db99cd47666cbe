"""The optional tools of the test suite, in one place: what each is for (a comment), how the suite finds it (the
path or setting the site's own code reads), and the Debian package that provides it.

A test that needs one says so with the `needs` marker, never with a check of its own
(tests/test_optional_tools.py fails on one):

    pytestmark = pytest.mark.needs("stockfish")             # the whole module
    @pytest.mark.needs("postgresql", "redis")                # one test
    pytest.param("play computer", marks=pytest.mark.needs("stockfish"))   # one case

A fixture that needs one (a session fixture cannot read its tests' markers) calls `require(...)`.

Without the tool the test is skipped, and the reason names the package and the apt-get command
that installs it. With REQUIRE_TEST_TOOLS=1 (CI's full pass, .ci/run) a missing tool fails the test
instead: there every tool must be present. tests/conftest.py loads this module as a plugin; the
marker is registered in pyproject.toml.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
from collections.abc import Callable

import pytest

STRICT = "REQUIRE_TEST_TOOLS"
GETTEXT_PROGRAMS = ("xgettext", "msgmerge", "msguniq", "msgattrib", "msgfmt")


def stockfish_path() -> str:
    """The engine the site plays with (settings.PLAY_ENGINE_PATH, from the environment)."""
    from django.conf import settings

    return settings.PLAY_ENGINE_PATH


def chromium_path() -> str:
    """The browser the browser tests drive: Debian's, or CHROMIUM's."""
    return os.environ.get("CHROMIUM", "/usr/bin/chromium")


def redis_server_path() -> str | None:
    return shutil.which("redis-server")


def gettext_programs() -> dict[str, str | None]:
    return {program: shutil.which(program) for program in GETTEXT_PROGRAMS}


def _stockfish() -> str | None:
    path = stockfish_path()
    if os.path.isfile(path) and os.access(path, os.X_OK):
        return None
    return f"no Stockfish at {path} (PLAY_ENGINE_PATH)"


def _chromium() -> str | None:
    return None if shutil.which(chromium_path()) else f"no Chromium at {chromium_path()} (CHROMIUM)"


def _gettext() -> str | None:
    missing = [program for program, path in gettext_programs().items() if path is None]
    return f"no GNU gettext ({', '.join(missing)} not on PATH)" if missing else None


def _postgresql() -> str | None:
    from django.db import connection

    if connection.vendor == "postgresql":
        return None
    return f"the test database is {connection.vendor}: set DATABASE_URL=postgres://postgres@127.0.0.1:5432/federation"


def _redis() -> str | None:
    from django.conf import settings

    missing = []
    if not (settings.CELERY_BROKER_URL or "").startswith(("redis://", "rediss://")):
        missing.append("CELERY_BROKER_URL=redis://127.0.0.1:6379/5")
    if "RedisCache" not in settings.CACHES["default"]["BACKEND"]:
        missing.append("CACHE_URL=redis://127.0.0.1:6379/4")
    return f"no Redis for the test run: set {' and '.join(missing)}" if missing else None


def _redis_server() -> str | None:
    return None if redis_server_path() else "no redis-server on PATH"


@dataclasses.dataclass(frozen=True)
class Tool:
    name: str
    package: str  # the Debian package that provides it
    missing: Callable[[], str | None]  # why it is missing here, None when present


TOOLS = {
    tool.name: tool
    for tool in (
        Tool("stockfish", "stockfish", _stockfish),  # the computer opponents
        Tool("chromium", "chromium", _chromium),  # the browser tests
        Tool("gettext", "gettext", _gettext),  # the translation tests
        Tool("postgresql", "postgresql", _postgresql),  # COPY, row locks, pg_dump, the real workers
        Tool("redis", "redis-server", _redis),  # the real workers' broker, the scheduler lock, the shared cache
        Tool("redis-server", "redis-server", _redis_server),  # servers of the tests' own, stopped for outages
    )
}


def strict() -> bool:
    return os.environ.get(STRICT, "") not in ("", "0")


def why_missing(*names: str) -> str | None:
    """Why the named tools cannot be used here, each with its package and apt-get command."""
    reasons = []
    for name in names:
        tool = TOOLS[name]
        problem = tool.missing()
        if problem:
            reasons.append(f"needs {name}: {problem}; install: sudo apt-get install -y {tool.package}")
    return " | ".join(reasons) or None


def require(*names: str) -> None:
    """Skip the current test (fail it under REQUIRE_TEST_TOOLS=1) unless every named tool is here."""
    unknown = sorted(set(names) - set(TOOLS))
    if unknown:
        raise ValueError(f"unknown optional tools {unknown}: tests/optional.py knows {sorted(TOOLS)}")
    reason = why_missing(*names)
    if reason is None:
        return
    if strict():
        pytest.fail(f"{STRICT}=1 and {reason}", pytrace=False)
    pytest.skip(reason)


def pytest_report_header(config):
    """Which tools this run has, first thing in the log: a reader of CI's passes sees what each had."""
    missing = [name for name, tool in TOOLS.items() if tool.missing()]
    present = [name for name in TOOLS if name not in missing]
    then = "fail (REQUIRE_TEST_TOOLS=1)" if strict() else "skip"
    return (
        f"optional tools (tests/optional.py): present: {', '.join(present) or 'none'}; "
        f"missing: {', '.join(missing) or 'none'} (tests needing them {then})"
    )


def pytest_collection_modifyitems(config, items):
    for item in items:
        for marker in item.iter_markers("needs"):
            unknown = sorted(set(marker.args) - set(TOOLS))
            if unknown or not marker.args:
                raise pytest.UsageError(f"{item.nodeid}: needs{marker.args}: the tools are {sorted(TOOLS)}")


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    # Before any fixture is set up: a worker, a browser or a database copy is never started for a
    # test that cannot run.
    names = [name for marker in item.iter_markers("needs") for name in marker.args]
    if names:
        require(*dict.fromkeys(names))
