"""A console channel that fails on demand, and the rows the delivery tests send through it (shared
by the retry tests and the outbox-drain tests; the fixtures that install it are in conftest.py)."""

import datetime

from django.utils import timezone

from play import services
from play.models import Transmission

UTC = datetime.UTC
SENT: list[tuple[str, str]] = []
FAILURES = {"left": 0}


class Flaky:
    """A channel whose gateway refuses the next FAILURES["left"] messages, then takes them."""

    def send(self, row):
        from play.channels import TransientFailure

        if FAILURES["left"] > 0:
            FAILURES["left"] -= 1
            raise TransientFailure("gateway answered 503")
        SENT.append((row.address, row.text))


def move(game, color: str, text: str, minutes: int) -> list[int]:
    """A move written with its replies still pending (as before the task runs): their ids."""
    player = game.white if color == "white" else game.black
    at = datetime.datetime(2026, 5, 1, 10, minutes, tzinfo=UTC)
    receipt = services.message_receive(channel="console", sender=str(player.federation_id), text=text, arrival=at)
    assert receipt.applied == "move", receipt
    return [row.pk for row in receipt.replies if row.delivery == "pending"]


def pending_rows(game, count: int, *, minutes_ago: int = 5) -> list[int]:
    """`count` pending console rows to White, written `minutes_ago` (a queue that was down)."""
    at = timezone.now() - datetime.timedelta(minutes=minutes_ago)
    rows = [
        Transmission(
            game=game,
            direction="out",
            channel="console",
            party="white",
            address=str(game.white.federation_id),
            kind="move",
            text=f"#{game.code} message {i}",
            at=at,
            delivery="pending",
        )
        for i in range(count)
    ]
    return [row.pk for row in Transmission.objects.bulk_create(rows)]
