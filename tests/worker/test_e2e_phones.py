"""Two fake phones play a short game through the real webhooks, with a real Celery worker on Redis
doing the deliveries: White by SMS (SMS Gateway for Android, tests/fakes/sms_gateway.py), Black by
Telegram (tests/fakes/telegram_api.py). The test posts each webhook over HTTP to pytest-django's
live server as the gateway and Telegram would, signed as they sign; the worker runs
play.tasks.telegram_update and play.tasks.deliver, which sends every reply to the fakes through
the maintained client libraries.

On the way: a bad signature and a stale time stamp (403, nothing changes), a number nobody
registered (ignored, nothing stored), an SMS webhook and a Telegram Update each delivered twice
(applied once), moves written with Russian piece letters, and a gateway that fails twice before
accepting, whose replies still reach White's phone, in the order they were written."""

from __future__ import annotations

import datetime
import hashlib
import hmac
import json

import pytest
import requests
from django.utils import timezone

from play import services
from play.channels import sms
from play.models import ChannelAddress, MobileGame, Transmission
from tests.fakes.sms_gateway import FakeGateway
from tests.fakes.telegram_api import FakeTelegram
from tests.players.factories import PlayerFactory
from tests.worker.conftest import wait_for

pytestmark = [pytest.mark.worker]

KEY = "e2e-webhook-signing-key"
SECRET = "e2e-telegram-secret_1"
WHITE_PHONE, STRANGER_PHONE = "+79991112233", "+70000000000"
BLACK_CHAT = 444555666


@pytest.fixture
def fakes():
    gateway, telegram = FakeGateway().start(), FakeTelegram().start()
    yield gateway, telegram
    gateway.stop()
    telegram.stop()


@pytest.fixture
def phones(settings, fakes, worker_factory, live_server):
    """The live server checks the webhooks (this process's settings); the worker sends through
    the fakes (its environment)."""
    gateway, telegram = fakes
    settings.SMS_WEBHOOK_SIGNING_KEY = KEY
    settings.TELEGRAM_WEBHOOK_SECRET = SECRET
    worker = worker_factory(
        PLAY_SMS_BACKEND="play.channels.sms.SmsGateway",
        SMS_GATEWAY_URL=gateway.url,
        SMS_GATEWAY_USER=gateway.user,
        SMS_GATEWAY_PASSWORD=gateway.password,
        PLAY_TELEGRAM_BACKEND="play.channels.telegram.TelegramBot",
        TELEGRAM_BOT_TOKEN=telegram.token,
        TELEGRAM_API_URL=telegram.base_url,
    )
    return gateway, telegram, worker, live_server.url


@pytest.fixture
def game():
    white, black = PlayerFactory(), PlayerFactory()
    now = timezone.now()
    ChannelAddress.objects.create(player=white, channel="sms", address=WHITE_PHONE, verified_at=now)
    ChannelAddress.objects.create(player=black, channel="telegram", address=str(BLACK_CHAT), verified_at=now)
    game = services.game_create(white=white, black=black, start=now - datetime.timedelta(minutes=30))
    # Each player's channel is the one he registered (rule 5c), so even the first notice of a move
    # goes to the phone.
    MobileGame.objects.filter(pk=game.pk).update(white_channel="sms", black_channel="telegram")
    return game


# --- the gateways, as they call us --------------------------------------------------------------


def sms_body(text: str, message_id: str, phone: str = WHITE_PHONE) -> bytes:
    moment = (timezone.now() - datetime.timedelta(seconds=5)).astimezone(datetime.timezone(datetime.timedelta(hours=3)))
    payload = {
        "messageId": message_id,
        "message": text,
        "phoneNumber": phone,
        "simNumber": 1,
        "receivedAt": moment.isoformat(timespec="milliseconds"),
    }
    envelope = {"deviceId": "dev-1", "event": "sms:received", "id": f"evt-{message_id}", "payload": payload}
    return json.dumps({**envelope, "webhookId": "wh-1"}, ensure_ascii=False).encode()


