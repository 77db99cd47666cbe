"""The fake SMS gateway and the fake Telegram Bot API, real HTTP servers on loopback, with the
settings that send the channel's messages to them (one copy for every channel test)."""

import datetime
import io

import pytest

from tests.fakes.sms_gateway import FakeGateway
from tests.fakes.telegram_api import FakeTelegram


@pytest.fixture
def gateway(settings):
    fake = FakeGateway().start()
    settings.SMS_GATEWAY_URL = fake.url
    settings.SMS_GATEWAY_USER, settings.SMS_GATEWAY_PASSWORD = fake.user, fake.password
    settings.PLAY_CHANNEL_BACKENDS = {**settings.PLAY_CHANNEL_BACKENDS, "sms": "play.channels.sms.SmsGateway"}
    yield fake
    fake.stop()


@pytest.fixture
def bot(settings):
    fake = FakeTelegram().start()
    settings.TELEGRAM_API_URL, settings.TELEGRAM_BOT_TOKEN = fake.base_url, fake.token
    settings.PLAY_CHANNEL_BACKENDS = {
        **settings.PLAY_CHANNEL_BACKENDS,
        "telegram": "play.channels.telegram.TelegramBot",
    }
    yield fake
    fake.stop()


@pytest.fixture
def flaky_channel(settings):
    """The console channel replaced by tests.play.channels.flaky.Flaky, its record emptied, and no
    outbox drain marked as waiting (a flag left by an earlier test would stop the next drain)."""
    from django.core.cache import cache

    from play.channels import drain
    from tests.play.channels import flaky

    settings.PLAY_CONSOLE_STREAM = io.StringIO()
    settings.PLAY_CHANNEL_BACKENDS = {**settings.PLAY_CHANNEL_BACKENDS, "console": "tests.play.channels.flaky.Flaky"}
    flaky.SENT.clear()
    flaky.FAILURES["left"] = 0
    cache.delete(drain.DRAIN_FLAG)
    yield
    flaky.FAILURES["left"] = 0
    cache.delete(drain.DRAIN_FLAG)


@pytest.fixture
def game(db):
    """A game between two new players, both on the console channel."""
    from play import services
    from tests.players.factories import PlayerFactory

    white, black = PlayerFactory(), PlayerFactory()
    start = datetime.datetime(2026, 5, 1, 10, 0, tzinfo=datetime.UTC)
    game = services.game_create(white=white, black=black, start=start)
    type(game).objects.filter(pk=game.pk).update(white_channel="console", black_channel="console")
    game.refresh_from_db()
    return game
