"""The public API counts each client's requests and answers 429 past the limit."""

import json
from unittest import mock

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.test import RequestFactory, override_settings

from federation.env import env_header, env_rate
from tests.base import BaseTestCase
from tests.players.factories import PlayerFactory
from toolkit import ratelimit
from toolkit.clients import client_address
from toolkit.rates import parse_rate


@override_settings(API_RATE_LIMIT="3/minute", TRUSTED_PROXY_HEADER="")
class ApiRateLimitTestCase(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        cls.player = PlayerFactory()

    def get(self, url, **extra):
        return self.client.get(url, **extra)

    def test_it_answers_429_with_retry_after_past_the_limit(self):
        url = f"/api/players/{self.player.federation_id}/"
        with mock.patch.object(ratelimit.time, "time", return_value=1_000_020.0):
            remaining = []
            for _ in range(3):
                response = self.get(url)
                assert response.status_code == 200
                assert response["X-RateLimit-Limit"] == "3"
                remaining.append(response["X-RateLimit-Remaining"])
            assert remaining == ["2", "1", "0"]
            refused = self.get("/api/lists/orr/")
        assert refused.status_code == 429
        assert refused["Content-Type"] == "application/json"
        # The window of minute 16667 ends at 1,000,080; its three requests then weigh 3 × (1 − f) in
        # the next one, and a fourth fits when 3 × (1 − f) + 1 ≤ 3: at f = 1/3, 20 s later.
        assert refused["Retry-After"] == "80"
        assert refused["X-RateLimit-Remaining"] == "0"
        assert refused["X-RateLimit-Reset"] == "80"
        body = json.loads(refused.content)
        assert body["retry_after"] == 80
        assert "Too many requests" in body["error"]
        # Another client is counted apart; the next window does not start afresh (a sliding window):
        # at its start the last one's three still count, 20 s into it one more fits.
        with mock.patch.object(ratelimit.time, "time", return_value=1_000_021.0):
            assert self.get(url, REMOTE_ADDR="192.0.2.7").status_code == 200
        with mock.patch.object(ratelimit.time, "time", return_value=1_000_080.0):
            assert self.get(url).status_code == 429
        with mock.patch.object(ratelimit.time, "time", return_value=1_000_100.0):
            assert self.get(url).status_code == 200

    def test_it_counts_every_json_endpoint_and_states_the_limit_on_the_api_page(self):
        for _ in range(3):
            self.get(f"/api/players/{self.player.federation_id}/")
        assert self.get("/api/tournaments/999/").status_code == 429
        assert self.get("/api/lists/orr/").status_code == 429
        page = self.get("/api/")
        assert page.status_code == 200
        self.assertContains(page, "may make 3 requests a minute")
        self.assertContains(page, "X-RateLimit-Remaining")

    @override_settings(TRUSTED_PROXY_HEADER="X-Forwarded-For")
    def test_it_tells_clients_behind_a_proxy_apart_by_the_header(self):
        url = f"/api/players/{self.player.federation_id}/"
        for _ in range(3):
            assert self.get(url, HTTP_X_FORWARDED_FOR="203.0.113.5").status_code == 200
        assert self.get(url, HTTP_X_FORWARDED_FOR="203.0.113.5").status_code == 429
        # The same proxy (REMOTE_ADDR) for another client; a forged first entry changes nothing.
        assert self.get(url, HTTP_X_FORWARDED_FOR="203.0.113.6").status_code == 200
        assert self.get(url, HTTP_X_FORWARDED_FOR="10.0.0.1, 203.0.113.5").status_code == 429

    @override_settings(API_RATE_LIMIT="off")
    def test_it_can_be_switched_off(self):
        for _ in range(5):
            response = self.get(f"/api/players/{self.player.federation_id}/")
            assert response.status_code == 200
            assert "X-RateLimit-Limit" not in response


def test_it_reads_the_client_address_from_the_trusted_header_only():
    factory = RequestFactory()
    request = factory.get("/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="1.2.3.4, 198.51.100.9")
    with override_settings(TRUSTED_PROXY_HEADER=""):
        assert client_address(request) == "10.0.0.2"
    with override_settings(TRUSTED_PROXY_HEADER="X-Forwarded-For"):
        assert client_address(request) == "198.51.100.9"
    with override_settings(TRUSTED_PROXY_HEADER="X-Real-IP"):
        assert client_address(request) == "10.0.0.2"  # header missing: the proxy's own address
        request.META["HTTP_X_REAL_IP"] = "not an address"
        assert client_address(request) == "10.0.0.2"
        request.META["HTTP_X_REAL_IP"] = " 2001:db8::1 "
        assert client_address(request) == "2001:db8::1"


def test_it_reads_rates_and_headers_loudly():
    assert parse_rate("120/minute") == (120, 60)
    assert parse_rate("5/second") == (5, 1)
    assert parse_rate("1000/day") == (1000, 86400)
    assert parse_rate("off") is None
    assert env_rate("API_RATE_LIMIT", "120/minute", environ_={}) == "120/minute"
    for bad in ("120", "120/minutes", "0/minute", "-1/hour", "many/hour", "1.5/minute"):
        with pytest.raises(ImproperlyConfigured, match="API_RATE_LIMIT"):
            env_rate("API_RATE_LIMIT", "120/minute", environ_={"API_RATE_LIMIT": bad})
    assert env_header("TRUSTED_PROXY_HEADER", "", environ_={"TRUSTED_PROXY_HEADER": "X-Real-IP"}) == "X-Real-IP"
    with pytest.raises(ImproperlyConfigured, match="TRUSTED_PROXY_HEADER"):
        env_header("TRUSTED_PROXY_HEADER", "", environ_={"TRUSTED_PROXY_HEADER": "X Forwarded: For"})