def sms_post(base: str, body: bytes, *, key: str = KEY, age: datetime.timedelta = datetime.timedelta(0)):
    timestamp = str(int((timezone.now() - age).timestamp()))
    signature = hmac.new(key.encode(), body + timestamp.encode(), hashlib.sha256).hexdigest()
    headers = {"Content-Type": "application/json", "X-Signature": signature, "X-Timestamp": timestamp}
    return requests.post(f"{base}/play/hooks/sms/", data=body, headers=headers, timeout=30)


def telegram_post(base: str, text: str, update_id: int, *, secret: str = SECRET):
    update = {
        "update_id": update_id,
        "message": {
            "message_id": update_id + 100,
            "date": int(timezone.now().timestamp()) - 3,
            "chat": {"id": BLACK_CHAT, "type": "private", "first_name": "Anna"},
            "from": {"id": BLACK_CHAT, "is_bot": False, "first_name": "Anna"},
            "text": text,
        },
    }
    headers = {"Content-Type": "application/json", "X-Telegram-Bot-Api-Secret-Token": secret}
    return requests.post(f"{base}/play/hooks/telegram/", data=json.dumps(update), headers=headers, timeout=30)


# --- what the game and the phones show ------------------------------------------------------------


def plies(game) -> int:
    game.refresh_from_db()
    return game.plies


def inbound():
    return list(Transmission.objects.filter(direction="in").order_by("pk").values_list("channel", "text"))


def outbox(game, party: str):
    return Transmission.objects.filter(game=game, direction="out", party=party).order_by("pk")


def sms_texts(gateway) -> list[str]:
    assert all(body["phoneNumbers"] == [WHITE_PHONE] for body in gateway.sent)
    return [body["textMessage"]["text"] for body in gateway.sent]


def telegram_bodies(telegram) -> list[dict]:
    """What Black's Telegram received, in order: texts, and the opponent's moves as a picture of
    the board with the text as its caption."""
    return [r.body for r in telegram.requests if r.api_method in ("sendMessage", "sendPhoto") and r.accepted]


def telegram_texts(telegram) -> list[str]:
    bodies = telegram_bodies(telegram)
    assert all(str(body["chat_id"]) == str(BLACK_CHAT) for body in bodies)
    return [body.get("text") or body.get("caption") for body in bodies]


def delivered(game, gateway, telegram, white: int, black: int) -> None:
    """Wait until White's phone has `white` texts and Black's `black`, and the outbox is empty."""
    wait_for(
        lambda: (
            len(gateway.sent) >= white
            and len(telegram_bodies(telegram)) >= black
            and not Transmission.objects.filter(game=game, delivery="pending").exists()
        ),
        timeout=90,
        message=f"{white} SMS to White and {black} Telegram messages to Black",
    )


