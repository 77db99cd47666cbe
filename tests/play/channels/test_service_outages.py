"""The site's own services down (issue 24, 1d): every inbound path of mobile chess — the SMS
gateway's webhook, Twilio's webhook, Telegram's webhook and long polling, the web move form, PLAY
COMPUTER by message and on its page — with the broker down, the cache down, or both. "Down" is the
setting pointing at a closed port, so the real clients (kombu, redis-py) fail as they would; the
channels are the fakes on real sockets (tests/fakes/). Each message must be answered without a 5xx,
stored, and applied; its replies must leave once the service is back (the outbox sweep), once each.
"""

from __future__ import annotations

import datetime
import io
import json
import os
import time
from urllib.parse import urlencode

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone
from twilio.request_validator import RequestValidator

from federation.celery import app
from play import services
from play.channels import limits, outbox
from play.computer import services as computer
from play.computer import turn
from play.models import ChannelAddress, ComputerLevel, MobileGame, Transmission
from players.models import PlayerLink
from tests.base import PASSWORD
from tests.fakes.sms_gateway import FakeGateway
from tests.fakes.telegram_api import FakeTelegram
from tests.fakes.twilio_api import FakeTwilio
from tests.play.channels.test_sms import sign as sms_sign
from tests.players.factories import PlayerFactory
from tests.ratings.test_requests import _fresh_pools, unused_port

pytestmark = pytest.mark.django_db

WHITE_PHONE, BLACK_PHONE = "+79991112233", "+79994445566"
WHITE_CHAT = 111222333
SMS_KEY, TG_SECRET = "webhook-signing-key", "tg-webhook-secret_1"
# The computer's two paths play with Stockfish.
PATHS = (
    *("sms gateway", "twilio", "telegram webhook", "telegram polling", "web form"),
    *(pytest.param(path, marks=pytest.mark.needs("stockfish"), id=path) for path in ("play computer", "computer page")),
)
OUTAGES = ("broker", "cache", "both")


# --- the services, down and back ------------------------------------------------------------------


class Services:
    """The broker and the cache, put down and brought back as a test says."""

    def __init__(self, settings, monkeypatch):
        self.settings, self.monkeypatch = settings, monkeypatch
        self.saved_celery = (app.conf.broker_url, app.conf.task_always_eager)
        self.saved_caches = settings.CACHES
        self.saved_env = os.environ.get("CELERY_BROKER_URL")  # set where CI runs with a broker

    def down(self, which: str) -> None:
        if which in ("broker", "both"):
            # Celery reads CELERY_BROKER_URL from the environment before its settings.
            closed = f"redis://127.0.0.1:{unused_port()}/10"
            self.monkeypatch.setenv("CELERY_BROKER_URL", closed)
            app.conf.task_always_eager, app.conf.broker_url = False, closed
            _fresh_pools()
        if which in ("cache", "both"):
            closed = f"redis://127.0.0.1:{unused_port()}/11"
            redis = "django.core.cache.backends.redis.RedisCache"
            self.settings.CACHES = {"default": {"BACKEND": redis, "LOCATION": closed}}

    def back(self) -> None:
        if self.saved_env is None:
            self.monkeypatch.delenv("CELERY_BROKER_URL", raising=False)
        else:
            self.monkeypatch.setenv("CELERY_BROKER_URL", self.saved_env)
        app.conf.broker_url, app.conf.task_always_eager = self.saved_celery
        _fresh_pools()
        self.settings.CACHES = self.saved_caches


@pytest.fixture
def services_(settings, monkeypatch):
    state = Services(settings, monkeypatch)
    yield state
    state.back()


# --- the channels ---------------------------------------------------------------------------------


@pytest.fixture
def fakes(settings):
    """The SMS gateway, Twilio and the Bot API, each a fake on a socket; SMS by the gateway unless a
    test switches to Twilio."""
    settings.PLAY_CONSOLE_STREAM = io.StringIO()
    settings.SMS_WEBHOOK_SIGNING_KEY, settings.TELEGRAM_WEBHOOK_SECRET = SMS_KEY, TG_SECRET
    gateway, bot, twilio = FakeGateway().start(), FakeTelegram().start(), FakeTwilio().start()
    settings.SMS_GATEWAY_URL = gateway.url
    settings.SMS_GATEWAY_USER, settings.SMS_GATEWAY_PASSWORD = gateway.user, gateway.password
    settings.TELEGRAM_API_URL, settings.TELEGRAM_BOT_TOKEN = bot.base_url, bot.token
    settings.TWILIO_API_URL = twilio.url
    settings.TWILIO_ACCOUNT_SID, settings.TWILIO_AUTH_TOKEN = twilio.account_sid, twilio.auth_token
    settings.TWILIO_FROM_NUMBER = twilio.number
    settings.TWILIO_WEBHOOK_BASE_URL = settings.TWILIO_STATUS_CALLBACK_URL = ""
    settings.PLAY_CHANNEL_BACKENDS = {
        **settings.PLAY_CHANNEL_BACKENDS,
        "sms": "play.channels.sms.SmsGateway",
        "telegram": "play.channels.telegram.TelegramBot",
    }
    yield {"gateway": gateway, "bot": bot, "twilio": twilio}
    for fake in (gateway, bot, twilio):
        fake.stop()


