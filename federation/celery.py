"""The Celery application and, in one place, every periodic schedule."""

import logging
import os

from celery import Celery
from celery.schedules import crontab
from celery.signals import after_setup_logger, after_setup_task_logger
from django.conf import settings

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "federation.settings")

app = Celery("federation")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def beat_schedule() -> dict:
    """Every periodic job of the platform, listed here and nowhere else. All times are UTC
    (CELERY_TIMEZONE). Each job is idempotent: running it twice changes nothing more."""
    schedule = {
        # The Mchess inactivity penalty, at 00:01 on the 1st of every month.
        "mchess-inactivity-penalty": {
            "task": "ratings.tasks.mchess_monthly_penalty",
            "schedule": crontab(minute=1, hour=0, day_of_month=1),
        },
        # The month's published lists, frozen after the penalty.
        "publish-monthly-lists": {
            "task": "ratings.tasks.publish_monthly_lists",
            "schedule": crontab(minute=5, hour=0, day_of_month=1),
        },
        # The rating requests' safety net: runs whose worker is gone (silent heartbeat) and requests
        # the broker never got (it was down) are sent again; a queued tournament without any request
        # gets one. Every minute: a lost run is rated again within a minute or two.
        "sweep-rating-requests": {
            "task": "ratings.tasks.sweep_rating_requests",
            "schedule": crontab(minute="*"),
        },
        # Large uploads whose reading worker went silent are read again.
        "sweep-stalled-uploads": {
            "task": "tournaments.tasks.sweep_stalled_uploads",
            "schedule": crontab(minute="*/5"),
        },
        # Mobile chess: every game whose next due moment has passed (a flag fallen, a reminder, a
        # protest window ended) is advanced; one indexed query finds them. Every minute, so a claim is
        # filed within a minute of its instant (the instant recorded is the rule's, not the sweep's).
        "sweep-mobile-games": {
            "task": "play.tasks.sweep_games",
            "schedule": crontab(minute="*"),
        },
        # Outbound messages still pending (the queue was down, a gateway failed) are sent again.
        "sweep-mobile-outbox": {
            "task": "play.tasks.sweep_outbox",
            "schedule": crontab(minute="*"),
        },
        # Mobile chess: the daily e-mail digest of games on move, for the players who asked for it,
        # at PLAY_DIGEST_HOUR (UTC). An account already mailed within 20 hours is skipped.
        "mobile-daily-digest": {
            "task": "play.tasks.send_digests",
            "schedule": crontab(minute=0, hour=settings.PLAY_DIGEST_HOUR),
        },
        # Computer opponents: a computer's move that never arrived (the broker was down when it was
        # queued, its task was lost) is queued again; the move's dedup key makes a double harmless.
        "sweep-computer-moves": {
            "task": "play.tasks.sweep_computer_moves",
            "schedule": crontab(minute="*"),
        },
        # Beat's heartbeat: a worker records the tick, /health/ shows its age (HEALTH_BEAT_MAX_AGE). A tick
        # not taken within two minutes is dropped: the queue's age tells of the missing workers.
        "beat-tick": {
            "task": "operations.tasks.beat_tick",
            "schedule": crontab(minute="*"),
            "options": {"expires": 120},
        },
    }
    if settings.BACKUP_DIR:
        # The nightly backup (database and uploaded files) into BACKUP_DIR at BACKUP_HOUR (UTC), keeping
        # the newest BACKUP_KEEP; a failure leaves the earlier ones and is recorded (admin: backup runs).
        schedule["nightly-backup"] = {
            "task": "operations.tasks.backup_nightly",
            "schedule": crontab(minute=0, hour=settings.BACKUP_HOUR),
        }
    return schedule


@app.on_after_configure.connect
def _schedule(sender, source, **kwargs):
    # Built once Django's settings are loaded, not at import: a settings module that imports this
    # package before it is complete (benchmarks/load_settings.py star-imports federation.settings)
    # would otherwise be read half-made, and PLAY_DIGEST_HOUR would not be there yet.
    source.beat_schedule = beat_schedule()


@after_setup_logger.connect
@after_setup_task_logger.connect
def _json_logs(logger, **kwargs):
    # Celery sets up its workers' and beat's logging itself, in plain text: with LOG_FORMAT=json its
    # handlers get the JSON formatter of the web processes (operations/logs.py).
    if settings.LOG_FORMAT == "json":
        from operations.logs import json_handlers

        json_handlers(logger)
        logging.captureWarnings(True)  # Python's warnings (Celery's about root) through the same handlers
