"""After a rating run publishes, the pages it changed are already in the cache under the new data's
version (issues 28 and 35): the first visitors, in either language, are served without a query; the
pages it did not change cost the run nothing, and a run with the GCR run it sets off switches once."""

import datetime
import logging
from unittest import mock

import pytest
from django.core.cache import cache
from django.db import transaction
from django.test import override_settings
from django.urls import reverse

from ratings import services
from ratings.accuracy import selectors as accuracy_selectors
from ratings.models import RatingRequest, System
from tests.base import BaseTestCase
from tests.players.factories import PlayerFactory
from tests.ratings.scenario import make_tournament
from toolkit import pagecache

LANGUAGES = ("en", "ru")


def boom(changed):
    raise RuntimeError("the list of pages could not be read")


@override_settings(PAGE_CACHE_SECONDS=3600, SITE_URL="http://testserver")
class WarmingTestCase(BaseTestCase):
    def setUp(self):
        self.players = PlayerFactory.create_batch(4)
        self.tournament = make_tournament("Autumn Open", datetime.date(2025, 10, 1), self.players, rounds=3)

    def rate(self, tournament=None):
        with self.captureOnCommitCallbacks(execute=True):
            return services.rating_run(tournament_id=(tournament or self.tournament).pk)

    def changed_by_the_run(self):
        """The report, the home page, the tournaments' list, the three lists it moved, its players."""
        return [
            reverse("tournaments:detail", args=[self.tournament.pk]),
            "/",
            reverse("tournaments:list"),
            *(reverse("ratings:list", args=[system]) for system in (System.ORR, System.MCHESS, System.PLAYCHESS)),
            *(player.get_absolute_url() for player in self.players),
        ]

    def assert_warm(self, urls):
        for language in LANGUAGES:
            for url in urls:
                with self.assertNumQueries(0):
                    response = self.client.get(url, HTTP_ACCEPT_LANGUAGE=language)
                assert response.status_code == 200, url
                assert response["X-Page-Cache"] == "hit", (url, language)
                assert response["Content-Language"] == language, (url, language)

    def test_it_serves_the_anonymous_visitors_first_request_after_a_run_from_the_cache_in_both_languages(self):
        for url in self.changed_by_the_run():  # pages seen before the run, under the old version
            self.client.get(url)
        self.rate()
        self.assert_warm(self.changed_by_the_run())
        # The warmed list shows the run's new ratings, not the page stored before it.
        rated = self.client.get(reverse("ratings:list", args=["orr"]))
        for player in self.players:
            self.assertContains(rated, player.full_name)
        assert pagecache.last_warming()["failed"] == []
        assert pagecache.last_warming()["pages"] == 2 * len(self.changed_by_the_run())

    def test_it_warms_only_what_the_run_changed(self):
        earlier = make_tournament("Summer Open", datetime.date(2025, 7, 1), PlayerFactory.create_batch(4), rounds=3)
        self.rate(earlier)
        self.rate()  # rates the Autumn Open only: the Summer Open's report and players stay as they were
        warming = pagecache.last_warming()
        assert (warming["planned"], warming["before_switch"]) == (2 * 10, 2 * 6)
        unchanged = [
            reverse("tournaments:detail", args=[earlier.pk]),
            earlier.participants.first().player.get_absolute_url(),
            reverse("ratings:list", args=[System.GCR]),  # GCR has not run
            reverse("ratings:index"),
        ]
        for url in unchanged:
            assert self.client.get(url)["X-Page-Cache"] == "miss", url

    def test_it_warms_the_most_visited_pages_after_a_change_of_nothing_in_particular(self):
        """A published month (or a warming asked by hand): the index, every list, the last reports."""
        self.rate()
        pagecache.warm_and_bump()
        self.assert_warm(
            [
                reverse("tournaments:detail", args=[self.tournament.pk]),
                "/",
                reverse("ratings:index"),
                reverse("tournaments:list"),
                *(reverse("ratings:list", args=[system]) for system in System.values),
            ]
        )
        assert self.client.get(self.players[0].get_absolute_url())["X-Page-Cache"] == "miss"

    def test_it_switches_to_the_new_data_before_warming_the_players_pages(self):
        seen = []

        def visitors_version():  # asked before each page: the version a visitor is served meanwhile
            token = pagecache._warming_version.set(None)
            try:
                seen.append(pagecache.version())
            finally:
                pagecache._warming_version.reset(token)
            return False

        before = pagecache.version()
        with mock.patch("ratings.selectors.rating_run_waiting", visitors_version):
            self.rate()
        after = pagecache.version()
        assert after != before
        # The report, home, the tournaments' list and three lists under the old version; the players after.
        assert seen == [before] * 6 + [after] * 4
        assert pagecache.last_warming()["switched"] <= pagecache.last_warming()["seconds"]

    def test_it_warms_and_switches_once_for_a_run_and_the_gcr_run_after_it(self):
        before = pagecache.version()
        switched = []
        counted = mock.patch.object(pagecache, "warm_and_bump", wraps=pagecache.warm_and_bump)
        with counted as warmed, pagecache.one_switch():
            self.rate()
            assert pagecache.version() == before  # held: the run alone switches nobody
            with self.captureOnCommitCallbacks(execute=True):
                services.gcr_recompute()
            pagecache.after_switch(lambda: switched.append(pagecache.version()))
            assert switched == []
        assert warmed.call_count == 1
        assert switched == [pagecache.version()] != [before]
        self.assert_warm([*self.changed_by_the_run(), reverse("ratings:list", args=[System.GCR])])

    def test_it_switches_at_the_end_even_when_the_gcr_run_fails(self):
        before = pagecache.version()
        with self.assertRaises(RuntimeError), pagecache.one_switch():
            self.rate()
            raise RuntimeError("GCR failed")
        assert pagecache.version() != before
        self.assert_warm(self.changed_by_the_run()[:1])

    def test_it_does_not_fail_the_runs_task_when_the_cache_is_down_at_the_switch(self):
        down = mock.patch.object(pagecache, "bump", side_effect=ConnectionError("cache down"))
        with down, self.assertLogs("toolkit.pagecache", level=logging.ERROR) as logs, pagecache.one_switch():
            self.rate()
        assert "page cache switch after the run failed" in logs.output[-1]
        self.tournament.refresh_from_db()
        assert self.tournament.status == self.tournament.Status.RATED

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

    @override_settings(CACHES={"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}})
    def test_it_only_bumps_in_a_command_whose_cache_is_its_own_memory(self):
        """The demo's loading: what it would warm into the command's own memory no visitor reads."""
        before = pagecache.version()
        with pagecache.in_a_command():
            self.rate()
        assert pagecache.version() != before
        assert pagecache.last_warming() is None

    def test_it_warms_in_a_command_whose_cache_the_site_shares(self):
        import tempfile

        with tempfile.TemporaryDirectory() as folder:
            shared = {"default": {"BACKEND": "django.core.cache.backends.filebased.FileBasedCache", "LOCATION": folder}}
            with override_settings(CACHES=shared), pagecache.in_a_command():
                self.rate()
                assert pagecache.last_warming()["pages"] == 2 * len(self.changed_by_the_run())

    def test_it_computes_the_accuracy_figures_for_the_data_visitors_are_switched_to(self):
        from ratings import tasks

        with pagecache.one_switch():
            self.rate()
            with self.captureOnCommitCallbacks(execute=True):
                services.gcr_request()
                tasks.recompute_gcr()
            assert cache.get(accuracy_selectors.cache_key()) is None
        assert cache.get(accuracy_selectors.cache_key()) is not None


@pytest.mark.django_db(transaction=True)
@override_settings(PAGE_CACHE_SECONDS=3600, SITE_URL="http://testserver")
def test_it_warms_once_for_a_confirmed_tournaments_run_and_its_gcr_run_where_tasks_run_eagerly():
    """The embedded default (no broker): the run's task sets GCR off at once; one warming covers both
    (issue 35 measured two full warmings per run)."""
    tournament = make_tournament("Winter Open", datetime.date(2025, 12, 1), PlayerFactory.create_batch(4), rounds=3)
    counted = mock.patch.object(pagecache, "warm_and_bump", wraps=pagecache.warm_and_bump)
    with counted as warmed, transaction.atomic():  # as a confirmation asks: the run is sent at the commit
        services.rating_request(reason=RatingRequest.Reason.CONFIRM, tournament=tournament)
    tournament.refresh_from_db()
    assert tournament.status == tournament.Status.RATED
    assert warmed.call_count == 1
    (changed,) = warmed.call_args.args
    assert [sorted(change.systems) for change in changed] == [["mchess", "orr", "playchess"], ["gcr"]]
    assert changed[0].tournaments == [tournament.pk]


RECORDED = []


def record_version(changed):
    """A page list that notes what a visitor would be served meanwhile: the version outside warming."""
    token = pagecache._warming_version.set(None)
    try:
        RECORDED.append(pagecache.version())
    finally:
        pagecache._warming_version.reset(token)
    return [], []


def with_a_missing_page(changed):
    return ["/", "/tournaments/999999/"], []


@override_settings(PAGE_CACHE_SECONDS=3600, SITE_URL="http://testserver", PAGE_CACHE_WARM=f"{__name__}.home_only")
class WarmingInARequestTestCase(BaseTestCase):
    def test_it_leaves_the_callers_language_as_it_was(self):
        """A month published from a staff page warms in the request: the rest of it stays in its language."""
        from django.utils import translation

        with translation.override("en"):
            pagecache.warm_and_bump()  # the last page warmed is Russian
            assert translation.get_language() == "en"
        assert pagecache.last_warming()["pages"] == 2


def home_only(changed):
    return ["/"], []


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
