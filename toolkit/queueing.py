"""Queueing Celery work by task NAME, so that a service never imports the tasks module that imports it.

An app's tasks are entry points that call its services; a service that must queue work asks here
for the task by the name the workers and the beat schedule know ("ratings.tasks.run_rating_requests",
"play.tasks.deliver"), so services and tasks never import each other (no circle). The task is the
registered one, and its own `delay`/`apply_async` run it eagerly where CELERY_TASK_ALWAYS_EAGER is on,
as the imported task would (`send_task` would not). Callers send from a `transaction.on_commit`
callback. Imports no app: the names are the callers'.
"""

from __future__ import annotations

from celery import current_app


def task(name: str):
    """The registered task called `name` (KeyError for a name no task module registers). A web
    process may not have loaded the tasks modules yet: they are loaded as a worker loads them
    (Celery's autodiscovery), once."""
    tasks = current_app.tasks
    if name not in tasks:
        current_app.loader.import_default_modules()
    return tasks[name]


def send(name: str, args: tuple = (), **options):
    """`apply_async` of the task called `name`: with the broker down it raises, as apply_async does."""
    return task(name).apply_async(args, **options)
