"""One mechanism for the optional tools (tests/optional.py): a test that needs Stockfish, Chromium,
gettext, PostgreSQL or Redis says so with `needs(...)` or `require(...)`; without the tool it is
skipped naming the package and the apt-get command, and under REQUIRE_TEST_TOOLS=1 (CI's full pass)
it fails. No test file checks a tool by itself: the scan below fails on one, so the next test
cannot forget (a check of its own would skip where CI's full pass must fail, or look where the
site does not)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.db import connections

from tests.optional import STRICT, require, why_missing

TESTS = Path(__file__).resolve().parent
# Words that name an optional tool, its setting or its service in a skip's or a failure's reason.
TOOL_WORDS = (
    *("stockfish", "chromium", "gettext", "msgfmt", "xgettext", "redis", "postgres", "pg_dump", "pg_restore"),
    *("play_engine_path", "database_url", "celery_broker_url", "cache_url"),
)
SKIPPERS = {"skip", "fail", "skipif", "importorskip", "xfail"}


def _strings(node: ast.AST) -> str:
    """Every string constant under `node`, f-strings' literal parts too, lowercased."""
    return " ".join(n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)).lower()


def _dotted(node: ast.AST) -> str:
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    return node.id if isinstance(node, ast.Name) else ""


def own_checks(source: str) -> list[tuple[int, str]]:
    """(line, what) of each place where the code checks an optional tool by itself."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            name = _dotted(node.func)
            if name in ("os.access", "shutil.which", "which", "access"):
                found.append((node.lineno, f"{name}(): a tool looked for by hand"))
            elif name.rpartition(".")[2] in SKIPPERS and name.split(".")[0] == "pytest":
                words = [word for word in TOOL_WORDS if word in _strings(node)]
                if words:
                    found.append((node.lineno, f"{name}() about {words[0]}: a tool's skip of its own"))
            elif name.endswith("environ.get") or name.endswith("getenv"):
                if node.args and isinstance(node.args[0], ast.Constant) and node.args[0].value == "CI":
                    found.append((node.lineno, "the CI variable read: strictness is REQUIRE_TEST_TOOLS's"))
            elif name.endswith(".startswith") and any(w in _strings(node) for w in ("redis", "postgres")):
                found.append((node.lineno, "a service's URL inspected by hand"))
        elif isinstance(node, ast.Attribute) and node.attr == "vendor":
            found.append((node.lineno, ".vendor: the database looked at by hand"))
        elif isinstance(node, ast.Attribute | ast.Name | ast.alias):
            name = {ast.Attribute: "attr", ast.Name: "id", ast.alias: "name"}[type(node)]
            if getattr(node, name) == "DEFAULT_PATH":
                found.append((getattr(node, "lineno", 0), "DEFAULT_PATH: the engine is at PLAY_ENGINE_PATH"))
        elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and node.slice.value == "CI":
            found.append((node.lineno, "the CI variable read: strictness is REQUIRE_TEST_TOOLS's"))
    return sorted(found)


def test_it_finds_no_test_that_checks_an_optional_tool_by_itself():
    found = []
    for path in sorted(TESTS.rglob("*.py")):
        if path in (TESTS / "optional.py", Path(__file__).resolve()):
            continue
        for line, what in own_checks(path.read_text(encoding="utf-8")):
            found.append(f"{path.relative_to(TESTS.parent)}:{line}: {what}")
    assert found == [], "use pytest.mark.needs(...) or tests.optional.require(...) instead:\n" + "\n".join(found)


@pytest.mark.parametrize(
    "source",
    [
        'import os\nok = os.access("/usr/games/stockfish", os.X_OK)',
        'import shutil\nok = shutil.which("msgfmt")',
        "from play.computer.engine import DEFAULT_PATH",
        "from play.computer import engine\npath = engine.DEFAULT_PATH",
        'import pytest\npytest.skip("no Stockfish here")',
        'import pytest\nmark = pytest.mark.skipif(True, reason=f"Chromium is missing at {path}")',
        'import pytest\npytest.fail("the test needs Redis (CELERY_BROKER_URL)")',
        "from django.db import connection\npostgres = connection.vendor == 'postgresql'",
        'import os\nstrict = os.environ.get("CI")',
        'import os\nstrict = os.environ["CI"]',
        'from django.conf import settings\nok = settings.CELERY_BROKER_URL.startswith("redis")',
    ],
)
def test_it_catches_each_kind_of_check_of_its_own(source):
    assert len(own_checks(source)) == 1, own_checks(source)


def test_it_lets_the_mechanism_and_unrelated_skips_pass():
    source = (
        "import pytest\nfrom tests.optional import require, stockfish_path\n"
        'pytestmark = pytest.mark.needs("stockfish")\n'
        'def test_x():\n    require("redis")\n    pytest.skip("the fixture file has no second sheet")\n'
    )
    assert own_checks(source) == []


@pytest.fixture
def lenient(monkeypatch):
    monkeypatch.delenv(STRICT, raising=False)


def test_it_skips_without_stockfish_naming_the_package_and_the_command(settings, tmp_path, lenient):
    settings.PLAY_ENGINE_PATH = str(tmp_path / "stockfish")
    with pytest.raises(pytest.skip.Exception) as skipped:
        require("stockfish")
    assert f"no Stockfish at {tmp_path / 'stockfish'} (PLAY_ENGINE_PATH)" in str(skipped.value)
    assert "sudo apt-get install -y stockfish" in str(skipped.value)


def test_it_fails_instead_when_every_tool_is_required(settings, tmp_path, monkeypatch):
    settings.PLAY_ENGINE_PATH = str(tmp_path / "stockfish")
    monkeypatch.setenv(STRICT, "1")
    with pytest.raises(pytest.fail.Exception, match=f"{STRICT}=1 and needs stockfish: .*apt-get install -y stockfish"):
        require("stockfish")


def test_it_runs_the_test_when_the_tool_is_there(settings, tmp_path, monkeypatch):
    engine = tmp_path / "stockfish"
    engine.write_text("#!/bin/sh\n")
    engine.chmod(0o755)
    settings.PLAY_ENGINE_PATH = str(engine)
    monkeypatch.setenv(STRICT, "1")
    require("stockfish")  # neither skips nor fails


def test_it_looks_for_programs_on_the_path_and_chromium_where_chromium_says(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setenv("CHROMIUM", str(tmp_path / "chromium"))
    assert "no GNU gettext (xgettext, msgmerge, msguniq, msgattrib, msgfmt not on PATH)" in why_missing("gettext")
    assert "sudo apt-get install -y redis-server" in why_missing("redis-server")
    assert f"no Chromium at {tmp_path / 'chromium'} (CHROMIUM)" in why_missing("chromium")
    for program in ("msgfmt", "xgettext", "msgmerge", "msguniq", "msgattrib", "redis-server", "chromium"):
        (tmp_path / program).write_text("#!/bin/sh\n")
        (tmp_path / program).chmod(0o755)
    assert why_missing("gettext", "redis-server", "chromium") is None


def test_it_asks_for_the_services_the_test_run_is_given(settings, monkeypatch):
    settings.CELERY_BROKER_URL = None
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    reason = why_missing("redis")
    assert "set CELERY_BROKER_URL=redis://127.0.0.1:6379/5 and CACHE_URL=redis://127.0.0.1:6379/4" in reason
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:6379/5"
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache"}}
    assert why_missing("redis") is None
    monkeypatch.setattr(connections["default"], "vendor", "sqlite")
    assert "the test database is sqlite: set DATABASE_URL=postgres://" in why_missing("postgresql")
    assert "sudo apt-get install -y postgresql" in why_missing("postgresql")
    monkeypatch.setattr(connections["default"], "vendor", "postgresql")
    assert why_missing("postgresql") is None


def test_it_refuses_a_tool_it_does_not_know():
    with pytest.raises(ValueError, match="unknown optional tools \\['stockfis'\\]"):
        require("stockfis")
