"""Shared by the events, PGN and TD tests: an event created through the service, and games played
by messages on the console channel."""

from __future__ import annotations

import datetime
import io

import pytest

from play import services
from play.models import MobileEvent, MobileGame
from tests.players.factories import PlayerFactory

UTC = datetime.UTC
START = datetime.datetime(2026, 5, 1, 10, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def quiet_console(settings):
    settings.PLAY_CONSOLE_STREAM = io.StringIO()  # outbound console messages are not printed
    yield


def make_event(td, players: int | list = 4, *, code="spring", name="Spring by SMS", **fields) -> MobileEvent:
    roster = players if isinstance(players, list) else [PlayerFactory() for _ in range(players)]
    fields = {"pairing": MobileEvent.Pairing.ALL_PLAY_ALL, "start": START, **fields}
    return services.event_create(created_by=td, players=roster, code=code, name=name, td=td, **fields)


def game_between(event: MobileEvent, a, b) -> MobileGame:
    """The game of two players in the event, whichever has White."""
    return event.games.get(white__in=[a, b], black__in=[a, b])


def play(game: MobileGame, messages: list[tuple[str, str]], *, start=START, minutes: int = 5) -> MobileGame:
    """Send ("white" | "black", text) messages to the game, `minutes` apart from its start (+1)."""
    ids = {"white": game.white.federation_id, "black": game.black.federation_id}
    for n, (color, text) in enumerate(messages, start=1):
        services.message_receive(
            channel="console",
            sender=str(ids[color]),
            text=text,
            arrival=start + datetime.timedelta(minutes=minutes * n),
            game_code=game.code,
        )
    game.refresh_from_db()
    return game


FOOLS_MATE = [("white", "1. f3"), ("black", "1. f3 e5"), ("white", "1... e5 2. g4"), ("black", "2. g4 Qh4#")]
WHITE_RESIGNS_AFTER_E4 = [("white", "1. e4"), ("black", "1. e4 e5"), ("white", "RESIGN")]
BLACK_RESIGNS = [("white", "1. d4"), ("black", "RESIGN")]
AGREED_DRAW = [("white", "1. e4 draw?"), ("black", "DRAW")]
