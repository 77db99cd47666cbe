"""The site's reports counted like a phone's messages (toolkit.limits.web_wait): a player's
dispute, appeal and leave request and a TD's enquiry each land on a desk or a phone, so an account
past PLAY_INBOUND_PER_MINUTE a minute is refused with the wait, and nothing is stored.

The windows are clock minutes: each test spends the account's window of this minute and of the
next one before posting, so the post is over the limit whichever minute it lands in."""

import datetime
from types import SimpleNamespace

import pytest
from django.urls import reverse
from django.utils import timezone

from play.channels import limits
from play.models import Enquiry, Leave, Transmission
from tests.play.desk.helpers import cast_fixture, event_fixture, link, protested_fixture  # noqa: F401
from tests.play.events.helpers import quiet_console  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _one_a_minute(settings):
    settings.PLAY_INBOUND_PER_MINUTE = 1


def spend(user) -> None:
    # The one report of any 60 s (a sliding window): the request lands within them.
    assert limits.web_wait(user, timezone.now()) == 0


def refused(response) -> bool:
    html = response.content.decode()
    return "Too many requests: wait " in html and " s and send it again." in html


def test_it_refuses_a_players_dispute_over_the_limit_and_stores_nothing(client, cast, event):
    game = event.games.select_related("white", "black").get()
    link(cast["player"], game.black)
    client.force_login(cast["player"])
    spend(cast["player"])
    response = client.post(reverse("play:game_dispute", args=[game.code]), {"text": "arrived twice"}, follow=True)
    assert refused(response)
    assert not Transmission.objects.filter(direction="in").exists()


def test_it_refuses_a_players_appeal_over_the_limit_and_stores_nothing(client, cast, protested):
    link(cast["player"], protested.white)
    client.force_login(cast["player"])
    spend(cast["player"])
    before = Transmission.objects.count()
    response = client.post(reverse("play:game_appeal", args=[protested.code]), {"text": "unfair"}, follow=True)
    assert refused(response)
    assert Transmission.objects.count() == before


def test_it_refuses_a_players_leave_request_over_the_limit_and_stores_nothing(client, cast, event):
    game = event.games.select_related("white", "black").get()
    link(cast["player"], game.white)
    client.force_login(cast["player"])
    spend(cast["player"])
    tomorrow = timezone.now().date() + datetime.timedelta(days=1)
    response = client.post(
        reverse("play:game_leave", args=[game.code]),
        {"first_day": tomorrow.isoformat(), "last_day": tomorrow.isoformat(), "text": "a wedding"},
        follow=True,
    )
    assert refused(response)
    assert not Leave.objects.exists()


def test_it_refuses_a_tds_enquiry_over_the_limit_and_sends_nothing(client, cast, event):
    game = event.games.select_related("white", "black").get()
    client.force_login(cast["td"])
    spend(cast["td"])
    deadline = (timezone.now() + datetime.timedelta(days=1)).replace(microsecond=0)
    response = client.post(
        reverse("play:desk_enquiry", args=[event.pk]),
        {"player": game.white_id, "text": "Still playing?", "deadline": f"{deadline:%Y-%m-%d %H:%M:%S}"},
        follow=True,
    )
    assert refused(response)
    assert not Enquiry.objects.exists() and not Transmission.objects.filter(kind="enquiry").exists()


def test_it_counts_each_account_apart(client, cast, event):
    game = event.games.select_related("white", "black").get()
    link(cast["player"], game.black)
    spend(cast["td"])  # the TD's reports do not use up the player's
    client.force_login(cast["player"])
    response = client.post(reverse("play:game_dispute", args=[game.code]), {"text": "arrived twice"}, follow=True)
    assert "Your dispute reached the TD." in response.content.decode()


def test_it_names_the_wait_in_russian(client, cast, event):
    game = event.games.select_related("white", "black").get()
    link(cast["player"], game.black)
    client.force_login(cast["player"])
    spend(cast["player"])
    response = client.post(
        reverse("play:game_dispute", args=[game.code]), {"text": "x"}, follow=True, HTTP_ACCEPT_LANGUAGE="ru"
    )
    assert "Слишком много запросов: подождите " in response.content.decode()


def test_it_gives_the_seconds_left_in_the_window():
    """One report a minute, sent at 10:00:00: the window sliding over the last 60 s lets the next
    one go when that report has faded out of it, at 10:02:00 (it weighs 1 - f through 10:01)."""
    account = SimpleNamespace(pk=424242)
    minute = datetime.datetime(2026, 11, 20, 10, 0, tzinfo=datetime.UTC)
    assert limits.web_wait(account, minute) == 0
    seconds = [limits.web_wait(account, minute + datetime.timedelta(seconds=s)) for s in (1, 35, 59, 60, 119)]
    assert seconds == [119, 85, 61, 60, 1]
    assert limits.web_wait(account, minute + datetime.timedelta(seconds=120)) == 0
