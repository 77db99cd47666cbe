"""Two messages for one game at the same moment are applied one after the other (the game's row
is locked), and one delivered twice at once is applied once. Real threads on PostgreSQL: SQLite
serialises whole-database writes and proves nothing here."""

import datetime
import io
import threading

import pytest

from play import services
from play.models import MobileGame, Transmission
from tests.players.factories import PlayerFactory

# Row locks need PostgreSQL.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.needs("postgresql")]

START = datetime.datetime(2026, 5, 1, 10, 0, tzinfo=datetime.UTC)


@pytest.fixture(autouse=True)
def _quiet_console(settings):
    settings.PLAY_CONSOLE_STREAM = io.StringIO()


def at_once(*calls):
    """Run the calls in threads released together; each thread has its own connection."""
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)

    def run(i, call):
        from django.db import connections

        try:
            barrier.wait()
            results[i] = call()
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return results


def test_it_applies_two_simultaneous_moves_one_after_the_other():
    white, black = PlayerFactory(), PlayerFactory()
    services.game_create(white=white, black=black, start=START)

    def send(text, external_id):
        return lambda: services.message_receive(
            channel="console", sender=str(white.federation_id), text=text, external_id=external_id,
            arrival=START + datetime.timedelta(minutes=5),
        ).applied  # fmt: skip

    results = at_once(send("1. e4", None), send("1. d4", None))
    # One of them is the move; the other then finds Black on move and is referred back (turn).
    # Without the lock both read White on move and both were acknowledged.
    assert sorted(results) == ["move", "referral"]
    assert MobileGame.objects.get().plies == 1
    assert Transmission.objects.filter(direction="out", kind="acknowledgement").count() == 1


def test_it_applies_a_message_delivered_twice_at_once_only_once():
    white, black = PlayerFactory(), PlayerFactory()
    services.game_create(white=white, black=black, start=START)

    def send():
        return services.message_receive(
            channel="console", sender=str(white.federation_id), text="1. e4",
            external_id="gateway-42", arrival=START + datetime.timedelta(minutes=5),
        ).applied  # fmt: skip

    results = at_once(send, send, send)
    assert sorted(results) == ["duplicate", "duplicate", "move"]
    assert MobileGame.objects.get().plies == 1
    assert Transmission.objects.filter(direction="in").count() == 1
