"""Where the counters are moved: the signals of the lower apps (which never import operations),
connected in OperationsConfig.ready."""

from __future__ import annotations

from operations.metrics import registry


def rating_run_finished(*, kind: str, outcome: str, seconds: float, **_kwargs) -> None:
    registry.RATING_RUNS.labels(kind, outcome).inc()
    registry.RATING_RUN_SECONDS.labels(kind).observe(seconds)


def message_received(*, channel: str, **_kwargs) -> None:
    registry.MESSAGES_IN.labels(channel).inc()


def messages_delivered(*, counts: dict, **_kwargs) -> None:
    for (channel, result), count in counts.items():
        registry.MESSAGES_OUT.labels(channel, result).inc(count)


def claim_event(*, event: str, count: int = 1, **_kwargs) -> None:
    registry.CLAIMS.labels(event).inc(count)


def worker_process_shutdown(pid: int | None = None, **_kwargs) -> None:
    """A Celery pool process ends: its live gauges go (its counters stay counted)."""
    import os

    from django.conf import settings

    if settings.PROMETHEUS_MULTIPROC_DIR:
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(pid or os.getpid())
