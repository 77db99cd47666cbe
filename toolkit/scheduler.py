"""The periodic jobs in development: Celery beat's own Scheduler inside `manage.py runserver`.

Without a broker every task runs eagerly and no `celery beat` runs, so nothing on a timer would
ever happen (no reminder, no time claim, no concession, no outbox retry). Here the schedule is
read from the one place (`app.conf.beat_schedule` of the project's Celery app, federation/celery.py,
the current app once Django has started) by Celery's
`celery.beat.Scheduler`, the class `celery beat` itself extends: its crontab arithmetic and its
heap decide what is due, exactly as in production. Only the sending is replaced: instead of
publishing to a broker, a due job is run here with the task's eager `apply()`, in a thread of its
own (and so a database connection of its own, closed when it ends), so a slow job (the digest, a
monthly list) never delays the minute sweeps. A job still running when its next turn comes is
not started twice. An error is logged and the scheduler goes on. Production keeps `make beat`
(settings.DEV_SCHEDULER is refused there and off whenever a broker is set).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from celery import Celery, current_app
from celery.beat import ScheduleEntry, Scheduler
from django.conf import settings
from django.db import connections

logger = logging.getLogger("federation.scheduler")

# The longest sleep between two looks at the schedule: the next due moment is computed exactly,
# but a laptop that slept must not find its minute sweeps a long nap late.
MAX_INTERVAL = 30.0


def job_run(app: Celery, entry: ScheduleEntry) -> None:
    """One periodic job, run to its end in the calling thread; what it raises is logged."""
    try:
        result = app.tasks[entry.task].apply(args=entry.args, kwargs=entry.kwargs, throw=True)
    except Exception:
        logger.exception("Periodic job %s (%s) failed", entry.name, entry.task)
    else:
        # A sweep that found nothing to do, every minute, would drown the server's console.
        level = logging.INFO if result.result else logging.DEBUG
        logger.log(level, "Periodic job %s (%s) done: %r", entry.name, entry.task, result.result)
    finally:
        # The thread's own connections: a job's thread never serves anything else.
        connections.close_all()


class EagerScheduler(Scheduler):
    """Celery's scheduler whose due jobs run in this process, each in a thread of its own."""

    # Nothing is published: there is no broker to connect to (celery.beat.Scheduler.tick reads it).
    producer = None

    def __init__(self, app: Celery, *, run: Callable[[Celery, ScheduleEntry], None] = job_run, **kwargs):
        self._run = run
        self._running: dict[str, threading.Thread] = {}
        # Every app's tasks module (as a worker imports them; without a worker's django.setup()
        # and checks): the schedule names its tasks by name.
        app.autodiscover_tasks(force=True)
        super().__init__(app, **kwargs)

    def install_default_entries(self, data) -> None:
        # Celery would add its result-backend cleanup: there is no result backend here (the
        # schedule is exactly the one of federation/celery.py).
        return None

    def apply_entry(self, entry: ScheduleEntry, producer=None) -> None:
        previous = self._running.get(entry.name)
        if previous is not None and previous.is_alive():
            logger.warning("Periodic job %s is still running from its last turn: this turn is skipped", entry.name)
            return
        thread = threading.Thread(target=self._run, args=(self.app, entry), name=f"periodic {entry.name}", daemon=True)
        self._running[entry.name] = thread
        thread.start()

    def running(self) -> list[str]:
        return sorted(name for name, thread in self._running.items() if thread.is_alive())

    def join(self, timeout: float | None = None) -> None:
        """Wait for the jobs started so far (on stopping; and in tests)."""
        for thread in list(self._running.values()):
            thread.join(timeout)


class SchedulerThread(threading.Thread):
    """The loop: a tick of the scheduler (which starts the due jobs), then a sleep until the next
    due moment, until stopped. A daemon: it ends with the server."""

    def __init__(self, scheduler: EagerScheduler):
        super().__init__(name="periodic scheduler", daemon=True)
        self.scheduler = scheduler
        self._stop_event = threading.Event()

    def run(self) -> None:
        while not self._stop_event.is_set():
            try:
                delay = self.scheduler.tick()
            except Exception:
                logger.exception("The periodic scheduler's tick failed; it tries again")
                delay = self.scheduler.max_interval
            self._stop_event.wait(min(delay, self.scheduler.max_interval))

    def stop(self, timeout: float | None = None) -> None:
        self._stop_event.set()
        self.join(timeout)
        self.scheduler.join(timeout)


_lock = threading.Lock()
_started: SchedulerThread | None = None


def scheduler_start(*, max_interval: float = MAX_INTERVAL) -> SchedulerThread | None:
    """Start the periodic jobs in this process, once; None when settings.DEV_SCHEDULER is off
    (tests, a broker with its own `celery beat`, production, or switched off by hand)."""
    global _started
    if not settings.DEV_SCHEDULER:
        return None
    with _lock:
        if _started is None:
            _started = SchedulerThread(EagerScheduler(current_app._get_current_object(), max_interval=max_interval))
            _started.start()
            names = ", ".join(sorted(_started.scheduler.schedule))
            logger.info("Periodic jobs run in this process (DEV_SCHEDULER): %s", names)
        return _started
