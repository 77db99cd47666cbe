"""The fake SMS gateway and the fake Telegram Bot API, real HTTP servers on loopback, with the
settings that send the channel's messages to them (one copy for every channel test)."""

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