@pytest.fixture
def world(db, django_user_model):
    """White (a phone, a Telegram chat and an account) plays Black (a phone), who hears by SMS."""
    white, black = PlayerFactory(), PlayerFactory()
    now = timezone.now()
    for player, phone in ((white, WHITE_PHONE), (black, BLACK_PHONE)):
        ChannelAddress.objects.create(player=player, channel="sms", address=phone, verified_at=now)
    ChannelAddress.objects.create(player=white, channel="telegram", address=str(WHITE_CHAT), verified_at=now)
    user = django_user_model.objects.create_user("white", "white@example.org", PASSWORD)
    admin = django_user_model.objects.create_superuser("admin", "admin@example.org", PASSWORD)
    PlayerLink.objects.create(
        user=user, player=white, relation="self", status="confirmed", decided_by=admin, decided_at=now
    )
    game = services.game_create(white=white, black=black, start=now - datetime.timedelta(hours=1))
    MobileGame.objects.filter(pk=game.pk).update(black_channel="sms")
    return {"white": white, "black": black, "user": user, "game": game}


# --- the inbound paths ----------------------------------------------------------------------------


def _sms_gateway(client, text: str) -> int:
    at = timezone.now() - datetime.timedelta(seconds=5)
    payload = {
        "messageId": "m-1",
        "message": text,
        "phoneNumber": WHITE_PHONE,
        "simNumber": 1,
        "receivedAt": at.isoformat(timespec="milliseconds"),
    }
    body = json.dumps({"deviceId": "dev-1", "event": "sms:received", "id": "evt-1", "payload": payload}).encode()
    stamp = str(int(time.time()))
    return client.post(
        "/play/hooks/sms/",
        data=body,
        content_type="application/json",
        HTTP_X_SIGNATURE=sms_sign(body, stamp, SMS_KEY),
        HTTP_X_TIMESTAMP=stamp,
    ).status_code


def _twilio(client, text: str, settings) -> int:
    sid = "SM" + "a1" * 16
    form = {"MessageSid": sid, "SmsSid": sid, "AccountSid": settings.TWILIO_ACCOUNT_SID, "From": WHITE_PHONE}
    form |= {"To": settings.TWILIO_FROM_NUMBER, "Body": text, "NumMedia": "0", "SmsStatus": "received"}
    url = "http://testserver/play/hooks/twilio/"
    signature = RequestValidator(settings.TWILIO_AUTH_TOKEN).compute_signature(url, form)
    return client.post(
        "/play/hooks/twilio/",
        data=urlencode(form),
        content_type="application/x-www-form-urlencoded",
        HTTP_X_TWILIO_SIGNATURE=signature,
    ).status_code


def _update(text: str) -> dict:
    chat = {"id": WHITE_CHAT, "type": "private", "first_name": "White"}
    message = {"message_id": 101, "date": int(time.time()) - 5, "chat": chat, "text": text}
    return {"update_id": 7001, "message": {**message, "from": {"id": WHITE_CHAT, "is_bot": False, "first_name": "W"}}}


def _telegram_webhook(client, text: str) -> int:
    body = json.dumps(_update(text)).encode()
    secret = {"HTTP_X_TELEGRAM_BOT_API_SECRET_TOKEN": TG_SECRET}
    return client.post("/play/hooks/telegram/", data=body, content_type="application/json", **secret).status_code


def _telegram_polling(bot, text: str) -> int:
    bot.updates.append(_update(text))
    call_command("play_telegram", "poll", "--once", stdout=io.StringIO())
    return 200  # the command ran through: no exception


def _web_form(client, world, text: str) -> int:
    client.force_login(world["user"])
    return client.post(reverse("play:send", args=[world["game"].code]), {"text": text}).status_code


def _computer_page(client, world) -> int:
    client.force_login(world["user"])
    level = ComputerLevel.objects.get(number=1, active=True)
    # The computer has White: its first move is queued on commit, through the broker.
    form = {"player": world["white"].pk, "level": level.pk, "side": "black", "control": "3600/40+900/10", "norm": 60}
    return client.post(reverse("play:computer"), form).status_code


