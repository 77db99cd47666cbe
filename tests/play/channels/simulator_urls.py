"""The phone simulator's URLs exist only when DEBUG is on at start (play/urls.py): a test that
needs them turns DEBUG on and re-reads the URL modules, and puts them back as they were."""

from __future__ import annotations

import importlib

from django.urls import clear_url_caches


def reload_urls() -> None:
    import federation.urls
    import play.urls

    importlib.reload(play.urls)
    importlib.reload(federation.urls)
    clear_url_caches()


def debug_on(settings):
    """The body of a test module's `debug_urls` fixture (pytest-django's `settings` given)."""
    settings.DEBUG = True
    reload_urls()
    yield
    settings.DEBUG = False
    reload_urls()
