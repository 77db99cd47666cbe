"""Telegram over real HTTP: outbound rows go through python-telegram-bot to a fake Bot API on a
socket (tests/fakes/telegram_api.py); Updates are posted, with the secret token header, through
Django's test client to /play/hooks/telegram/, and handled by the Celery task (run eagerly)."""

import datetime
import json
import logging

import pytest
from django.utils import timezone

from play.channels import outbox
from play.models import ChannelAddress, Transmission
from tests.play.channels import telegram_setup
from tests.play.channels.telegram_setup import BLACK_CHAT, SECRET, URL, WHITE_CHAT


@pytest.fixture(autouse=True)
def _telegram_settings(settings):
    yield from telegram_setup.bot_settings(settings)


@pytest.fixture
def api(settings):
    yield from telegram_setup.fake_api(settings)


@pytest.fixture
def game(db):
    return telegram_setup.telegram_game()


def update(text: str | None, chat: int = WHITE_CHAT, update_id: int = 1, at: datetime.datetime | None = None) -> dict:
    at = at or timezone.now() - datetime.timedelta(seconds=20)
    message = {
        "message_id": update_id + 100,
        "date": int(at.timestamp()),
        "chat": {"id": chat, "type": "private", "first_name": "Player"},
        "from": {"id": chat, "is_bot": False, "first_name": "Player"},
    }
    if text is not None:
        message["text"] = text
    return {"update_id": update_id, "message": message}


def post(client, data, *, secret: str | None = SECRET):
    body = data if isinstance(data, bytes) else json.dumps(data, ensure_ascii=False).encode()
    headers = {} if secret is None else {"HTTP_X_TELEGRAM_BOT_API_SECRET_TOKEN": secret}
    return client.post(URL, data=body, content_type="application/json", **headers)


def moves(game) -> int:
    game.refresh_from_db()
    return game.plies


