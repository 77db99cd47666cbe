"""Queue the ratings app's Celery work by task NAME, never by importing `ratings.tasks`.

The tasks are entry points that call the services; a service that must queue work comes here, so
the services never import the tasks (no circle). Names are the workers' names for the tasks
("ratings.tasks.run_rating_requests"), the same the beat schedule in federation/celery.py uses.
Callers send from a `transaction.on_commit` callback (`services.rating_request` queues
`services.publish_requests` so); a task sent here runs eagerly where CELERY_TASK_ALWAYS_EAGER is
on, as `task.apply_async` on the imported task would.
"""

from __future__ import annotations

from celery import current_app


def task(name: str):
    """The registered task called `name`. A web process has not loaded the tasks modules yet: they
    are loaded as a worker loads them (Celery's autodiscovery), once."""
    tasks = current_app.tasks
    if name not in tasks:
        current_app.loader.import_default_modules()
    return tasks[name]


def send(name: str, args: tuple = (), **options):
    """`apply_async` of the task called `name`: with the broker down it raises, as apply_async does."""
    return task(name).apply_async(args, **options)
