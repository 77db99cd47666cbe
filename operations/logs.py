"""The logging configuration of every process (web, workers, beat, commands): plain lines, or one
JSON object a line when LOG_FORMAT=json, for a log collector (Loki, Elasticsearch, journald's
JSON export) to index by field. federation/settings.py builds LOGGING here; federation/celery.py
puts the same formatter on the handlers Celery sets up in its workers; federation/gunicorn.conf.py
on gunicorn's own. Imports no app and no model: the settings module imports it."""

from __future__ import annotations

import logging
import os
import time
from pathlib import Path

from pythonjsonlogger.json import JsonFormatter as _JsonFormatter

PLAIN = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class PlainFormatter(logging.Formatter):
    """The plain line with its time zone: Django sets the process's zone to TIME_ZONE (Moscow by
    default), and a bare 03:12 read beside a UTC job's schedule or another machine's log misleads.
    2026-12-02 03:12:05,123 +0300."""

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        return f"{super().formatTime(record, datefmt)} {time.strftime('%z', self.converter(record.created))}"


class PrivateFileHandler(logging.FileHandler):
    """A log file only its owner reads (a log holds the site's data: names, addresses, what failed
    where): the folder is made 0700 and the file 0600 before the first line is written."""

    def _open(self):
        path = Path(self.baseFilename)
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600))
        path.chmod(0o600)
        return super()._open()


class JsonFormatter(_JsonFormatter):
    """One JSON object a line: time (ISO 8601, UTC offset), level, logger, message, process, and
    what the record carries besides (a request's method and path, the Celery task's name and id,
    the exception's traceback, `extra=` fields)."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("timestamp", "time")
        kwargs.setdefault("rename_fields", {"levelname": "level", "name": "logger"})
        super().__init__("%(levelname)s %(name)s %(message)s %(process)d", *args, **kwargs)

    def add_fields(self, log_record: dict, record: logging.LogRecord, message_dict: dict) -> None:
        super().add_fields(log_record, record, message_dict)
        # Django's request loggers pass the request itself: its method and path, never its headers
        # or cookies.
        request = log_record.pop("request", None)
        if request is not None and hasattr(request, "path"):
            log_record["method"], log_record["path"] = request.method, request.path
        task = _current_task()
        if task is not None:
            log_record["task_name"], log_record["task_id"] = task.name, task.request.id


def _current_task():
    try:
        from celery._state import get_current_task
    except ImportError:  # pragma: no cover - Celery is a dependency
        return None
    task = get_current_task()
    return task if task is not None and task.request.id else None


def logging_config(log_format: str, level: str, log_file: str | None = None) -> dict:
    """Django's LOGGING: everything to standard error through one handler, plain or JSON.

    With `log_file` everything goes to that file instead and standard error keeps the warnings and
    errors: `make run` sends the demo's INFO lines there, and the terminal shows what went wrong,
    if anything."""
    formatter = {"()": JsonFormatter} if log_format == "json" else {"()": PlainFormatter, "format": PLAIN}
    handlers = {"console": {"class": "logging.StreamHandler", "formatter": "main"}}
    loggers = {
        "django.db.backends": {"level": "INFO"},
        # Django's own handlers print its records again (DEBUG on) and runserver's request lines with
        # the bare local time: every line goes through this one handler instead, with its zone.
        "django": {"handlers": [], "level": "INFO", "propagate": True},
        "django.server": {"handlers": [], "level": "INFO", "propagate": True},
    }
    if log_file:
        handlers["console"]["level"] = "WARNING"
        handlers["file"] = {"()": PrivateFileHandler, "filename": log_file, "formatter": "main", "encoding": "utf-8"}
        # runserver's request lines stay on the terminal as well (`make run`): the developer sees his
        # requests under the closing block, while the periodic jobs' and tasks' lines, several a
        # minute, go to the file only and never push the block out of sight.
        handlers["requests"] = {"class": "logging.StreamHandler", "formatter": "main"}
        loggers["django.server"] = {"handlers": ["requests", "file"], "level": "INFO", "propagate": False}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"main": formatter},
        "handlers": handlers,
        "root": {"handlers": [name for name in handlers if name != "requests"], "level": level},
        "loggers": loggers,
    }


def json_handlers(logger: logging.Logger) -> None:
    """Put the JSON formatter on the handlers of a logger Celery configured itself (a worker's root
    and task loggers): Celery's own formats are plain text."""
    for handler in logger.handlers:
        handler.setFormatter(JsonFormatter())


def gunicorn_config(level: str) -> dict:
    """gunicorn's logconfig_dict for LOG_FORMAT=json: its error and access logs as JSON lines."""
    handler = {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stderr"}
    # gunicorn merges this over its own defaults, whose root logger names "console".
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "root": {"level": level.upper(), "handlers": ["error_console"]},
        "formatters": {"json": {"()": JsonFormatter}},
        "handlers": {"error_console": handler, "console": {**handler, "stream": "ext://sys.stdout"}},
        "loggers": {
            "gunicorn.error": {"handlers": ["error_console"], "level": level.upper(), "propagate": False},
            "gunicorn.access": {"handlers": ["console"], "level": "INFO", "propagate": False},
        },
    }
