"""After a rating run publishes, the most visited pages are already in the cache under the new data's
version (issue 28): the first visitors, in either language, are served without a query."""

import datetime
import logging

from django.core.cache import cache
from django.test import override_settings
from django.urls import reverse

from ratings import services
from ratings.models import System
from tests.base import BaseTestCase
from tests.players.factories import PlayerFactory
from tests.ratings.scenario import make_tournament
from toolkit import pagecache

LANGUAGES = ("en", "ru")


def boom():
    raise RuntimeError("the list of pages could not be read")


@override_settings(PAGE_CACHE_SECONDS=3600, SITE_URL="http://testserver")
class WarmingTestCase(BaseTestCase):
    def setUp(self):
        self.players = PlayerFactory.create_batch(4)
        self.tournament = make_tournament("Autumn Open", datetime.date(2025, 10, 1), self.players, rounds=3)

    def rate(self):
        with self.captureOnCommitCallbacks(execute=True):
            services.rating_run(tournament_id=self.tournament.pk)

    def most_visited(self):
        return [
            "/",
            reverse("ratings:index"),
            reverse("tournaments:list"),
            *(reverse("ratings:list", args=[system]) for system in System.values),
            reverse("tournaments:detail", args=[self.tournament.pk]),
        ]

    def test_it_serves_the_anonymous_visitors_first_request_after_a_run_from_the_cache_in_both_languages(self):
        for url in self.most_visited():  # pages seen before the run, under the old version
            self.client.get(url)
        self.rate()
        for language in LANGUAGES:
            for url in self.most_visited():
                with self.assertNumQueries(0):
                    response = self.client.get(url, HTTP_ACCEPT_LANGUAGE=language)
                assert response.status_code == 200, url
                assert response["X-Page-Cache"] == "hit", (url, language)
                assert response["Content-Language"] == language, (url, language)
        # The warmed list shows the run's new ratings, not the page stored before it.
        rated = self.client.get(reverse("ratings:list", args=["orr"]))
        for player in self.players:
            self.assertContains(rated, player.full_name)
        assert pagecache.last_warming()["failed"] == []
        assert pagecache.last_warming()["pages"] == 2 * len(self.most_visited())

    def test_it_keeps_serving_the_old_pages_while_the_new_ones_are_warmed(self):
        before = pagecache.version()
        seen = []
        with override_settings(PAGE_CACHE_WARM="tests.toolkit.test_pagecache_warming.record_version"):
            RECORDED.clear()
            self.rate()
            seen = list(RECORDED)
        assert seen == [before], "visitors kept the old version until the pages were warm"
        assert pagecache.version() != before

    @override_settings(PAGE_CACHE_WARM="tests.toolkit.test_pagecache_warming.boom")
    def test_it_rates_and_bumps_even_when_warming_fails_and_says_so(self):
        before = pagecache.version()
        with self.assertLogs("toolkit.pagecache", level=logging.ERROR) as logs:
            self.rate()
        self.tournament.refresh_from_db()
        assert self.tournament.status == self.tournament.Status.RATED
        assert pagecache.version() != before
        assert "could not be read" in pagecache.last_warming()["error"]
        assert "page cache warming failed" in logs.output[0]

    @override_settings(PAGE_CACHE_WARM="tests.toolkit.test_pagecache_warming.with_a_missing_page")
    def test_it_names_a_page_that_could_not_be_warmed_and_warms_the_others(self):
        with self.assertLogs("toolkit.pagecache", level=logging.ERROR):
            self.rate()
        warming = pagecache.last_warming()
        assert warming["pages"] == 2
        assert warming["failed"] == ["/tournaments/999999/ (en): 404", "/tournaments/999999/ (ru): 404"]
        with self.assertNumQueries(0):
            assert self.client.get("/")["X-Page-Cache"] == "hit"

    @override_settings(PAGE_CACHE_SECONDS=0)
    def test_it_warms_nothing_when_the_page_cache_is_off(self):
        cache.delete(pagecache.WARMING_KEY)
        self.rate()
        assert pagecache.last_warming() is None


RECORDED = []


def record_version():
    """A page list that notes what a visitor would be served meanwhile: the version outside warming."""
    token = pagecache._warming_version.set(None)
    try:
        RECORDED.append(pagecache.version())
    finally:
        pagecache._warming_version.reset(token)
    return []


def with_a_missing_page():
    return ["/", "/tournaments/999999/"]


@override_settings(PAGE_CACHE_SECONDS=3600, SITE_URL="http://testserver", PAGE_CACHE_WARM=f"{__name__}.home_only")
class WarmingInARequestTestCase(BaseTestCase):
    def test_it_leaves_the_callers_language_as_it_was(self):
        """A month published from a staff page warms in the request: the rest of it stays in its language."""
        from django.utils import translation

        with translation.override("en"):
            pagecache.warm_and_bump()  # the last page warmed is Russian
            assert translation.get_language() == "en"
        assert pagecache.last_warming()["pages"] == 2


def home_only():
    return ["/"]


ASKED = []


def waiting_after_one_page() -> bool:
    """A newer run starts waiting once the first page is warm."""
    ASKED.append(True)
    return len(ASKED) > 1


@override_settings(PAGE_CACHE_SECONDS=3600, SITE_URL="http://testserver")
class GivingWayTestCase(BaseTestCase):
    @override_settings(PAGE_CACHE_WARM_STOP="tests.toolkit.test_pagecache_warming.waiting_after_one_page")
    def test_it_stops_warming_when_a_newer_run_waits_and_still_switches_to_the_new_data(self):
        ASKED.clear()
        before = pagecache.version()
        pagecache.warm_and_bump()
        warming = pagecache.last_warming()
        assert warming["stopped"] is True
        assert warming["pages"] == 2  # the first page in both languages, then it gave way
        assert pagecache.version() != before

    def test_it_knows_when_a_rating_run_waits(self):
        from ratings.models import RatingRequest
        from ratings.selectors import rating_run_waiting

        assert not rating_run_waiting()
        request = RatingRequest.objects.create(reason=RatingRequest.Reason.ADMIN, since=datetime.date(2025, 1, 1))
        assert request.state == RatingRequest.State.PENDING
        assert rating_run_waiting()
        RatingRequest.objects.filter(pk=request.pk).update(state=RatingRequest.State.RUNNING)
        assert not rating_run_waiting()
