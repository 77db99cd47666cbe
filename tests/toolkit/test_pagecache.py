"""Anonymous visitors' public pages and API answers come from the cache until the data changes;
nobody ever gets a page made for someone else."""

import datetime
import re
from unittest import mock

from django.core.cache import cache
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from accounts.roles import ARBITERS, role
from ratings import services
from tests.base import BaseTestCase
from tests.players.factories import PlayerFactory
from tests.ratings.factories import PlayerRatingFactory
from tests.ratings.scenario import make_tournament
from toolkit import pagecache

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


@override_settings(PAGE_CACHE_SECONDS=3600)
class PageCacheTestCase(BaseTestCase):
    def setUp(self):
        self.rating = PlayerRatingFactory(rating=1850)
        self.list_url = reverse("ratings:list", args=["orr"])

    def test_it_serves_the_second_request_from_the_cache_without_queries(self):
        first = self.client.get(self.list_url)
        assert first["X-Page-Cache"] == "miss"
        with self.assertNumQueries(0):
            second = self.client.get(self.list_url)
        assert second["X-Page-Cache"] == "hit"
        assert second.content == first.content or TOKEN.sub("", second.content.decode()) == TOKEN.sub(
            "", first.content.decode()
        )
        self.assertContains(second, self.rating.player.full_name)

    def test_it_caches_the_api_player_pages_and_tournament_reports(self):
        tournament = make_tournament("Cup", datetime.date(2025, 3, 1), PlayerFactory.create_batch(4), rounds=2)
        with self.captureOnCommitCallbacks(execute=True):
            services.rating_run(tournament_id=tournament.pk)
        player = tournament.participants.first().player
        for url in [
            reverse("api:list", args=["orr"]),
            reverse("api:player", args=[player.federation_id]),
            reverse("api:tournament", args=[tournament.pk]),
            reverse("players:detail", args=[player.federation_id]),
            reverse("tournaments:detail", args=[tournament.pk]),
            reverse("tournaments:list"),
            "/",
        ]:
            assert self.client.get(url)["X-Page-Cache"] == "miss", url
            with self.assertNumQueries(0):
                assert self.client.get(url)["X-Page-Cache"] == "hit", url

    def test_it_shows_a_rating_run_at_once(self):
        players = PlayerFactory.create_batch(4)
        self.client.get(self.list_url)
        assert self.client.get(self.list_url)["X-Page-Cache"] == "hit"
        tournament = make_tournament("Spring Open", datetime.date(2025, 4, 1), players, rounds=3)
        with self.captureOnCommitCallbacks(execute=True):
            services.rating_run(tournament_id=tournament.pk)
        response = self.client.get(self.list_url)
        assert response["X-Page-Cache"] == "miss"
        for player in players:
            self.assertContains(response, player.full_name)

    def test_it_keeps_no_page_rendered_during_a_run_under_the_new_version(self):
        """The bump comes after the commit: until then pages are stored under the old version."""
        before = pagecache.version()
        with self.captureOnCommitCallbacks(execute=False) as callbacks:
            pagecache.bump_on_commit()
            assert pagecache.version() == before
        for callback in callbacks:
            callback()
        assert pagecache.version() != before

    def test_it_shows_a_published_month_at_once(self):
        self.client.get(self.list_url)
        with self.captureOnCommitCallbacks(execute=True):
            services.publish_lists(month=datetime.date(2026, 1, 1))
        self.assertContains(self.client.get(self.list_url), 'value="2026-01"')

    def test_it_never_gives_a_logged_in_user_the_cached_anonymous_page(self):
        self.client.get(self.list_url)
        assert self.client.get(self.list_url)["X-Page-Cache"] == "hit"
        self.login(self.arbiter)
        response = self.client.get(self.list_url)
        assert "X-Page-Cache" not in response
        self.assertContains(response, "Log out (arbiter)")

    def test_it_never_gives_an_anonymous_visitor_a_logged_in_users_page(self):
        user = Client()
        user.force_login(self.arbiter)
        self.assertContains(user.get(self.list_url), "Log out (arbiter)")
        response = self.client.get(self.list_url)
        assert response["X-Page-Cache"] == "miss"
        self.assertNotContains(response, "Log out")
        self.assertNotContains(self.client.get(self.list_url), "Log out")

    # Local memory, whatever CACHE_URL says: the test reads the stored entries themselves.
    @override_settings(CACHES={"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}})
    def test_it_gives_each_visitor_his_own_csrf_token_and_cookie(self):
        first, second = Client(), Client()
        first.get(self.list_url)
        response = second.get(self.list_url)
        assert response["X-Page-Cache"] == "hit"
        token = TOKEN.search(response.content.decode()).group(1)
        cookie = response.cookies["csrftoken"].value
        assert cookie != first.cookies["csrftoken"].value
        stored = list(cache._cache.values())  # locmem: the pickled entries
        assert not any(cookie.encode() in v for v in stored)
        # The token of the cached page works for this visitor: the language switch accepts it.
        second_checked = Client(enforce_csrf_checks=True)
        second_checked.cookies = second.cookies
        switched = second_checked.post(
            reverse("set_language"), {"language": "ru", "next": "/", "csrfmiddlewaretoken": token}
        )
        assert switched.status_code == 302

    def test_it_does_not_serve_a_visitor_with_a_session_from_the_cache(self):
        self.client.get(self.list_url)
        self.client.cookies["sessionid"] = "whatever"
        assert "X-Page-Cache" not in self.client.get(self.list_url)

    def test_it_says_the_page_varies_by_cookie_and_language(self):
        response = self.client.get(self.list_url)
        vary = {part.strip() for part in response["Vary"].split(",")}
        assert {"Cookie", "Accept-Language"} <= vary

    def test_it_keeps_query_strings_and_languages_as_different_entries(self):
        assert self.client.get(self.list_url + "?sex=M&page=1")["X-Page-Cache"] == "miss"
        assert self.client.get(self.list_url + "?page=1&sex=M")["X-Page-Cache"] == "hit"  # same query
        assert self.client.get(self.list_url + "?sex=F")["X-Page-Cache"] == "miss"
        russian = self.client.get(self.list_url + "?sex=M&page=1", HTTP_ACCEPT_LANGUAGE="ru")
        assert russian["X-Page-Cache"] == "miss"
        self.assertContains(russian, "Рейтинг")
        english = self.client.get(self.list_url + "?sex=M&page=1", HTTP_ACCEPT_LANGUAGE="en")
        assert english["X-Page-Cache"] == "hit"
        self.assertNotContains(english, "Рейтинг-лист")

    def test_it_keeps_the_apis_json_as_one_entry_for_every_language(self):
        url = reverse("api:list", args=["orr"])
        assert self.client.get(url, HTTP_ACCEPT_LANGUAGE="ru")["X-Page-Cache"] == "miss"
        assert self.client.get(url, HTTP_ACCEPT_LANGUAGE="en")["X-Page-Cache"] == "hit"
        # Its error messages are translated: never cached.
        bad = url + "?birth_year=abc"
        russian = self.client.get(bad, HTTP_ACCEPT_LANGUAGE="ru").json()
        english = self.client.get(bad, HTTP_ACCEPT_LANGUAGE="en").json()
        assert russian != english

    def test_it_does_not_cache_an_error(self):
        url = reverse("players:detail", args=[987654])
        assert self.client.get(url).status_code == 404
        PlayerFactory(federation_id=987654)
        assert self.client.get(url).status_code == 200
        bad = reverse("api:list", args=["orr"]) + "?birth_year=abc"
        assert self.client.get(bad).status_code == 400
        assert "X-Page-Cache" not in self.client.get(bad)

    def test_it_caches_a_download_too(self):
        url = self.list_url + "?download=csv"
        assert self.client.get(url)["X-Page-Cache"] == "miss"
        response = self.client.get(url)
        assert response["X-Page-Cache"] == "hit"
        assert response["Content-Type"].startswith("text/csv")
        assert "attachment;" in response["Content-Disposition"]
        self.assertContains(response, self.rating.player.full_name)

    def test_it_shows_a_staff_correction_at_once(self):
        player = self.rating.player
        url = reverse("players:detail", args=[player.federation_id])
        self.client.get(url)
        assert self.client.get(url)["X-Page-Cache"] == "hit"
        admin = Client()
        admin.force_login(self.admin)
        edit = reverse("staff:birth_date", args=[player.federation_id])
        with self.captureOnCommitCallbacks(execute=True):
            answer = admin.post(edit, {"birth_date": "1977", "reason": "passport", "confirm": "1"})
        assert answer.status_code == 302
        response = self.client.get(url)
        assert response["X-Page-Cache"] == "miss"
        self.assertContains(response, "1977")

    def test_it_is_not_emptied_by_a_visitors_own_write(self):
        self.client.get(self.list_url)
        visitor = Client()
        with self.captureOnCommitCallbacks(execute=True):
            visitor.post(reverse("login"), {"username": "nobody", "password": "wrong"})
        assert self.client.get(self.list_url)["X-Page-Cache"] == "hit"
        # A player's own write (switching the language while logged in) neither.
        visitor.force_login(self.player_user)
        with self.captureOnCommitCallbacks(execute=True):
            visitor.post(reverse("set_language"), {"language": "ru", "next": "/"})
        assert self.client.get(self.list_url)["X-Page-Cache"] == "hit"
        # An arbiter's does: his uploads and confirmations change public pages.
        self.other_arbiter.groups.add(role(ARBITERS))
        visitor.force_login(self.other_arbiter)
        with self.captureOnCommitCallbacks(execute=True):
            visitor.post(reverse("set_language"), {"language": "ru", "next": "/"})
        assert self.client.get(self.list_url)["X-Page-Cache"] == "miss"

    def test_it_makes_a_new_entry_on_a_new_day(self):
        """ "Active in the last 12 months", the age groups and a download's date turn with the day."""
        self.client.get(self.list_url)
        tomorrow = timezone.localdate() + datetime.timedelta(days=1)
        with mock.patch("toolkit.pagecache.timezone.localdate", return_value=tomorrow):
            assert self.client.get(self.list_url)["X-Page-Cache"] == "miss"

    def test_it_keeps_the_site_up_when_the_cache_is_down(self):
        with (
            mock.patch.object(cache, "get_many", side_effect=ConnectionError("redis down")),
            self.assertLogs("toolkit.pagecache", "WARNING"),
        ):
            response = self.client.get(self.list_url)
        assert response.status_code == 200
        assert "X-Page-Cache" not in response
        self.assertContains(response, self.rating.player.full_name)