@pytest.mark.django_db
class TestWebhook:
    def test_it_applies_a_move_from_a_verified_chat_with_the_message_date_as_sending_time(self, client, game):
        sent_at = (timezone.now() - datetime.timedelta(seconds=40)).replace(microsecond=0)
        response = post(client, update("1. e4", at=sent_at, update_id=501))
        assert response.status_code == 200, response.content
        assert response.json() == {"ok": True}
        assert moves(game) == 1
        inbound = Transmission.objects.get(direction="in", channel="telegram")
        assert (inbound.game, inbound.address, inbound.text) == (game, str(WHITE_CHAT), "1. e4")
        assert inbound.sent == sent_at
        assert inbound.external_id == "tg:501"

    def test_it_applies_an_update_delivered_twice_once(self, client, game):
        body = update("1. e4", update_id=7)
        assert post(client, body).status_code == 200
        assert post(client, body).status_code == 200
        assert moves(game) == 1
        assert Transmission.objects.filter(direction="in").count() == 1

    @pytest.mark.parametrize("secret", ["wrong-secret", "", None])
    def test_it_refuses_a_wrong_or_missing_secret_with_403_and_stores_nothing(self, client, game, caplog, secret):
        with caplog.at_level(logging.WARNING, logger="play.telegram"):
            response = post(client, update("1. e4"), secret=secret)
        assert response.status_code == 403
        assert "Telegram webhook refused" in caplog.text
        assert moves(game) == 0
        assert not Transmission.objects.filter(direction="in").exists()

    def test_it_answers_503_when_no_secret_is_configured(self, client, game, settings):
        settings.TELEGRAM_WEBHOOK_SECRET = ""
        response = post(client, update("1. e4"), secret="")
        assert response.status_code == 503
        assert "not configured" in response.content.decode()
        assert moves(game) == 0

    @pytest.mark.parametrize(
        ("body", "says"),
        [
            (b"{not json", "not JSON"),
            (b"[1, 2]", "not a JSON object"),
            (json.dumps({"message": update("1. e4")["message"]}).encode(), "update_id"),
            (json.dumps({"update_id": "7"}).encode(), "update_id"),
            (json.dumps({"update_id": 8, "message": {"text": "1. e4"}}).encode(), "not a Telegram Update"),
            # Nested past any Update's depth: a RecursionError (a 500) in the parser, and 33 levels
            # (the object and 32 arrays in it) are refused as well, before anything is queued.
            (b'{"update_id": 9, "x": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", "nested deeper than 32 levels"),
            (b'{"update_id": 9, "x": ' + b"[" * 32 + b"]" * 32 + b"}", "nested deeper than 32 levels"),
        ],
    )
    def test_it_answers_400_to_a_malformed_body_and_changes_nothing(self, client, game, body, says):
        response = post(client, body)
        assert response.status_code == 400
        assert says in response.content.decode()
        assert moves(game) == 0
        assert not Transmission.objects.filter(direction="in").exists()

    def test_it_ignores_an_unknown_chat(self, client, game):
        assert post(client, update("1. e4", chat=999000999)).status_code == 200
        assert moves(game) == 0
        assert not Transmission.objects.filter(direction="in").exists()

    def test_it_ignores_an_unverified_chat(self, client, game):
        ChannelAddress.objects.filter(address=str(WHITE_CHAT)).update(verified_at=None)
        assert post(client, update("1. e4")).status_code == 200
        assert moves(game) == 0

    def test_it_ignores_an_update_without_text(self, client, game):
        assert post(client, update(None)).status_code == 200
        assert post(client, {"update_id": 9, "edited_message": update("1. e4")["message"]}).status_code == 200
        assert moves(game) == 0
        assert not Transmission.objects.filter(direction="in").exists()

    def test_it_applies_cyrillic_moves(self, client, game):
        # "е4" with a Cyrillic е, and the knight as К.
        assert post(client, update("1. е4", update_id=1)).status_code == 200
        assert post(client, update("1. е4 e5", chat=BLACK_CHAT, update_id=2)).status_code == 200
        assert post(client, update("1... e5 2. Кf3", update_id=3)).status_code == 200
        assert moves(game) == 3
        texts = list(Transmission.objects.filter(direction="in").order_by("pk").values_list("text", flat=True))
        assert texts == ["1. е4", "1. е4 e5", "1... e5 2. Кf3"]  # kept unchanged

    def test_it_takes_only_post(self, client, db):
        assert client.get(URL).status_code == 405


def white_rows(game):
    return Transmission.objects.filter(game=game, direction="out", channel="telegram", player=game.white)


@pytest.mark.django_db
class TestOutbound:
    def test_it_sends_the_reply_through_the_library_to_the_bot_api(self, client, game, api):
        assert post(client, update("1. e4")).status_code == 200
        rows = list(white_rows(game))
        assert rows
        assert outbox.outbound_deliver_many([row.pk for row in rows]) == len(rows)
        assert [body["chat_id"] for body in api.sent] == [str(WHITE_CHAT)] * len(rows)
        assert [body["text"] for body in api.sent] == [row.text for row in rows]
        for row in rows:
            row.refresh_from_db()
            assert (row.delivery, row.error) == ("sent", "")
        assert all(r.path.startswith(f"/bot{api.token}/") for r in api.requests)

    def test_it_sends_a_notice_over_4096_characters_in_numbered_messages_the_api_takes(self, game, api):
        from play import services

        text = " ".join(["notice"] * 1000)  # 6,999 characters, written whole as one row
        row = services.notice_send(
            game=None, player=game.white, channel="telegram", address=str(WHITE_CHAT), kind="address change",
            text=text, at=timezone.now(),
        )  # fmt: skip
        assert outbox.outbound_deliver(row.pk) is True
        sent = [body["text"] for body in api.sent]
        assert [part[:6] for part in sent] == ["(1/2) ", "(2/2) "] and all(len(part) <= 4096 for part in sent)
        assert " ".join(part[6:] for part in sent) == text

    def test_it_keeps_the_row_pending_while_the_api_fails_then_sends_it(self, client, game, api):
        post(client, update("1. e4"))
        row = white_rows(game).first()
        api.fail_next = 2
        assert outbox.outbound_deliver(row.pk) is False
        row.refresh_from_db()
        assert (row.delivery, row.attempts) == ("pending", 1)
        assert "Bad Gateway" in row.error
        assert outbox.outbound_deliver(row.pk) is False
        row.refresh_from_db()
        assert (row.delivery, row.attempts) == ("pending", 2)
        assert outbox.outbound_deliver(row.pk) is True
        row.refresh_from_db()
        assert (row.delivery, row.attempts, row.error) == ("sent", 3, "")
        assert len(api.sent) == 1

    def test_it_keeps_the_row_pending_on_retry_after(self, client, game, api):
        post(client, update("1. e4"))
        row = white_rows(game).first()
        api.fail_next, api.fail_status = 1, 429
        assert outbox.outbound_deliver(row.pk) is False
        row.refresh_from_db()
        assert (row.delivery, row.attempts) == ("pending", 1)
        assert "wait" in row.error
        assert outbox.outbound_deliver(row.pk) is True

    def test_it_fails_the_row_at_once_when_the_player_blocked_the_bot(self, client, game, api):
        post(client, update("1. e4"))
        row = white_rows(game).first()
        api.fail_next, api.fail_status = 1, 403
        assert outbox.outbound_deliver(row.pk) is False
        row.refresh_from_db()
        assert (row.delivery, row.attempts) == ("failed", 1)
        assert "blocked" in row.error
        assert outbox.outbound_deliver(row.pk) is False
        assert api.sent == []

    def test_it_keeps_the_row_pending_when_the_api_is_unreachable(self, client, game, api):
        post(client, update("1. e4"))
        row = white_rows(game).first()
        api.stop()
        assert outbox.outbound_deliver(row.pk) is False
        row.refresh_from_db()
        assert (row.delivery, row.attempts) == ("pending", 1)
        assert "unreachable" in row.error


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"TELEGRAM_API_URL": "api.telegram.org/bot"}, "TELEGRAM_API_URL='api.telegram.org/bot' must start"),
        ({"TELEGRAM_WEBHOOK_SECRET": "has space"}, "TELEGRAM_WEBHOOK_SECRET must be"),
        ({"PLAY_TELEGRAM_BACKEND": "play.channels.telegram.TelegramBot"}, "needs TELEGRAM_BOT_TOKEN"),
    ],
)
def test_it_refuses_telegram_configured_wrong(env, message):
    from tests.federation.test_settings import run_manage

    result = run_manage("check", **env)
    assert result.returncode != 0
    assert message in result.stderr


def test_it_accepts_a_configured_bot():
    from tests.federation.test_settings import run_manage

    env = {"TELEGRAM_BOT_TOKEN": "123:abc", "TELEGRAM_WEBHOOK_SECRET": SECRET}
    result = run_manage("check", PLAY_TELEGRAM_BACKEND="play.channels.telegram.TelegramBot", **env)
    assert result.returncode == 0, result.stderr
