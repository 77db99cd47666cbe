"""What the Telegram tests share: the bot's settings with the webhook task run inline, the fake Bot
API on a socket, and a game between two players who each linked a Telegram chat. Each test module
wraps these in its own fixtures (an imported fixture would be a name pytest finds by accident)."""

import datetime
import io

from django.utils import timezone

from federation.celery import app
from play import services
from play.models import ChannelAddress
from tests.fakes.telegram_api import FakeTelegram
from tests.players.factories import PlayerFactory

SECRET = "tg-webhook-secret_1"
URL = "/play/hooks/telegram/"
WHITE_CHAT, BLACK_CHAT = 111222333, 444555666


def bot_settings(settings):
    """The Telegram back-end and webhook secret; the webhook's task runs inline even when the
    suite runs with a broker (a generator: the fixture yields through it)."""
    settings.PLAY_CONSOLE_STREAM = io.StringIO()
    settings.TELEGRAM_WEBHOOK_SECRET = SECRET
    settings.PLAY_CHANNEL_BACKENDS = {
        **settings.PLAY_CHANNEL_BACKENDS,
        "telegram": "play.channels.telegram.TelegramBot",
    }
    eager, propagates = app.conf.task_always_eager, app.conf.task_eager_propagates
    app.conf.task_always_eager, app.conf.task_eager_propagates = True, True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = eager, propagates


def fake_api(settings):
    """The fake Bot API, started, with the settings pointing at it; stopped after the test."""
    fake = FakeTelegram().start()
    settings.TELEGRAM_API_URL = fake.base_url
    settings.TELEGRAM_BOT_TOKEN = fake.token
    yield fake
    fake.stop()


def telegram_game():
    """A game started an hour ago between two players who linked their chats: both play by
    Telegram from the first message (a new game's messages go to the latest linked channel)."""
    white, black = PlayerFactory(), PlayerFactory()
    now = timezone.now()
    for player, chat in ((white, WHITE_CHAT), (black, BLACK_CHAT)):
        ChannelAddress.objects.create(player=player, channel="telegram", address=str(chat), verified_at=now)
    return services.game_create(white=white, black=black, start=now - datetime.timedelta(hours=1))
