"""Configuration comes from the environment and bad values stop the site loudly."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from federation.env import env_bool, env_broker, env_choice, env_database, env_float, env_int, env_list, env_str

ROOT = Path(__file__).resolve().parents[2]
# A secret that `check --deploy` accepts: long, varied and without the insecure prefix.
GOOD_SECRET = "p9!x2Lk#Qw7zR4tY8uI0oPa5sD6fG3hJ1kLzXcVbNm-QwErTyUiOp"


def test_it_reads_booleans_in_the_usual_spellings():
    for text in ("1", "true", "True", "yes", "on"):
        assert env_bool("X", False, environ_={"X": text}) is True
    for text in ("0", "false", "no", "OFF"):
        assert env_bool("X", True, environ_={"X": text}) is False


def test_it_uses_the_default_when_unset_or_blank():
    assert env_bool("X", True, environ_={}) is True
    assert env_bool("X", True, environ_={"X": "  "}) is True
    assert env_int("X", 7, environ_={}) == 7
    assert env_str("X", "d", environ_={}) == "d"


def test_it_rejects_a_boolean_it_does_not_understand():
    with pytest.raises(ImproperlyConfigured, match="X='maybe' is not a boolean"):
        env_bool("X", False, environ_={"X": "maybe"})


def test_it_rejects_a_bad_number_and_one_below_the_minimum():
    with pytest.raises(ImproperlyConfigured, match="not a whole number"):
        env_int("X", 1, environ_={"X": "12abc"})
    with pytest.raises(ImproperlyConfigured, match="below the minimum"):
        env_int("X", 1, minimum=10, environ_={"X": "3"})


def test_it_reads_numbers_with_a_minimum():
    assert env_float("X", 1.1, environ_={}) == 1.1
    assert env_float("X", 1.1, minimum=0.1, environ_={"X": "4"}) == 4.0
    with pytest.raises(ImproperlyConfigured, match="X='fast' is not a number"):
        env_float("X", 1.1, environ_={"X": "fast"})
    with pytest.raises(ImproperlyConfigured, match="below the minimum"):
        env_float("X", 1.1, minimum=0.1, environ_={"X": "0"})
    with pytest.raises(ImproperlyConfigured, match="X='nan' is not a number"):
        env_float("X", 1.1, minimum=0.1, environ_={"X": "nan"})


def test_it_rejects_an_unknown_choice():
    with pytest.raises(ImproperlyConfigured, match="must be one of"):
        env_choice("DJANGO_ENV", "development", ("development", "production"), environ_={"DJANGO_ENV": "prod"})


def test_it_splits_lists_and_rejects_empty_items():
    assert env_list("H", [], environ_={"H": "a.org, b.org"}) == ["a.org", "b.org"]
    with pytest.raises(ImproperlyConfigured, match="empty item"):
        env_list("H", [], environ_={"H": "a.org,,b.org"})


def test_it_parses_postgres_and_sqlite_urls():
    pg = env_database("DATABASE_URL", "", environ_={"DATABASE_URL": "postgres://postgres@127.0.0.1:5432/fed"})
    assert pg["ENGINE"] == "django.db.backends.postgresql"
    assert pg["NAME"] == "fed"
    assert pg["HOST"] == "127.0.0.1"
    lite = env_database("DATABASE_URL", "sqlite:////tmp/x.sqlite3", environ_={})
    assert lite["ENGINE"] == "django.db.backends.sqlite3"


def test_it_rejects_other_databases_and_missing_names():
    with pytest.raises(ImproperlyConfigured, match="scheme 'mysql'"):
        env_database("DATABASE_URL", "", environ_={"DATABASE_URL": "mysql://root@localhost/fed"})
    with pytest.raises(ImproperlyConfigured, match="names no database"):
        env_database("DATABASE_URL", "", environ_={"DATABASE_URL": "postgres://postgres@localhost/"})


def test_it_accepts_only_redis_brokers():
    assert env_broker("B", None, environ_={"B": "redis://127.0.0.1:6379/3"}) == "redis://127.0.0.1:6379/3"
    assert env_broker("B", None, environ_={}) is None
    with pytest.raises(ImproperlyConfigured, match="scheme 'amqp'"):
        env_broker("B", None, environ_={"B": "amqp://guest@localhost//"})


def run_manage(*args, **env):
    """Run manage.py in a clean environment: only what the test sets is configured."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO", "DATABASE", "CELERY", "SECRET"))}
    clean.pop("ALLOWED_HOSTS", None)
    clean.pop("DEBUG", None)
    clean.update(env)
    return subprocess.run(  # noqa: S603
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


PRODUCTION = {
    "DJANGO_ENV": "production",
    "SECRET_KEY": GOOD_SECRET,
    "ALLOWED_HOSTS": "ratings.example.org",
    "DATABASE_URL": "postgres://federation@db.example.org:5432/ratings",
    "CELERY_BROKER_URL": "redis://cache.example.org:6379/0",
    "SITE_URL": "https://ratings.example.org",
}


@pytest.mark.parametrize(
    ("missing", "message"),
    [
        ("SECRET_KEY", "SECRET_KEY must be set"),
        ("ALLOWED_HOSTS", "ALLOWED_HOSTS must be set"),
        ("DATABASE_URL", "DATABASE_URL must be set"),
        ("CELERY_BROKER_URL", "CELERY_BROKER_URL must be set"),
        ("SITE_URL", "SITE_URL must be an http(s) address"),
    ],
)
def test_it_refuses_production_without_each_secret(missing, message):
    env = {k: v for k, v in PRODUCTION.items() if k != missing}
    result = run_manage("check", **env)
    assert result.returncode != 0
    assert message in result.stderr


def test_it_refuses_production_on_sqlite_or_with_debug():
    result = run_manage("check", **{**PRODUCTION, "DATABASE_URL": "sqlite:////tmp/prod.sqlite3"})
    assert "needs a PostgreSQL DATABASE_URL" in result.stderr
    result = run_manage("check", **{**PRODUCTION, "DEBUG": "true"})
    assert "DEBUG must be off" in result.stderr


def test_it_passes_the_deployment_checks_in_production():
    result = run_manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


def test_it_refuses_a_site_url_that_is_not_an_address():
    result = run_manage("check", SITE_URL="ratings.example.org")
    assert result.returncode != 0
    assert "SITE_URL must be an http(s) address" in result.stderr


def test_it_names_the_variable_with_a_bad_value():
    result = run_manage("check", DEBUG="perhaps")
    assert result.returncode != 0
    assert "DEBUG='perhaps' is not a boolean" in result.stderr


def test_it_runs_on_sqlite_with_eager_tasks_when_nothing_is_set():
    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='federation.settings'; django.setup();"
        "from django.conf import settings as s;"
        "print(s.DATABASES['default']['ENGINE'], s.CELERY_TASK_ALWAYS_EAGER, s.DEBUG, s.CELERY_BROKER_URL)"
    )
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO", "DATABASE", "CELERY", "DEBUG"))}
    result = subprocess.run(  # noqa: S603
        [sys.executable, "-c", code], cwd=ROOT, env=clean, capture_output=True, text=True, check=True
    )
    assert result.stdout.split() == ["django.db.backends.sqlite3", "True", "True", "memory://localhost/"]


