"""A Celery app for the scheduler lock's test only: the project's settings (broker, the locked
scheduler, its lock key and TTL from the environment) with a schedule of seconds instead of minutes,
so two real `celery beat` can be watched over a few due moments. Its task is never run (no worker
consumes the test's queue): the test counts the messages beat sent. The platform's own schedule
stays in federation/celery.py's beat_schedule()."""

import datetime
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "federation.settings")

app = Celery("beat-lock-test")
app.config_from_object("django.conf:settings", namespace="CELERY")


@app.on_after_configure.connect
def _schedule(sender, source, **kwargs):
    source.beat_schedule = {
        "every-second": {"task": "beat_lock_test.tick", "schedule": datetime.timedelta(seconds=1)},
        "every-three-seconds": {"task": "beat_lock_test.tock", "schedule": datetime.timedelta(seconds=3)},
    }