def test_it_plays_a_game_between_an_sms_phone_and_a_telegram_phone(phones, game):
    gateway, telegram, _worker, base = phones

    # A forged SMS (signed with another key) and a replayed one (signed six minutes ago): 403.
    forged = sms_post(base, sms_body("1. Кc3", "m-forged"), key="not-the-key")
    stale = sms_post(base, sms_body("1. Кc3", "m-stale"), age=datetime.timedelta(minutes=6))
    wrong_secret = telegram_post(base, "1. Кc3 f6", 900, secret="wrong-secret")
    assert (forged.status_code, stale.status_code, wrong_secret.status_code) == (403, 403, 403)
    # An SMS from a number nobody registered: answered (the gateway must not resend it), ignored.
    stranger = sms_post(base, sms_body("1. e4", "m-stranger", phone=STRANGER_PHONE))
    assert (stranger.status_code, stranger.json()["outcome"]) == (200, "unknown sender")
    assert plies(game) == 0
    assert not Transmission.objects.exists()
    assert gateway.requests == [] and telegram.requests == []

    # White's first move with the Russian knight letter, while the gateway's phone is offline: the
    # gateway refuses the acknowledgement twice (503) and takes it on the task's second retry.
    gateway.fail_next = 2
    first = sms_body("1. Кc3", "m-1")
    answer = sms_post(base, first)
    assert (answer.status_code, answer.json()["outcome"]) == (200, "move")
    # The gateway delivers the same webhook again (a new signature, the same SMS): applied once.
    again = sms_post(base, first)
    assert (again.status_code, again.json()["outcome"]) == (200, "duplicate")
    assert plies(game) == 1

    # Black answers at once, by Telegram, and Telegram delivers the Update twice. White's notice
    # of Black's move is written while his acknowledgement may still wait for the gateway: it is
    # sent after it, never before.
    assert telegram_post(base, "1. Кc3 f6", 1).status_code == 200
    assert telegram_post(base, "1. Кc3 f6", 1).status_code == 200
    wait_for(lambda: plies(game) == 2, timeout=60, message="the worker to apply Black's Telegram move")
    delivered(game, gateway, telegram, white=2, black=2)
    ack = outbox(game, "white").first()
    assert (ack.kind, ack.delivery, ack.attempts) == ("acknowledgement", "sent", 3)
    assert "503" not in ack.error
    assert len([r for r in gateway.requests if not r.accepted]) == 2

    assert sms_post(base, sms_body("1... f6 2. e4", "m-2")).json()["outcome"] == "move"
    delivered(game, gateway, telegram, white=3, black=3)
    assert telegram_post(base, "1... f6 2. e4 g5", 2).status_code == 200
    wait_for(lambda: plies(game) == 4, timeout=60, message="Black's second move")
    delivered(game, gateway, telegram, white=4, black=4)
    # Mate, with the Russian queen letter.
    assert sms_post(base, sms_body("2... g5 3. Фh5", "m-3")).json()["outcome"] == "move"
    wait_for(lambda: plies(game) == 5 and game.status == "finished", timeout=30, message="the mate")
    assert (game.result, game.termination) == ("1-0", "checkmate")
    delivered(game, gateway, telegram, white=outbox(game, "white").count(), black=outbox(game, "black").count())
    whites, blacks = list(outbox(game, "white")), list(outbox(game, "black"))

    # Every message in the record once, unchanged, each by the channel it came by.
    assert inbound() == [
        ("sms", "1. Кc3"),
        ("telegram", "1. Кc3 f6"),
        ("sms", "1... f6 2. e4"),
        ("telegram", "1... f6 2. e4 g5"),
        ("sms", "2... g5 3. Фh5"),
    ]
    # Each phone got its outbox, in the order it was written, each message once.
    assert {(row.channel, row.delivery) for row in whites} == {("sms", "sent")}
    assert {(row.channel, row.delivery) for row in blacks} == {("telegram", "sent")}
    assert sms_texts(gateway) == [row.text for row in whites]
    assert telegram_texts(telegram) == [row.text for row in blacks]
    code = f"#{game.code} "
    # On SMS the short forms, one SMS each: "OK" acknowledges, "Opp" tells the opponent's move.
    assert [text.removeprefix(code).split(" ", 3)[:3] for text in sms_texts(gateway)[:4]] == [
        ["OK", "1.", "Nc3"],
        ["Opp", "1...", "f6"],
        ["OK", "2.", "e4"],
        ["Opp", "2...", "g5"],
    ]
    assert "1... f6" in sms_texts(gateway)[1] and "2... g5" in sms_texts(gateway)[3]
    assert [text.removeprefix(code).split(" ")[0] for text in telegram_texts(telegram)[:4]] == [
        "Your",
        "Received",
        "Your",
        "Received",
    ]
    assert (
        "1. Nc3" in telegram_texts(telegram)[0]
        and "3. Qh5" in telegram_texts(telegram)[-2] + telegram_texts(telegram)[-1]
    )
    assert "1-0" in sms_texts(gateway)[-1] and "1-0" in telegram_texts(telegram)[-1]
    # The gateway's message ids are kept on the rows, for its delivery reports.
    assert all(row.external_id == sms.outbound_message_id(row) for row in whites)  # the id the row gave it
