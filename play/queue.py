"""The names of play's Celery tasks, by which its services queue them (toolkit/queueing.py).

A service that must queue work (deliver the outbox, play a computer's move, a calibration game)
asks for the task by its registered name, "play.tasks.deliver", instead of importing play.tasks:
the task module is an entry point that imports the services, never the reverse, so no service
sits on an import circle through its tasks. The task is looked up in the Celery app's registry
(`toolkit.queueing.task`) and queued with its own `delay`/`apply_async`, which honours CELERY_TASK_ALWAYS_EAGER (the
default settings run tasks in the process; `send_task` would not). The registry holds play's
tasks from the start: PlayConfig.ready imports play.tasks.
"""

from __future__ import annotations

DELIVER = "play.tasks.deliver"
DRAIN = "play.tasks.drain_outbox"
ENGINE_MOVE = "play.tasks.engine_move"
CALIBRATION_GAME = "play.tasks.calibration_game"
