"""The figures computed ahead of the visitors: after each GCR run, which follows every rating run."""

from __future__ import annotations

from django.core.cache import cache

from ratings.accuracy import selectors


def refresh() -> None:
    """Compute the figures of the current data version and keep them for the page and the API."""
    cache.set(selectors.cache_key(), selectors.compute(), selectors.CACHE_SECONDS)
