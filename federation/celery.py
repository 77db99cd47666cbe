"""The Celery application and, in one place, every periodic schedule."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "federation.settings")

app = Celery("federation")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# Every periodic job of the platform is listed here and nowhere else. All times
# are UTC (CELERY_TIMEZONE). Entries are added with the jobs they start: the
# Mchess inactivity penalty (00:01 on the 1st) and the monthly published lists.
app.conf.beat_schedule = {}
