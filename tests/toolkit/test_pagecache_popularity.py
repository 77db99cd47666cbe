"""After a rating run the cache is warmed with what the visitors asked most, in the language they asked
it in (issue 28: player pages and API answers are most of the traffic), and the counting survives a
cache that is down."""

import datetime
from unittest import mock

from django.core.cache import cache
from django.test import override_settings
from django.urls import reverse

from ratings import services
from tests.base import BaseTestCase
from tests.players.factories import PlayerFactory
from tests.ratings.scenario import make_tournament
from toolkit import pagecache, popularity


def nothing_fixed(changed):
    return [], []


ASKED = []


def asked():
    """The warming asks before each page whether a newer run waits: counts the pages begun."""
    ASKED.append(True)
    return False


@override_settings(PAGE_CACHE_SECONDS=3600, SITE_URL="http://testserver", PAGE_CACHE_WARM=f"{__name__}.nothing_fixed")
class PopularityTestCase(BaseTestCase):
    def setUp(self):
        popularity.flush()  # what earlier tests counted in this process
        cache.clear()
        self.players = PlayerFactory.create_batch(4)
        self.tournament = make_tournament("Spring Open", datetime.date(2025, 4, 1), self.players, rounds=3)
        with self.captureOnCommitCallbacks(execute=True):
            services.rating_run(tournament_id=self.tournament.pk)

    def visit(self, url, language, times):
        for _ in range(times):
            assert self.client.get(url, HTTP_ACCEPT_LANGUAGE=language).status_code == 200

    def test_it_warms_the_most_asked_entries_in_the_language_asked_and_the_api_once(self):
        first, second = (reverse("players:detail", args=[p.federation_id]) for p in self.players[:2])
        api = reverse("api:player", args=[self.players[0].federation_id])
        self.visit(first + "?b=2&a=1", "ru", 3)
        self.visit(api, "ru", 2)
        self.visit(api, "en", 1)  # one entry for every language: counted together
        self.visit(second, "en", 1)
        assert popularity.most_asked(10) == [("-", api), ("ru", first + "?a=1&b=2"), ("en", second)]
        with override_settings(PAGE_CACHE_WARM_POPULAR=2), self.captureOnCommitCallbacks(execute=True):
            services.rating_run(tournament_id=self.tournament.pk)  # a re-run: new version
        warming = pagecache.last_warming()
        assert (warming["pages"], warming["planned"], warming["failed"]) == (2, 2, [])
        for url, language, served in [
            (first + "?a=1&b=2", "ru", "hit"),
            (api, "en", "hit"),
            (api, "ru", "hit"),
            (first + "?a=1&b=2", "en", "miss"),  # asked in Russian only
            (second, "en", "miss"),  # past the limit
        ]:
            response = self.client.get(url, HTTP_ACCEPT_LANGUAGE=language)
            assert response["X-Page-Cache"] == served, (url, language)

    def test_it_does_not_count_the_warmings_own_requests(self):
        url = reverse("players:detail", args=[self.players[0].federation_id])
        self.visit(url, "en", 1)
        with override_settings(PAGE_CACHE_WARM_POPULAR=5):
            pagecache.warm_and_bump()
        assert popularity.most_asked(5) == [("en", url)]

    def test_it_stops_warming_when_its_time_is_up(self):
        self.visit(reverse("players:detail", args=[self.players[0].federation_id]), "en", 1)
        self.visit(reverse("players:detail", args=[self.players[1].federation_id]), "en", 1)
        ASKED.clear()
        fake_time = mock.Mock(monotonic=lambda: 100.0 if ASKED else 0.0)  # 100 s pass during the first page
        settings = override_settings(
            PAGE_CACHE_WARM_POPULAR=5,
            PAGE_CACHE_WARM_SECONDS=30,
            PAGE_CACHE_WARM_STOP=f"{__name__}.asked",
        )
        with settings, mock.patch.object(pagecache, "time", fake_time):
            pagecache.warm_and_bump()
        warming = pagecache.last_warming()
        assert (warming["pages"], warming["planned"], warming["out_of_time"]) == (1, 2, True)

    def test_it_loses_the_counts_and_nothing_else_when_the_cache_is_down(self):
        popularity.note("en", "/players/1/")
        down = mock.patch.object(popularity, "_redis", side_effect=ConnectionError("down"))
        with down, self.assertLogs("toolkit.popularity", "WARNING"):
            popularity.flush()
        assert popularity.most_asked(5) == []
