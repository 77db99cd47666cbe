"""The one write of health: beat's tick (operations.tasks.beat_tick, every minute)."""

from __future__ import annotations

from django.core.cache import cache
from django.utils import timezone

from operations.health.selectors import BEAT_TICK_KEY


def beat_tick_record() -> None:
    """Keep the moment of the tick with no expiry: /health/ reads its age."""
    cache.set(BEAT_TICK_KEY, timezone.now(), timeout=None)
