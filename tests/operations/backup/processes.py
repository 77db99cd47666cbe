"""manage.py in its own process, as an operator runs it: a clean environment with only the settings
the test gives (its database, its storage folders), no broker, no development scheduler."""

import os
import subprocess
import sys
from pathlib import Path

from django.conf import settings

ROOT = Path(settings.BASE_DIR)
_CONFIGURATION = ("DJANGO", "DATABASE", "CELERY", "CACHE", "BACKUP", "MEDIA", "PRIVATE")


def manage(*arguments, **environment) -> subprocess.CompletedProcess:
    clean = {key: value for key, value in os.environ.items() if not key.startswith(_CONFIGURATION)}
    clean.update(environment, DJANGO_SETTINGS_MODULE="federation.settings", DEV_SCHEDULER="false")
    return subprocess.run(  # noqa: S603 - our own interpreter and manage.py
        [sys.executable, "manage.py", *arguments], cwd=ROOT, env=clean, capture_output=True, text=True, timeout=900
    )
