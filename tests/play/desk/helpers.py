"""Shared by the desk tests: an event whose game has a protested time claim, a declared delay
and a dispute, played on the console channel two days ago; the personas of the desk."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from play import services
from players.models import PlayerLink
from tests.base import PASSWORD, federation_admin
from tests.play.events.helpers import make_event

# Two days ago, to the minute: decisions taken "now" on the pages fall after everything here.
START = (timezone.now() - datetime.timedelta(days=2)).replace(second=0, microsecond=0)
# White never moves: the failure-to-reply claim is filed at receipt + A + 1 + N.
FILED = START + datetime.timedelta(seconds=60 + 10_800 + 1 + 60)


def send(game, color, text, at):
    player = game.white if color == "white" else game.black
    return services.message_receive(
        channel="console", sender=str(player.federation_id), text=text, arrival=at, game_code=game.code
    )


def later(seconds: int) -> datetime.datetime:
    return FILED + datetime.timedelta(seconds=seconds)


def link(user, player):
    return PlayerLink.objects.create(
        user=user, player=player, relation="self", status="confirmed", decided_by=user, decided_at=START
    )


@pytest.fixture(name="cast")
def cast_fixture(django_user_model, personas):
    make = django_user_model.objects.create_user
    return {
        **personas,
        "td": make("director", "td@example.org", PASSWORD),
        "chair": make("chairman", "chair@example.org", PASSWORD),
        "other_td": make("other_td", "other@example.org", PASSWORD),
        "staff": federation_admin(),
    }


@pytest.fixture(name="event")
def event_fixture(cast):
    return make_event(cast["td"], 2, code="spring", start=START, appeals_chair=cast["chair"])


@pytest.fixture(name="protested")
def protested_fixture(event):
    """The claim against White is filed by a sweep; White protests; Black declares a delay and
    reports a dispute."""
    game = event.games.select_related("white", "black").get()
    services.games_sweep(now=later(1))
    assert send(game, "white", "PROTEST my phone was dead", later(3600)).applied == "protest"
    assert send(game, "black", "DELAY 30", later(7200)).applied == "delay"
    assert send(game, "black", "DISPUTE he says his phone was dead", later(7300)).applied == "dispute"
    game.refresh_from_db()
    return game
