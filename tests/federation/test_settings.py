"""Configuration comes from the environment and bad values stop the site loudly."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from federation.env import (
    env_bool,
    env_broker,
    env_cache,
    env_choice,
    env_database,
    env_float,
    env_int,
    env_list,
    env_str,
)

ROOT = Path(__file__).resolve().parents[2]
# A secret that `check --deploy` accepts: long, varied and without the insecure prefix.
# `make run HOST=0.0.0.0`: every interface.
EVERYWHERE = "0.0.0.0"  # noqa: S104
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
    for name in ("ALLOWED_HOSTS", "DEBUG", "CACHE_URL", "EMAIL_BACKEND", "SITE_URL", "TRUSTED_PROXY_HEADER"):
        clean.pop(name, None)
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
    "CACHE_URL": "redis://cache.example.org:6379/1",
    "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
}


@pytest.mark.parametrize(
    ("missing", "message"),
    [
        ("SECRET_KEY", "SECRET_KEY must be set"),
        ("ALLOWED_HOSTS", "ALLOWED_HOSTS must be set"),
        ("DATABASE_URL", "DATABASE_URL must be set"),
        ("CELERY_BROKER_URL", "CELERY_BROKER_URL must be set"),
        ("SITE_URL", "SITE_URL must be an http(s) address"),
        ("CACHE_URL", "CACHE_URL must be a redis://host:port/db address"),
        ("EMAIL_BACKEND", "EMAIL_BACKEND=django.core.mail.backends.console.EmailBackend loses every mail"),
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


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("SECRET_KEY", "short-but-set", "SECRET_KEY is too weak"),
        ("SECRET_KEY", "ab" * 40, "SECRET_KEY is too weak"),
        ("SECRET_KEY", "django-insecure-" + GOOD_SECRET, "SECRET_KEY is too weak"),
        ("ALLOWED_HOSTS", "*", "ALLOWED_HOSTS=* is refused"),
        ("ALLOWED_HOSTS", "ratings.example.org,*", "ALLOWED_HOSTS=* is refused"),
        ("SITE_URL", "http://ratings.example.org", "SITE_URL must start with https://"),
        ("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend", "EMAIL_BACKEND="),
        ("EMAIL_BACKEND", "django.core.mail.backends.locmem.EmailBackend", "EMAIL_BACKEND="),
        ("CACHE_URL", "locmem://", "CACHE_URL must be a redis://host:port/db address"),
        ("CACHE_URL", "redis://cache.example.org:6379/0", "CACHE_URL and CELERY_BROKER_URL must use different"),
    ],
)
def test_it_refuses_unsafe_production_values_naming_the_variable(name, value, message):
    result = run_manage("check", **{**PRODUCTION, name: value})
    assert result.returncode != 0
    assert message in result.stderr


def test_it_accepts_the_same_values_in_development():
    """The production refusals stay out of a developer's way."""
    result = run_manage(
        "check",
        SECRET_KEY="short",
        ALLOWED_HOSTS="*",
        SITE_URL="http://127.0.0.1:8000",
        EMAIL_BACKEND="django.core.mail.backends.console.EmailBackend",
    )
    assert result.returncode == 0, result.stderr


def test_it_reads_the_cache_url():
    assert env_cache("CACHE_URL", production=False, environ_={}) == {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "federation",
    }
    locmem = env_cache("CACHE_URL", production=False, environ_={"CACHE_URL": "locmem://"})
    assert locmem["BACKEND"] == "django.core.cache.backends.locmem.LocMemCache"
    redis = env_cache("CACHE_URL", production=True, environ_={"CACHE_URL": "redis://127.0.0.1:6379/4"})
    assert redis == {
        "BACKEND": "toolkit.rediscache.RedisCache",
        "LOCATION": "redis://127.0.0.1:6379/4",
        "OPTIONS": {"socket_connect_timeout": 2.0, "socket_timeout": 2.0},
    }


