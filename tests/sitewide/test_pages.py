"""The list of pages the site-wide tests check comes from the URL configuration: every pattern is
filled from the fixture federation or skipped with its reason, and every page filled is shown to
at least one persona."""

import pytest

from tests.sitewide.federation import PERSONAS, build_federation
from tests.sitewide.pages import page_urls, stale_skips, url_patterns, visible_pages

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def fed(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        from django.db import transaction

        with transaction.atomic():
            built = build_federation()
            yield built
            transaction.set_rollback(True)


def test_it_finds_the_patterns_of_every_app_with_their_namespaces():
    names = {p.name for p in url_patterns()}
    assert {"home", "players:detail", "play:desk_file", "staff:audit", "admin:index", "api:player"} <= names


def test_it_fills_every_url_pattern_or_names_why_it_is_no_page(fed):
    urls, unfilled = page_urls(fed)
    assert not unfilled, f"URL patterns nothing fills (add them to tests/sitewide/pages.py): {unfilled}"
    assert not stale_skips(), stale_skips()
    assert len(urls["play:game"]) == len(fed.games) + 1  # a game in each state and the computer game


def test_it_shows_every_page_to_some_persona(fed):
    urls, _ = page_urls(fed)
    shown = visible_pages(fed, urls)
    assert set(shown) == set(PERSONAS)
    seen = {name for pages in shown.values() for name, _ in pages}
    assert ("home", "/") in shown["anonymous"] and ("staff:audit", "/staff/audit/") in shown["staff"]
    assert ("staff:audit", "/staff/audit/") not in shown["player"]
    assert not set(urls) - seen, f"pages no persona sees: {sorted(set(urls) - seen)}"
