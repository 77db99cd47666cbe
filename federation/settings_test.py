"""Test settings: the real settings, made fast and hermetic.

The database and the broker still come from DATABASE_URL and CELERY_BROKER_URL,
so the same suite runs on SQLite with eager tasks and on PostgreSQL with Redis.
"""

import os
import re
import tempfile
from pathlib import Path


def _own_redis_databases(worker: str) -> None:
    """Under pytest-xdist (`-n 2`), worker gwN uses Redis databases N*2 above the configured ones.

    The tests clear the cache (FLUSHDB) and start real Celery workers that read the broker from the
    environment, so two test processes sharing a Redis database would empty each other's cache and
    take each other's tasks. The environment itself is changed (before the settings are read) because
    Celery prefers CELERY_BROKER_URL to the settings and the tests' subprocesses inherit it. The
    database needs nothing: pytest-django gives each worker its own test database (test_NAME_gwN)."""
    shift = 2 * int(worker.removeprefix("gw") or 0)
    for name in ("CELERY_BROKER_URL", "CACHE_URL"):
        url = os.environ.get(name, "")
        found = re.fullmatch(r"(rediss?://[^/]+)/(\d+)", url)
        if shift and found:
            number = int(found.group(2)) + shift
            if number > 15:
                raise RuntimeError(f"{name}={url}: worker {worker} would need Redis database {number} (0-15)")
            os.environ[name] = f"{found.group(1)}/{number}"


_own_redis_databases(os.environ.get("PYTEST_XDIST_WORKER", ""))

from federation.settings import *  # noqa: E402, F403
from federation.settings import STORAGES  # noqa: E402

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
LANGUAGE_CODE = "en"
# Tasks run inside the test process; the worker tests (tests/worker) start real workers on Redis
# and switch this off for their own duration.
CELERY_TASK_ALWAYS_EAGER = True
# No periodic jobs behind the tests' back: the scheduler's tests start their own.
DEV_SCHEDULER = False
PRIVATE_ROOT = Path(tempfile.mkdtemp(prefix="federation-private-"))
MEDIA_ROOT = Path(tempfile.mkdtemp(prefix="federation-media-"))
STORAGES = {**STORAGES, "private": {**STORAGES["private"], "OPTIONS": {"location": PRIVATE_ROOT, "base_url": None}}}
# Page tests change the data between requests without a rating run: the page cache is off here and
# its own tests (tests/toolkit/test_pagecache.py) turn it on.
PAGE_CACHE_SECONDS = 0
# The tests' data live in their own transaction, which other threads' connections do not see; and a
# test warms only the pages it names unless it asks for the visitors' favourites.
PAGE_CACHE_WARM_THREADS = 1
PAGE_CACHE_WARM_POPULAR = 0
# Nothing written into the checkout's var/: the tests of `make run`'s closing block give their own file.
DEV_CREDENTIALS_FILE = None
VAR_DIR = Path(tempfile.mkdtemp(prefix="federation-var-"))
