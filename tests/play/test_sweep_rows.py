"""The sweeper's rows as tuples (play/sweep.py, issue 28) are the rows the message path builds as
Transmission instances (play.services.outbound_rows) on every channel and message language, and a
pass stores the columns play.state.store puts on a model row."""

import datetime

import pytest
from django.db import transaction

from play import services, state, sweep
from play.models import ChannelAddress, MobileGame, Transmission
from play.rules import game as machine
from tests.players.factories import PlayerFactory

START = datetime.datetime(2026, 5, 1, 10, 0, tzinfo=datetime.UTC)
LATER = START + datetime.timedelta(days=3)  # past the reminder, the claim and its concession


def as_tuple(row: Transmission) -> tuple:
    return tuple(getattr(row, name) for name in sweep.OUT_COLUMNS)


def due_game(white_channel, black_channel, white_language="default", black_language="default"):
    white = PlayerFactory(message_language=white_language)
    black = PlayerFactory(message_language=black_language)
    for player, number in ((white, "+79000000001"), (black, "+79000000002")):
        ChannelAddress.objects.create(player=player, channel="sms", address=number, verified_at=START)
        ChannelAddress.objects.create(player=player, channel="telegram", address=f"42{player.pk}", verified_at=START)
    game = services.game_create(white=white, black=black, start=START)
    MobileGame.objects.filter(pk=game.pk).update(white_channel=white_channel, black_channel=black_channel)
    return MobileGame.objects.select_related("white", "black").get(pk=game.pk)


@pytest.mark.django_db
@pytest.mark.parametrize("channels", [("web", "console"), ("sms", "telegram"), ("telegram", "sms")])
@pytest.mark.parametrize("languages", [("default", "default"), ("ru", "en"), ("en", "ru")])
def test_it_builds_the_outbox_rows_the_message_path_builds(channels, languages):
    game = due_game(*channels, *languages)
    value, reminder = machine.advance(state.load(game), START + datetime.timedelta(minutes=150))
    _, send = machine.advance(value, LATER)
    send = (*reminder, *send)
    assert {item.kind for item in send} >= {"reminder", "claim", "claim conceded"}
    with transaction.atomic():
        (due,) = sweep.due_games(LATER, [], 10)
        rows = sweep.outbox_rows([(due, send)])
    expected = [as_tuple(row) for item in send for row in services.outbound_rows(game, item)]
    assert rows == expected


@pytest.mark.django_db
def test_it_stores_the_columns_a_model_row_gets_and_writes_the_outbox_as_the_message_path_would():
    game = due_game("web", "sms")
    value, send = machine.advance(state.load(game), LATER)
    state.store(game, value)
    assert services.games_sweep(now=LATER) == 1
    swept = MobileGame.objects.get(pk=game.pk)
    for name in sweep.SWEPT_FIELDS[:-1]:
        assert getattr(swept, name) == (bytes(getattr(game, name)) if name == "state" else getattr(game, name))
    assert swept.updated_at > game.updated_at
    rows = list(swept.transmissions.filter(direction="out").order_by("pk"))
    assert [as_tuple(row) for row in rows] == [
        as_tuple(row) for item in send for row in services.outbound_rows(game, item)
    ]
    assert {(row.channel, row.delivery, row.delivered_at is not None) for row in rows} == {
        ("web", "sent", True),
        ("sms", "pending", False),
    }
    assert services.games_sweep(now=LATER) == 0
