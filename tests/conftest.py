import fcntl
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import settings as hypothesis_settings

# Hypothesis's default 200 ms deadline per example is a timed assertion: on a loaded 2-core CI
# machine it fails correct code (seen on tests/play/rules/test_clock.py). Speed is measured in
# benchmarks/, never asserted in tests.
hypothesis_settings.register_profile("federation", deadline=None)
hypothesis_settings.load_profile("federation")

# The optional tools (Stockfish, Chromium, gettext, PostgreSQL, Redis): the `needs` marker and
# `require()`, one mechanism for every test that needs one.
pytest_plugins = ["tests.optional"]

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def personas(db, django_user_model):
    from accounts.roles import PLAYERS, role
    from tests.base import PASSWORD

    player = django_user_model.objects.create_user("parent", "parent@example.org", PASSWORD)
    player.groups.add(role(PLAYERS))
    return {
        "admin": django_user_model.objects.create_superuser("fedadmin", "admin@example.org", PASSWORD),
        "arbiter": django_user_model.objects.create_user("arbiter", "arbiter@example.org", PASSWORD),
        "player": player,
    }


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Each test starts with an empty cache (home page lists, login throttling)."""
    from django.core.cache import cache

    cache.clear()
    yield


@pytest.fixture(autouse=True)
def _site_language():
    """Each test starts in the site's language: a request in Russian leaves Russian active in the
    thread (LocaleMiddleware activates, nothing deactivates), and messages are translated where
    they are turned into words, in whatever test runs next."""
    from django.conf import settings
    from django.utils import translation

    with translation.override(settings.LANGUAGE_CODE):
        yield


@pytest.fixture(scope="session")
def migrated_sqlite_template(tmp_path_factory) -> Path:
    """A SQLite file with every migration applied, made once for the whole run: the tests that start
    the site in processes of its own (gunicorn, manage.py backup, the benchmarks' smoke runs, a
    Celery worker) each copy it (`shutil.copyfile`) instead of migrating a file of their own, which
    takes half a minute on a loaded 2-core machine. Never written to: a test writes to its copy.

    Shared by pytest-xdist's workers (their base folders have one parent): the first to get the lock
    migrates, the others wait for it and reuse the file."""
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent
    template = shared / "migrated-template.sqlite3"
    with (shared / "migrated-template.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not template.exists():
            partial = template.with_suffix(".partial")
            partial.unlink(missing_ok=True)
            # Only the settings of a process of the site: none of the test run's services (its
            # PostgreSQL, Redis, broker), whatever this run is on.
            dropped = ("DJANGO_SETTINGS_MODULE", "DATABASE_URL", "CELERY_BROKER_URL", "CACHE_URL")
            env = {k: v for k, v in os.environ.items() if k not in dropped and k != "CELERY_TASK_ALWAYS_EAGER"}
            env.update(DJANGO_SETTINGS_MODULE="federation.settings", DATABASE_URL=f"sqlite:///{partial}")
            subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
            partial.rename(template)  # complete or absent: a failed migration leaves no template
    return template