def _send(path: str, client, world, fakes, settings) -> int:
    move = f"#{world['game'].code} 1. e4"
    if path == "sms gateway":
        return _sms_gateway(client, move)
    if path == "twilio":
        return _twilio(client, move, settings)
    if path == "telegram webhook":
        return _telegram_webhook(client, move)
    if path == "telegram polling":
        return _telegram_polling(fakes["bot"], move)
    if path == "web form":
        return _web_form(client, world, move)
    if path == "play computer":
        return _sms_gateway(client, "PLAY COMPUTER 1 WHITE")
    return _computer_page(client, world)


def _inbound_channel(path: str) -> str:
    return {"telegram webhook": "telegram", "telegram polling": "telegram", "web form": "web"}.get(path, "sms")


def _delivered(fakes, path: str) -> list[tuple[str, str]]:
    """(address, text) of what the channels' fakes took, in order."""
    if path == "twilio":
        return [(body["To"], body["Body"]) for body in fakes["twilio"].sent]
    sms = [(number, body["textMessage"]["text"]) for body in fakes["gateway"].sent for number in body["phoneNumbers"]]
    return sms + [(str(body["chat_id"]), body.get("text") or body.get("caption")) for body in fakes["bot"].sent]


@pytest.mark.parametrize("outage", OUTAGES)
@pytest.mark.parametrize("path", PATHS)
def test_it_keeps_and_applies_every_inbound_message_and_sends_its_replies_once_the_service_is_back(
    path, outage, client, world, fakes, services_, settings, django_capture_on_commit_callbacks
):
    if path in ("play computer", "computer page"):
        computer.levels_ensure()
    if path == "twilio":
        settings.PLAY_CHANNEL_BACKENDS = {**settings.PLAY_CHANNEL_BACKENDS, "sms": "play.channels.twilio_sms.TwilioSms"}
    client.raise_request_exception = False  # a 500 is an answer here, to be seen, not an exception
    services_.down(outage)

    with django_capture_on_commit_callbacks(execute=True):
        status = _send(path, client, world, fakes, settings)

    assert status < 500, f"{path} answered {status} with the {outage} down"
    game = world["game"]
    if path in ("play computer", "computer page"):
        game = MobileGame.objects.exclude(pk=game.pk).get()  # the new game against level 1
    if path != "computer page":
        inbound = Transmission.objects.get(direction="in", player=world["white"])
        assert inbound.channel == _inbound_channel(path)
        assert inbound.game == game
    if path != "play computer":
        game.refresh_from_db()
        assert game.plies == 1 or path == "computer page"  # the computer's first move waits for the broker

    services_.back()
    later = timezone.now() + datetime.timedelta(minutes=10)
    with django_capture_on_commit_callbacks(execute=True):
        if path == "computer page":
            turn.computer_moves_sweep(now=later)  # the move lost with the broker is queued again
        outbox.outbox_sweep(now=later)
    assert not Transmission.objects.filter(direction="out", delivery="pending").exists()
    sent = _delivered(fakes, path)
    rows = Transmission.objects.filter(direction="out").exclude(channel__in=("web", "console"))
    assert sorted(sent) == sorted(rows.values_list("address", "text")), "each reply leaves once"
    if path == "computer page":
        game.refresh_from_db()
        assert game.plies == 1  # the computer moved once the broker was back
    elif path != "web form":
        white_address = str(WHITE_CHAT) if path.startswith("telegram") else WHITE_PHONE
        assert any(address == white_address for address, _ in sent), "the sender's reply left"
    if path not in ("play computer", "computer page"):
        assert any(address == BLACK_PHONE for address, _ in sent), "the opponent's notice left"


def test_it_lets_messages_through_unlimited_with_a_warning_while_the_cache_is_down(services_, settings, caplog):
    settings.PLAY_INBOUND_PER_MINUTE = settings.PLAY_OUTBOUND_PER_MINUTE = 1
    services_.down("cache")
    now = timezone.now()
    with caplog.at_level("WARNING", logger="play.ratelimit"):
        assert all(limits.inbound_allowed("sms", WHITE_PHONE, now) for _ in range(3))
        row = Transmission(channel="telegram", address=str(WHITE_CHAT))
        assert all(limits.outbound_allowed(row, now) for _ in range(3))
    assert caplog.text.count("cache unavailable, rate limit not applied") == 6
    services_.back()
    assert limits.inbound_allowed("sms", WHITE_PHONE, now)
    assert not limits.inbound_allowed("sms", WHITE_PHONE, now)  # counted again once the cache is back
