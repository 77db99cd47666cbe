"""/metrics behind its token, scraped after real events: requests, rating runs, messages in and
out, time claims, and the backlog read at scrape time."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone
from prometheus_client.parser import text_string_to_metric_families

from play import rulings, services
from play.models import Transmission
from ratings import services as rating_services
from ratings.models import RatingRequest
from tests.play.desk.helpers import START, later
from tests.play.events.helpers import make_event, quiet_console  # noqa: F401

pytestmark = pytest.mark.django_db

TOKEN = "a-metrics-token-of-test"


@pytest.fixture(autouse=True)
def _token(settings):
    settings.METRICS_TOKEN = TOKEN


def scrape(client) -> dict[tuple, float]:
    response = client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    samples = {}
    for family in text_string_to_metric_families(response.content.decode()):
        for sample in family.samples:
            samples[(sample.name, *sorted(sample.labels.items()))] = sample.value
    return samples


def value(samples, name, **labels) -> float:
    return samples.get((name, *sorted(labels.items())), 0.0)


def test_it_is_off_without_a_token_and_refuses_a_wrong_one(client, settings):
    assert client.get("/metrics", headers={"Authorization": "Bearer wrong-token-123456"}).status_code == 401
    response = client.get("/metrics")
    assert response.status_code == 401 and response["WWW-Authenticate"].startswith("Bearer")
    settings.METRICS_TOKEN = ""
    assert client.get("/metrics", headers={"Authorization": "Bearer "}).status_code == 404


def test_it_counts_requests_by_route_and_status_and_times_them(client):
    before = scrape(client)
    client.get("/health/")
    client.get("/health/")
    client.get("/no-such-page/")
    after = scrape(client)
    ok = {"method": "GET", "route": "operations:health", "status": "200"}
    assert (
        value(after, "federation_http_requests_total", **ok) - value(before, "federation_http_requests_total", **ok)
        == 2
    )
    lost = {"method": "GET", "route": "<unmatched>", "status": "404"}
    assert (
        value(after, "federation_http_requests_total", **lost) - value(before, "federation_http_requests_total", **lost)
        == 1
    )
    timed = {"method": "GET", "route": "operations:health"}
    count = "federation_http_request_duration_seconds_count"
    assert value(after, count, **timed) - value(before, count, **timed) == 2


def test_it_counts_rating_runs_and_their_duration(client):
    before = scrape(client)
    RatingRequest.objects.create(reason="admin")
    rating_services.run_requests(worker="test")
    assert RatingRequest.objects.get().state == "done"
    after = scrape(client)
    done = {"kind": "requests", "outcome": "done"}
    assert (
        value(after, "federation_rating_runs_total", **done) - value(before, "federation_rating_runs_total", **done)
        == 1
    )
    count = "federation_rating_run_duration_seconds_count"
    assert value(after, count, kind="requests") - value(before, count, kind="requests") == 1
    assert value(after, "federation_rating_run_duration_seconds_sum", kind="requests") > value(
        before, "federation_rating_run_duration_seconds_sum", kind="requests"
    )


def test_it_counts_messages_in_and_out_claims_and_the_outbox_backlog(
    client, personas, django_capture_on_commit_callbacks
):
    before = scrape(client)
    event = make_event(personas["admin"], 2, code="metrics", start=START)
    game = event.games.select_related("white", "black").get()
    with django_capture_on_commit_callbacks(execute=True):
        # Black sends a message before anything is due; then the clock files the claim against White.
        services.message_receive(
            channel="console", sender=str(game.black.federation_id), text="STATUS", arrival=START, game_code=game.code
        )
        services.games_sweep(now=later(1))
    with django_capture_on_commit_callbacks(execute=True):
        rulings.claim_decide(game=game, against="white", ply=1, upheld=True, by=personas["admin"], at=later(60))
    # A message left pending on SMS, as when the gateway is down.
    Transmission.objects.create(
        direction="out", channel="sms", party="white", kind="move", text="1. e4", delivery="pending",
        at=timezone.now() - datetime.timedelta(seconds=90),
    )  # fmt: skip
    after = scrape(client)

    def grew(name, **labels):
        return value(after, name, **labels) - value(before, name, **labels)

    assert grew("federation_messages_in_total", channel="console") == 1
    sent = Transmission.objects.filter(direction="out", channel="console", delivery="sent").count()
    assert sent >= 2 and grew("federation_messages_out_total", channel="console", result="sent") == sent
    assert grew("federation_claims_total", event="filed") == 1
    assert grew("federation_claims_total", event="upheld") == 1
    assert value(after, "federation_outbox_pending", channel="sms") == 1
    assert 89 < value(after, "federation_outbox_oldest_seconds", channel="sms") < 150
    assert value(after, "federation_rating_oldest_waiting_seconds") >= 0
