"""/metrics tells whether the pages were warmed after the last rating run (issue 28)."""

from __future__ import annotations

import pytest
from django.test import override_settings

from tests.operations.test_metrics import TOKEN, scrape, value
from toolkit import pagecache

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _token(settings):
    settings.METRICS_TOKEN = TOKEN


def missing_page(changed):
    return ["/", "/tournaments/999999/"], []


def test_it_shows_no_warming_before_any():
    assert ("federation_page_warming_failures",) not in scrape_keys()


@override_settings(PAGE_CACHE_SECONDS=3600, SITE_URL="http://testserver", PAGE_CACHE_WARM=f"{__name__}.missing_page")
def test_it_counts_the_pages_warmed_and_the_failures_of_the_last_warming(client):
    pagecache.warm_and_bump()
    samples = scrape(client)
    assert value(samples, "federation_page_warming_pages") == 2  # the home page, in English and Russian
    assert value(samples, "federation_page_warming_failures") == 2  # the missing report, in both


@override_settings(PAGE_CACHE_SECONDS=3600, PAGE_CACHE_WARM=f"{__name__}.no_such_function")
def test_it_counts_a_warming_that_failed_as_a_whole(client):
    pagecache.warm_and_bump()
    samples = scrape(client)
    assert value(samples, "federation_page_warming_pages") == 0
    assert value(samples, "federation_page_warming_failures") == 1


def scrape_keys():
    from django.test import Client

    return set(scrape(Client()))