def test_it_gives_up_on_a_cache_that_accepts_and_never_answers():
    """A Redis that hangs: the connection is accepted and nothing comes back. The cache call must
    fail (the site survives a failing cache) rather than hold the request for ever."""
    import socket
    import threading

    from django.core.cache.backends.redis import RedisCache

    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)
    url = f"redis://127.0.0.1:{silent.getsockname()[1]}/0"
    entry = env_cache("CACHE_URL", production=True, environ_={"CACHE_URL": url}, timeout=0.5)
    cache = RedisCache(entry["LOCATION"], {"OPTIONS": entry["OPTIONS"]})
    outcome = []

    def ask():
        try:
            outcome.append(cache.get("anything"))
        except Exception as error:  # the kind of failure is what the test reads
            outcome.append(error)

    asking = threading.Thread(target=ask, daemon=True)
    asking.start()
    asking.join(60)  # not a speed target: without the timeout the thread would never end
    silent.close()
    assert not asking.is_alive(), "the cache call still waits on a silent Redis"
    assert isinstance(outcome[0], TimeoutError) or "Timeout" in type(outcome[0]).__name__, outcome


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("memcached://127.0.0.1:11211", "scheme 'memcached'"),
        ("redis://127.0.0.1:6379/cache", "is not a redis://host:port/db address"),
        ("redis:///4", "is not a redis://host:port/db address"),
        ("redis://127.0.0.1:port/4", "is not a redis://host:port/db address"),
        ("locmem://somewhere", "write locmem:// alone"),
    ],
)
def test_it_rejects_a_bad_cache_url(value, message):
    with pytest.raises(ImproperlyConfigured, match=message):
        env_cache("CACHE_URL", production=False, environ_={"CACHE_URL": value})


def test_it_keeps_the_cache_password_out_of_its_message():
    with pytest.raises(ImproperlyConfigured) as error:
        env_cache("CACHE_URL", production=False, environ_={"CACHE_URL": "redis://:hunter2@127.0.0.1:6379/x"})
    assert "hunter2" not in str(error.value)


def test_it_needs_a_redis_cache_in_production():
    with pytest.raises(ImproperlyConfigured, match="CACHE_URL must be a redis"):
        env_cache("CACHE_URL", production=True, environ_={})


def test_it_uses_the_redis_cache_when_a_cache_url_is_set():
    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='federation.settings'; django.setup();"
        "from django.conf import settings as s; print(s.CACHES['default']['BACKEND'])"
    )
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO", "CELERY", "CACHE"))}
    result = subprocess.run(  # noqa: S603
        [sys.executable, "-c", code], cwd=ROOT, env=clean, capture_output=True, text=True, check=True
    )
    assert result.stdout.split() == ["django.core.cache.backends.locmem.LocMemCache"]
    clean["CACHE_URL"] = "redis://127.0.0.1:6379/9"
    result = subprocess.run(  # noqa: S603
        [sys.executable, "-c", code], cwd=ROOT, env=clean, capture_output=True, text=True, check=True
    )
    assert result.stdout.split() == ["toolkit.rediscache.RedisCache"]


def test_it_refuses_a_proxy_header_that_is_not_a_header_name():
    result = run_manage("check", TRUSTED_PROXY_HEADER="X-Forwarded-For: 1.2.3.4")
    assert result.returncode != 0
    assert "TRUSTED_PROXY_HEADER=" in result.stderr


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


def test_it_documents_every_variable_it_reads():
    """Every variable the settings read appears in the operators' configuration guide and in .env.example."""

    source = (ROOT / "federation" / "settings.py").read_text()
    names = set(re.findall(r'env_\w+\(\s*"([A-Z_]+)"', source)) | set(re.findall(r'env_str\("([A-Z_]+)"\)', source))
    readme = (ROOT / "docs" / "operators" / "configuration.md").read_text()
    example = (ROOT / ".env.example").read_text()
    assert names, "no variables found: the pattern above is out of date"
    for name in sorted(names):
        assert f"`{name}`" in readme, f"{name} is not documented in docs/operators/configuration.md"
        assert re.search(rf"^#?\s*{name}=", example, re.M), f"{name} is missing from .env.example"


def settings_seen(*names, **env) -> dict:
    """The named settings as a fresh process reads them from `env` (and nothing else configured)."""
    code = (
        "import django, json, os; os.environ['DJANGO_SETTINGS_MODULE']='federation.settings'; django.setup();"
        f"from django.conf import settings as s; print(json.dumps({{n: getattr(s, n) for n in {list(names)!r}}}))"
    )
    clean = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO", "DATABASE", "CELERY", "SECRET", "DEBUG"))
        and k not in ("HOST", "PORT", "SITE_URL", "ALLOWED_HOSTS", "LOG_FILE", "CACHE_URL", "EMAIL_BACKEND")
    }
    result = subprocess.run(  # noqa: S603
        [sys.executable, "-c", code], cwd=ROOT, env={**clean, **env}, capture_output=True, text=True, check=True
    )
    import json

    return json.loads(result.stdout.splitlines()[-1])


