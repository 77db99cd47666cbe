"""Background work asked for by name: the one place play's services reach its Celery tasks.

A service that must queue work (deliver the outbox, play a computer's move, a calibration game)
asks for the task by its registered name, "play.tasks.deliver", instead of importing play.tasks:
the task module is an entry point that imports the services, never the reverse, so no service
sits on an import circle through its tasks. The task is looked up in the Celery app's registry
and queued with its own `delay`/`apply_async`, which honours CELERY_TASK_ALWAYS_EAGER (the
default settings run tasks in the process; `send_task` would not). The registry holds play's
tasks from the start: PlayConfig.ready imports play.tasks.
"""

from __future__ import annotations

from celery import current_app

DELIVER = "play.tasks.deliver"
ENGINE_MOVE = "play.tasks.engine_move"
CALIBRATION_GAME = "play.tasks.calibration_game"


def task(name: str):
    """The registered task called `name` (KeyError for a name no task module registered)."""
    return current_app.tasks[name]
