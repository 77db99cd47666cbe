"""Test settings: the real settings, made fast and hermetic.

The database and the broker still come from DATABASE_URL and CELERY_BROKER_URL,
so the same suite runs on SQLite with eager tasks and on PostgreSQL with Redis.
"""

import tempfile
from pathlib import Path

from federation.settings import *  # noqa: F403
from federation.settings import STORAGES

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
