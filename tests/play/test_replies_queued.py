"""Every reply written is sent, once (issue 24, 3): each kind of inbound message queues its replies
when its transaction commits, so none waits in the outbox for the sweep (or for another message
to the same address) to take it along. The delivery task runs eagerly here, as a worker would
run it at once; the sweep is never run."""

from __future__ import annotations

import datetime
import io

import pytest
from django.utils import timezone

from play import services
from play.models import Transmission
from tests.players.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _console(settings):
    settings.PLAY_CONSOLE_STREAM = io.StringIO()


@pytest.fixture
def players():
    """White plays Black by the console; Loner plays nobody."""
    white, black, loner = PlayerFactory(), PlayerFactory(), PlayerFactory()
    start = timezone.now() - datetime.timedelta(hours=1)
    game = services.game_create(white=white, black=black, start=start)
    type(game).objects.filter(pk=game.pk).update(white_channel="console", black_channel="console")
    return {"white": white, "black": black, "loner": loner, "game": game, "start": start}


# (what the message is, who sends it, its text, whether White plays a second game too)
KINDS = [
    ("a move", "white", "1. e4", False),
    ("an illegal move", "white", "1. e5", False),
    ("STATUS", "white", "STATUS", False),
    ("HELP", "white", "HELP", False),
    ("a resignation", "white", "RESIGN", False),
    ("a tag of no game of his", "white", "#ZZZZ99 1. e4", False),
    ("no tag, several games", "white", "1. e4", True),
    ("no game at all", "loner", "1. e4", False),
    ("PLAY COMPUTER at no level", "white", "PLAY COMPUTER 99", False),
    ("a Black move out of turn", "black", "1... e5", False),
]


@pytest.mark.parametrize(("kind", "sender", "text", "second_game"), KINDS, ids=[k[0] for k in KINDS])
def test_it_queues_the_replies_of_every_kind_of_message_on_commit(
    players, django_capture_on_commit_callbacks, kind, sender, text, second_game
):
    if second_game:
        other = services.game_create(white=players["white"], black=PlayerFactory(), start=players["start"])
        type(other).objects.filter(pk=other.pk).update(white_channel="console", black_channel="console")
    player = players[sender]
    with django_capture_on_commit_callbacks(execute=True):
        receipt = services.message_receive(
            channel="console", sender=str(player.federation_id), text=text, arrival=timezone.now()
        )
    assert receipt.replies, f"{kind}: answered ({receipt.applied})"
    replies = Transmission.objects.filter(direction="out")
    assert not replies.filter(delivery="pending").exists(), (
        f"{kind} ({receipt.applied}): replies left for the sweep: "
        f"{list(replies.filter(delivery='pending').values_list('kind', 'text'))}"
    )
    assert set(replies.values_list("delivery", flat=True)) == {"sent"}