@pytest.mark.parametrize(
    ("env", "site_url", "host"),
    [
        ({}, "http://127.0.0.1:8000", "127.0.0.1"),
        ({"PORT": "8731"}, "http://127.0.0.1:8731", "127.0.0.1"),
        ({"HOST": "192.168.1.20", "PORT": "8731"}, "http://192.168.1.20:8731", "192.168.1.20"),
        ({"HOST": "ratings.local", "PORT": "9000"}, "http://ratings.local:9000", "ratings.local"),
        ({"HOST": "::1", "PORT": "8731"}, "http://[::1]:8731", "[::1]"),
        # Every interface: links in mail open on this machine; any name that reaches it is accepted.
        ({"HOST": EVERYWHERE, "PORT": "8731"}, "http://127.0.0.1:8731", "*"),
    ],
)
def test_it_follows_the_address_make_run_serves_in_development(env, site_url, host):
    seen = settings_seen("SITE_URL", "ALLOWED_HOSTS", **env)
    assert seen["SITE_URL"] == site_url
    assert host in seen["ALLOWED_HOSTS"]
    assert "127.0.0.1" in seen["ALLOWED_HOSTS"]


def test_it_keeps_an_explicit_site_url_and_hosts_whatever_make_run_serves():
    seen = settings_seen(
        "SITE_URL", "ALLOWED_HOSTS", PORT="8731", SITE_URL="https://demo.example.org", ALLOWED_HOSTS="demo.example.org"
    )
    assert seen == {"SITE_URL": "https://demo.example.org", "ALLOWED_HOSTS": ["demo.example.org"]}


def test_it_ignores_make_runs_address_in_production_where_site_url_stays_required():
    seen = settings_seen("SITE_URL", "ALLOWED_HOSTS", **PRODUCTION, HOST=EVERYWHERE, PORT="not a port")
    assert seen == {"SITE_URL": "https://ratings.example.org", "ALLOWED_HOSTS": ["ratings.example.org"]}
    result = run_manage("check", **{**PRODUCTION, "SITE_URL": ""}, PORT="8731")
    assert result.returncode != 0
    assert "SITE_URL must be an http(s) address" in result.stderr


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("PORT", "eighty", "PORT='eighty' is not a whole number"),
        ("PORT", "70000", "PORT=70000 is above the maximum of 65535"),
        ("PORT", "0", "PORT=0 is below the minimum of 1"),
        ("HOST", "my host", "HOST='my host' is not a host name or an IP address"),
        ("HOST", "http://127.0.0.1", "HOST='http://127.0.0.1' is not a host name or an IP address"),
    ],
)
def test_it_refuses_a_bad_address_for_make_run_naming_the_variable(name, value, message):
    result = run_manage("check", **{name: value})
    assert result.returncode != 0
    assert message in result.stderr


def test_it_reads_host_names_and_addresses():
    from federation.env import env_host

    for value in ("127.0.0.1", EVERYWHERE, "::", "::1", "localhost", "ratings.example.org", "my-laptop"):
        assert env_host("H", "127.0.0.1", environ_={"H": value}) == value
    assert env_host("H", "127.0.0.1", environ_={}) == "127.0.0.1"
    for value in ("-bad", "a..b", "[::1]", "host:8000", "é.example"):
        with pytest.raises(ImproperlyConfigured, match=re.escape(f"H={value!r} is not a host name")):
            env_host("H", "127.0.0.1", environ_={"H": value})


def test_it_serves_static_files_itself_and_puts_a_relative_log_file_under_the_project():
    seen = settings_seen("MIDDLEWARE", "WHITENOISE_USE_FINDERS", "LOG_FILE", "DEBUG", LOG_FILE="var/log/demo.log")
    assert "whitenoise.middleware.WhiteNoiseMiddleware" in seen["MIDDLEWARE"]
    assert seen["WHITENOISE_USE_FINDERS"] is True  # no collectstatic in development
    assert seen["LOG_FILE"] == str(ROOT / "var" / "log" / "demo.log")
    production = settings_seen("MIDDLEWARE", "WHITENOISE_USE_FINDERS", **PRODUCTION)
    assert "whitenoise.middleware.WhiteNoiseMiddleware" in production["MIDDLEWARE"]
    assert production["WHITENOISE_USE_FINDERS"] is False  # the collected, hashed files