def test_it_uses_real_workers_when_a_broker_is_set():
    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='federation.settings'; django.setup();"
        "from django.conf import settings as s; print(s.CELERY_TASK_ALWAYS_EAGER, s.CELERY_BROKER_URL)"
    )
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO", "CELERY"))}
    clean["CELERY_BROKER_URL"] = "redis://127.0.0.1:6379/9"
    result = subprocess.run(  # noqa: S603
        [sys.executable, "-c", code], cwd=ROOT, env=clean, capture_output=True, text=True, check=True
    )
    assert result.stdout.split() == ["False", "redis://127.0.0.1:6379/9"]


def test_every_variable_read_is_documented():
    """Every variable the settings read appears in the README and in .env.example."""
    import re

    source = (ROOT / "federation" / "settings.py").read_text()
    names = set(re.findall(r'env_\w+\(\s*"([A-Z_]+)"', source)) | set(re.findall(r'env_str\("([A-Z_]+)"\)', source))
    readme = (ROOT / "README.md").read_text()
    example = (ROOT / ".env.example").read_text()
    assert names, "no variables found: the pattern above is out of date"
    for name in sorted(names):
        assert f"`{name}`" in readme, f"{name} is not documented in README.md"
        assert re.search(rf"^#?\s*{name}=", example, re.M), f"{name} is missing from .env.example"
