"""Queueing Celery work by task NAME, so that a service never imports the tasks module that imports it.

An app's tasks are entry points that call its services; a service that must queue work asks here
for the task by the name the workers and the beat schedule know ("ratings.tasks.run_rating_requests",
"play.tasks.deliver"), so services and tasks never import each other (no circle). The task is the
registered one, and its own `delay`/`apply_async` run it eagerly where CELERY_TASK_ALWAYS_EAGER is on,
as the imported task would (`send_task` would not). Callers send from a `transaction.on_commit`
callback. Imports no app: the names are the callers'.
"""

from __future__ import annotations

from collections.abc import Callable

from celery import current_app

# The serving `runserver` process's own runner (toolkit/scheduler.py), when it registered one: the
# task names it takes and how to hand it one. Nobody else registers, so management commands, tests
# and every process with a broker send as before.
_runner: tuple[frozenset[str], Callable[[str, tuple], None]] | None = None


def task(name: str):
    """The registered task called `name` (KeyError for a name no task module registers). A web
    process may not have loaded the tasks modules yet: they are loaded as a worker loads them
    (Celery's autodiscovery), once."""
    tasks = current_app.tasks
    if name not in tasks:
        current_app.loader.import_default_modules()
    return tasks[name]


def send(name: str, args: tuple = (), **options):
    """`apply_async` of the task called `name`: with the broker down it raises, as apply_async does.
    In a process whose in-process runner takes this task (`hand_to`), it is handed to the runner
    instead and this returns at once (None): the task runs there, not in the caller's request."""
    runner = _runner
    if runner is not None and name in runner[0]:
        runner[1](name, tuple(args))
        return None
    return task(name).apply_async(args, **options)


def hand_to(names, submit: Callable[[str, tuple], None] | None) -> None:
    """From now on, in this process, `send` of these task names calls `submit(name, args)` instead of
    queueing them (None: back to queueing). Only `toolkit.scheduler.runner_start` calls it."""
    global _runner
    _runner = None if submit is None else (frozenset(names), submit)
