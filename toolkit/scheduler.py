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

The same process also stands in for the worker of the tasks that must not run inside the request
that queued them (settings.DEV_RUNNER_TASKS: the rating run, which takes seconds to a minute). The
`TaskRunner` thread, started by `runner_start` from `runserver` only, takes them from
`toolkit.queueing.send` and runs them one after the other, eagerly, in its own thread and database
connection; an error is logged (the task records its own failure where its users see it) and the
next task runs. Everything else (management commands, tests, the shell) keeps running them eagerly
where they are sent. Nothing is lost with the process: these tasks are wake-up calls for work kept
in the database, and each is sent once when the runner starts.
"""

from __future__ import annotations

import collections
import logging
import threading
from collections.abc import Callable

from celery import Celery, current_app
from celery.beat import ScheduleEntry, Scheduler
from django.conf import settings
from django.db import connections

from toolkit import queueing

logger = logging.getLogger("federation.scheduler")

# The longest sleep between two looks at the schedule: the next due moment is computed exactly,
# but a laptop that slept must not find its minute sweeps a long nap late.
MAX_INTERVAL = 30.0


def job_run(app: Celery, entry: ScheduleEntry) -> None:
    """One periodic job, run to its end in the calling thread; what it raises is logged."""
    _apply(app.tasks[entry.task], entry.args, entry.kwargs, f"Periodic job {entry.name} ({entry.task})")


def task_run(app: Celery, name: str, args: tuple) -> None:
    """One task handed to the runner, run to its end in the calling thread; what it raises is logged."""
    _apply(queueing.task(name), args, {}, f"Task {name}")


def _apply(task, args, kwargs, label: str) -> None:
    try:
        result = task.apply(args=args, kwargs=kwargs, throw=True)
    except Exception:
        logger.exception("%s failed", label)
    else:
        # A sweep that found nothing to do, every minute, would drown the server's console.
        level = logging.INFO if result.result else logging.DEBUG
        logger.log(level, "%s done: %r", label, result.result)
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


class TaskRunner(threading.Thread):
    """The tasks handed over by `toolkit.queueing.send`, run one at a time, in the order sent, in this
    thread (a daemon: it ends with the server). A task sent again while it still waits to start is
    the same call and waits once; one sent while it runs waits for its turn after it."""

    def __init__(self, app: Celery, *, run: Callable[[Celery, str, tuple], None] = task_run):
        super().__init__(name="task runner", daemon=True)
        self.app = app
        self._run = run
        self._waiting: collections.deque[tuple[str, tuple]] = collections.deque()
        self._changed = threading.Condition()
        self._busy = False
        self._stopping = False

    def submit(self, name: str, args: tuple = ()) -> None:
        with self._changed:
            if (name, args) not in self._waiting:
                self._waiting.append((name, args))
                self._changed.notify_all()

    def run(self) -> None:
        while True:
            with self._changed:
                self._changed.wait_for(lambda: self._waiting or self._stopping)
                if self._stopping:
                    return
                name, args = self._waiting.popleft()
                self._busy = True
            try:
                self._run(self.app, name, args)
            except Exception:  # task_run logs its task's errors; this is for anything else
                logger.exception("The task runner could not run %s", name)
            finally:
                with self._changed:
                    self._busy = False
                    self._changed.notify_all()

    def waiting(self) -> list[str]:
        with self._changed:
            return [name for name, _args in self._waiting]

    def idle(self, timeout: float | None = None) -> bool:
        """Wait until nothing waits or runs (on stopping; and in tests); False if the time ran out."""
        with self._changed:
            return self._changed.wait_for(lambda: not self._waiting and not self._busy, timeout)

    def stop(self, timeout: float | None = None) -> None:
        """Stop after the task running now (those still waiting are sent again at the next start)."""
        with self._changed:
            self._stopping = True
            self._changed.notify_all()
        self.join(timeout)


_lock = threading.Lock()
_started: SchedulerThread | None = None
_runner: TaskRunner | None = None


def runner_start() -> TaskRunner | None:
    """Start, once, the runner of settings.DEV_RUNNER_TASKS in this process and hand those tasks to it
    (`toolkit.queueing.hand_to`); None when settings.DEV_SCHEDULER is off (as for the periodic jobs).
    Only the serving `runserver` calls it: elsewhere the tasks run eagerly where they are sent."""
    global _runner
    if not settings.DEV_SCHEDULER:
        return None
    with _lock:
        if _runner is None:
            _runner = TaskRunner(current_app._get_current_object())
            _runner.start()
            queueing.hand_to(settings.DEV_RUNNER_TASKS, _runner.submit)
            # What the last server had been handed died with it; the work waits in the database.
            for name in settings.DEV_RUNNER_TASKS:
                _runner.submit(name)
            names = ", ".join(settings.DEV_RUNNER_TASKS)
            logger.info("Tasks run in this process, one at a time (DEV_SCHEDULER): %s", names)
        return _runner


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
