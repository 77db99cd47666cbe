"""SMS through "SMS Gateway for Android" over real HTTP: outbound rows go through the maintained
client to a fake gateway on a socket (tests/fakes/sms_gateway.py); the gateway's webhooks are
posted, signed with the key, through Django's test client to /play/hooks/sms/."""

import datetime
import hashlib
import hmac
import io
import json
import logging

import pytest
from django.utils import timezone

from play import services
from play.channels import outbox, sms
from play.models import ChannelAddress, MobileGame, Transmission
from tests.players.factories import PlayerFactory

KEY = "webhook-signing-key"
URL = "/play/hooks/sms/"
WHITE_PHONE, BLACK_PHONE = "+79991112233", "+79994445566"


@pytest.fixture(autouse=True)
def _sms_settings(settings):
    settings.PLAY_CONSOLE_STREAM = io.StringIO()
    settings.SMS_WEBHOOK_SIGNING_KEY = KEY
    settings.PLAY_CHANNEL_BACKENDS = {**settings.PLAY_CHANNEL_BACKENDS, "sms": "play.channels.sms.SmsGateway"}


@pytest.fixture
def game(db):
    white, black = PlayerFactory(), PlayerFactory()
    now = timezone.now()
    for player, phone in ((white, WHITE_PHONE), (black, BLACK_PHONE)):
        ChannelAddress.objects.create(player=player, channel="sms", address=phone, verified_at=now)
    return services.game_create(white=white, black=black, start=now - datetime.timedelta(hours=1))


def sign(body: bytes, timestamp: str, key: str = KEY) -> str:
    return hmac.new(key.encode(), body + timestamp.encode(), hashlib.sha256).hexdigest()


def envelope(event: str, payload: dict, webhook_id: str = "wh-1") -> bytes:
    data = {"deviceId": "dev-1", "event": event, "id": f"evt-{webhook_id}", "payload": payload, "webhookId": webhook_id}
    return json.dumps(data, ensure_ascii=False).encode()


def received(text: str, phone: str = WHITE_PHONE, message_id: str = "m-1", at: datetime.datetime | None = None):
    at = at or timezone.now() - datetime.timedelta(seconds=20)
    moment = at.astimezone(datetime.timezone(datetime.timedelta(hours=3))).isoformat(timespec="milliseconds")
    payload = {"messageId": message_id, "message": text, "phoneNumber": phone, "simNumber": 1, "receivedAt": moment}
    return envelope("sms:received", payload)


def post(client, body: bytes, *, timestamp: str | None = None, signature: str | None = None):
    timestamp = timestamp if timestamp is not None else str(int(timezone.now().timestamp()))
    signature = signature if signature is not None else sign(body, timestamp)
    return client.post(
        URL, data=body, content_type="application/json", HTTP_X_SIGNATURE=signature, HTTP_X_TIMESTAMP=timestamp
    )


def moves(game) -> int:
    game.refresh_from_db()
    return game.plies


@pytest.mark.django_db
class TestWebhook:
    def test_it_applies_a_signed_move_with_the_service_centre_time_as_sending_time(self, client, game):
        sent_at = timezone.now() - datetime.timedelta(seconds=40)
        response = post(client, received("1. e4", at=sent_at))
        assert response.status_code == 200, response.content
        assert response.json() == {"ok": True, "outcome": "move"}
        assert moves(game) == 1
        inbound = Transmission.objects.get(direction="in", channel="sms")
        assert (inbound.game, inbound.address, inbound.text) == (game, WHITE_PHONE, "1. e4")
        assert abs(inbound.sent - sent_at) < datetime.timedelta(seconds=1)
        assert inbound.external_id.startswith("smsgw:")

    @pytest.mark.parametrize(
        ("written", "utc"),
        [
            ("2024-06-07T11:41:31.000+-5:00", "2024-06-07T16:41:31"),  # Android 5 and 6 west of UTC
            ("2024-06-07T11:41:31.000+-3:-30", "2024-06-07T15:11:31"),  # ... and in Newfoundland
        ],
    )
    def test_it_applies_an_sms_whose_time_zone_old_android_wrote(self, client, game, caplog, written, utc):
        body = envelope(
            "sms:received", {"messageId": "m-1", "message": "1. e4", "phoneNumber": WHITE_PHONE, "receivedAt": written}
        )
        response = post(client, body)
        assert response.status_code == 200, response.content
        assert moves(game) == 1
        inbound = Transmission.objects.get(direction="in", channel="sms")
        assert inbound.sent == datetime.datetime.fromisoformat(utc).replace(tzinfo=datetime.UTC)

    @pytest.mark.parametrize("written", ["yesterday", "2024-06-07T11:41:31", None])
    def test_it_applies_an_sms_whose_time_cannot_be_read_at_its_arrival_and_logs_it(
        self, client, game, caplog, written
    ):
        payload = {"messageId": "m-1", "message": "1. e4", "phoneNumber": WHITE_PHONE, "receivedAt": written}
        with caplog.at_level(logging.WARNING, logger="play.sms"):
            response = post(client, envelope("sms:received", payload))
        assert response.status_code == 200, response.content
        assert moves(game) == 1
        inbound = Transmission.objects.get(direction="in", channel="sms")
        assert inbound.sent is None  # the rules take the arrival
        assert f"receivedAt={written!r} names no moment" in caplog.text

    def test_it_applies_a_webhook_delivered_twice_once(self, client, game):
        body = received("1. e4")
        assert post(client, body).status_code == 200
        second = post(client, body)
        assert second.status_code == 200
        assert second.json()["outcome"] == "duplicate"
        assert moves(game) == 1
        assert Transmission.objects.filter(direction="in").count() == 1

    def test_it_tells_apart_two_sms_with_the_same_gateway_id(self, client, game):
        # The gateway's messageId comes from the content: black's reply may share white's id.
        assert post(client, received("1. e4", message_id="same")).json()["outcome"] == "move"
        answer = post(client, received("1. e4 e5", phone=BLACK_PHONE, message_id="same"))
        assert answer.json()["outcome"] == "move"
        assert moves(game) == 2

    def test_it_refuses_a_bad_signature_with_403_and_stores_nothing(self, client, game, caplog):
        body = received("1. e4")
        timestamp = str(int(timezone.now().timestamp()))
        with caplog.at_level(logging.WARNING, logger="play.sms"):
            response = post(client, body, timestamp=timestamp, signature=sign(body, timestamp, key="wrong key"))
        assert response.status_code == 403
        assert "SMS webhook refused" in caplog.text
        assert moves(game) == 0
        assert not Transmission.objects.filter(direction="in").exists()

    def test_it_refuses_a_body_changed_after_signing(self, client, game):
        timestamp = str(int(timezone.now().timestamp()))
        signature = sign(received("1. e4"), timestamp)
        assert post(client, received("1. d4"), timestamp=timestamp, signature=signature).status_code == 403
        assert moves(game) == 0

    @pytest.mark.parametrize("minutes", [6, -6])
    def test_it_refuses_a_timestamp_six_minutes_off(self, client, game, minutes):
        timestamp = str(int((timezone.now() - datetime.timedelta(minutes=minutes)).timestamp()))
        assert post(client, received("1. e4"), timestamp=timestamp).status_code == 403
        assert moves(game) == 0
        assert not Transmission.objects.filter(direction="in").exists()

    def test_it_accepts_a_timestamp_four_minutes_old(self, client, game):
        timestamp = str(int((timezone.now() - datetime.timedelta(minutes=4)).timestamp()))
        assert post(client, received("1. e4"), timestamp=timestamp).status_code == 200
        assert moves(game) == 1

    def test_it_ignores_an_unknown_number(self, client, game):
        response = post(client, received("1. e4", phone="+70000000000"))
        assert response.status_code == 200
        assert response.json()["outcome"] == "unknown sender"
        assert moves(game) == 0
        assert not Transmission.objects.filter(direction="in").exists()

    def test_it_ignores_an_unverified_number(self, client, game):
        ChannelAddress.objects.filter(address=WHITE_PHONE).update(verified_at=None)
        assert post(client, received("1. e4")).json()["outcome"] == "unknown sender"
        assert moves(game) == 0

    def test_it_applies_cyrillic_moves(self, client, game):
        # "е4" with a Cyrillic е, and the knight as К.
        assert post(client, received("1. е4", message_id="a")).json()["outcome"] == "move"
        assert post(client, received("1. е4 e5", phone=BLACK_PHONE, message_id="b")).json()["outcome"] == "move"
        assert post(client, received("1... e5 2. Кf3", message_id="c")).json()["outcome"] == "move"
        assert moves(game) == 3
        texts = list(Transmission.objects.filter(direction="in").order_by("pk").values_list("text", flat=True))
        assert texts == ["1. е4", "1. е4 e5", "1... e5 2. Кf3"]  # kept unchanged

    @pytest.mark.parametrize(
        ("body", "says"),
        [
            (b"{not json", "not JSON"),
            (b"[1, 2]", "no payload"),
            (json.dumps({"event": "sms:received"}).encode(), "no payload"),
            (json.dumps({"payload": {}}).encode(), "no event"),
            (
                envelope(
                    "sms:received", {"messageId": "x", "phoneNumber": WHITE_PHONE, "receivedAt": "2026-01-01T00:00:00Z"}
                ),
                "message",
            ),
            (
                envelope("sms:received", {"messageId": "x", "message": "1. e4", "receivedAt": "2026-01-01T00:00:00Z"}),
                "phoneNumber",
            ),
            (envelope("sms:delivered", {"phoneNumber": WHITE_PHONE}), "messageId"),
            # Nested past any webhook's depth: a RecursionError (a 500) in the parser before.
            (b'{"payload": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", "nested deeper than 32 levels"),
        ],
    )
    def test_it_answers_400_to_a_malformed_body_and_changes_nothing(self, client, game, body, says):
        response = post(client, body)
        assert response.status_code == 400
        assert says in response.content.decode()
        assert moves(game) == 0
        assert not Transmission.objects.filter(direction="in").exists()

    def test_it_answers_503_when_no_key_is_configured(self, client, game, settings):
        settings.SMS_WEBHOOK_SIGNING_KEY = ""
        response = post(client, received("1. e4"))
        assert response.status_code == 503
        assert "not configured" in response.content.decode()
        assert moves(game) == 0

    def test_it_takes_only_post(self, client, db):
        assert client.get(URL).status_code == 405


@pytest.mark.django_db
def test_it_replies_to_the_number_the_move_came_from_without_looking_it_up(client, game):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        assert post(client, received("1. e4")).status_code == 200
    rows = Transmission.objects.filter(game=game, direction="out").order_by("pk")
    assert {(row.party, row.channel, row.address) for row in rows} == {
        ("white", "sms", WHITE_PHONE),
        ("black", "sms", BLACK_PHONE),
    }
    # One look-up for the sender (who is he?) and one for his opponent's number; none for his own.
    lookups = [q["sql"] for q in captured.captured_queries if 'FROM "play_channeladdress"' in q["sql"]]
    assert len(lookups) == 2, lookups


def white_sms_rows(game):
    return Transmission.objects.filter(game=game, direction="out", channel="sms", player=game.white)


@pytest.mark.django_db
class TestOutbound:
    def test_it_sends_the_reply_through_the_client_to_the_gateway(self, client, game, gateway):
        assert post(client, received("1. e4")).status_code == 200
        rows = list(white_sms_rows(game))
        assert rows and all(row.delivery == "pending" for row in rows)
        assert outbox.outbound_deliver_many([row.pk for row in rows]) == len(rows)
        assert [body["phoneNumbers"] for body in gateway.sent] == [[WHITE_PHONE]] * len(rows)
        assert [body["textMessage"]["text"] for body in gateway.sent] == [row.text for row in rows]
        for row in rows:
            row.refresh_from_db()
            assert row.delivery == "sent"
            assert row.external_id == sms.outbound_message_id(row)  # the id the row gave the gateway
        assert gateway.requests[0].path == "/3rdparty/v1/messages"

    def test_it_keeps_the_row_pending_while_the_gateway_fails_then_sends_it(self, client, game, gateway):
        post(client, received("1. e4"))
        row = white_sms_rows(game).first()
        gateway.fail_next = 2
        assert outbox.outbound_deliver(row.pk) is False
        row.refresh_from_db()
        assert (row.delivery, row.attempts) == ("pending", 1)
        assert "503" in row.error
        assert outbox.outbound_deliver(row.pk) is False
        row.refresh_from_db()
        assert (row.delivery, row.attempts, row.external_id) == ("pending", 2, None)
        assert outbox.outbound_deliver(row.pk) is True
        row.refresh_from_db()
        assert (row.delivery, row.attempts, row.error) == ("sent", 3, "")
        assert len(gateway.requests) == 3 and len(gateway.sent) == 1

    def test_it_takes_the_gateways_conflict_on_a_repeated_id_as_sent_and_sends_one_sms(self, client, game, gateway):
        # The gateway takes the SMS, and its answer is lost: the row is tried again with its id.
        post(client, received("1. e4"))
        row = white_sms_rows(game).first()
        gateway.lose_answers = 1
        tries = 0
        while not outbox.outbound_deliver(row.pk):
            tries += 1
            assert tries < 3
        row.refresh_from_db()
        assert (row.delivery, row.external_id) == ("sent", sms.outbound_message_id(row))
        assert len(gateway.sent) == 1  # one SMS, not two
        ids = [request.body["id"] for request in gateway.requests]
        assert ids == [row.external_id, row.external_id]  # the repeat carried the same id: 409

    def test_it_gives_each_row_its_own_message_id(self, client, game, gateway):
        post(client, received("1. e4"))
        rows = list(Transmission.objects.filter(direction="out", channel="sms"))
        assert len(rows) >= 2
        ids = {sms.outbound_message_id(row) for row in rows}
        assert len(ids) == len(rows) and all(len(i) <= 36 for i in ids)
        # A row of the same id in another database (restored, or started afresh) is another message.
        other = Transmission(pk=rows[0].pk, at=rows[0].at, address=rows[0].address, text=rows[0].text + ".")
        assert sms.outbound_message_id(other) != sms.outbound_message_id(rows[0])

    def test_it_keeps_the_row_pending_when_the_gateway_is_unreachable(self, client, game, gateway, settings):
        post(client, received("1. e4"))
        row = white_sms_rows(game).first()
        gateway.stop()
        assert outbox.outbound_deliver(row.pk) is False
        row.refresh_from_db()
        assert (row.delivery, row.attempts) == ("pending", 1)
        assert "unreachable" in row.error

    def test_it_marks_the_row_failed_at_once_on_wrong_credentials(self, client, game, gateway, settings):
        # A 401 will not heal by retrying: the row is failed for staff on the first answer.
        settings.SMS_GATEWAY_PASSWORD = "wrong"
        post(client, received("1. e4"))
        row = white_sms_rows(game).first()
        assert outbox.outbound_deliver(row.pk) is False
        row.refresh_from_db()
        assert (row.delivery, row.attempts) == ("failed", 1)
        assert "401" in row.error
        assert outbox.outbound_deliver(row.pk) is False  # a failed row is not sent again
        assert len(gateway.requests) == 1


@pytest.mark.django_db
class TestDeliveryReports:
    @pytest.fixture
    def sent_row(self, client, game, gateway):
        post(client, received("1. e4"))
        row = white_sms_rows(game).first()
        outbox.outbound_deliver(row.pk)
        row.refresh_from_db()
        return row

    def report(self, event, row, **extra):
        return envelope(
            event, {"messageId": row.external_id, "phoneNumber": row.address, "simNumber": 1, **extra}, webhook_id=event
        )

    def test_it_stores_the_delivered_report_on_the_row(self, client, sent_row, game):
        state = MobileGame.objects.get(pk=game.pk).state
        assert (
            post(client, self.report("sms:sent", sent_row, sentAt="2026-11-23T10:00:01.000+03:00")).json()["outcome"]
            == "sent"
        )
        body = self.report("sms:delivered", sent_row, deliveredAt="2026-11-23T10:00:05.000+03:00")
        assert post(client, body).json()["outcome"] == "delivered"
        assert post(client, body).json()["outcome"] == "duplicate"
        sent_row.refresh_from_db()
        assert sent_row.delivery == "sent"
        assert sent_row.delivered_at == datetime.datetime(2026, 11, 23, 7, 0, 5, tzinfo=datetime.UTC)
        assert [r["event"] for r in sent_row.delivery_reports] == ["sms:sent", "sms:delivered"]
        assert sent_row.delivery_reports[1]["payload"]["deliveredAt"] == "2026-11-23T10:00:05.000+03:00"
        # Evidence only: the game (and so its clock) is untouched by a report.
        assert MobileGame.objects.get(pk=game.pk).state == state

    def test_it_marks_the_row_failed_on_a_failed_report(self, client, sent_row):
        body = self.report(
            "sms:failed", sent_row, failedAt="2026-11-23T10:00:05.000+03:00", reason="RESULT_ERROR_NO_SERVICE"
        )
        assert post(client, body).status_code == 200
        sent_row.refresh_from_db()
        assert sent_row.delivery == "failed"
        assert "RESULT_ERROR_NO_SERVICE" in sent_row.error
        assert sent_row.delivery_reports[0]["event"] == "sms:failed"

    def test_it_ignores_a_report_for_an_unknown_message(self, client, sent_row):
        body = envelope(
            "sms:delivered", {"messageId": "nobody", "phoneNumber": WHITE_PHONE, "deliveredAt": "2026-11-23T10:00:05Z"}
        )
        assert post(client, body).json()["outcome"] == "unknown message"
        sent_row.refresh_from_db()
        assert sent_row.delivery_reports == []

    def test_it_asks_again_for_a_fresh_report_that_came_before_its_message_id(self, client, sent_row):
        # The gateway may report before the delivery's transaction has stored the id it answered.
        fresh = timezone.now().isoformat()
        body = envelope("sms:delivered", {"messageId": "in-flight", "phoneNumber": WHITE_PHONE, "deliveredAt": fresh})
        response = post(client, body)
        assert (response.status_code, response["Retry-After"]) == (503, "5")
        Transmission.objects.filter(pk=sent_row.pk).update(external_id="in-flight")
        assert post(client, body).json()["outcome"] == "delivered"
        sent_row.refresh_from_db()
        assert [r["event"] for r in sent_row.delivery_reports] == ["sms:delivered"]

    def test_it_refuses_an_unsigned_report(self, client, sent_row):
        body = self.report("sms:failed", sent_row, reason="forged")
        assert post(client, body, signature="0" * 64).status_code == 403
        sent_row.refresh_from_db()
        assert (sent_row.delivery, sent_row.delivery_reports) == ("sent", [])


def test_it_signs_as_the_gateway_documents():
    # Hex HMAC-SHA256 over the raw body followed by the X-Timestamp value.
    body, timestamp = b'{"event":"sms:received"}', "1700000000"
    assert (
        sms.signature(KEY, body, timestamp) == hmac.new(KEY.encode(), body + b"1700000000", hashlib.sha256).hexdigest()
    )


@pytest.mark.parametrize(
    ("env", "message"),
    [
        (
            {"SMS_GATEWAY_URL": "sms.example.org/3rdparty/v1"},
            "SMS_GATEWAY_URL='sms.example.org/3rdparty/v1' must start",
        ),
        ({"PLAY_SMS_BACKEND": "play.channels.sms.SmsGateway", "SMS_GATEWAY_USER": "u"}, "needs SMS_GATEWAY_URL"),
    ],
)
def test_it_refuses_a_gateway_configured_wrong(env, message):
    from tests.federation.test_settings import run_manage

    result = run_manage("check", **env)
    assert result.returncode != 0
    assert message in result.stderr


def test_it_accepts_a_configured_gateway():
    from tests.federation.test_settings import run_manage

    env = {"SMS_GATEWAY_URL": "https://sms.example.org/3rdparty/v1", "SMS_GATEWAY_USER": "u"}
    result = run_manage("check", PLAY_SMS_BACKEND="play.channels.sms.SmsGateway", SMS_GATEWAY_PASSWORD="p", **env)
    assert result.returncode == 0, result.stderr


def test_it_counts_json_depth_by_brackets_outside_strings():
    from play.channels.sms import json_depth

    assert [json_depth(b"1"), json_depth(b"[]"), json_depth(b"[[], {}]"), json_depth(b'{"a": [{"b": 1}]}')] == [
        0,
        1,
        2,
        3,
    ]
    # Brackets in strings, an escaped quote and an unclosed string are text, not nesting.
    assert json_depth(b'["[[[", "\\"{{{", "]]"]') == 1
    assert json_depth(b'["[[[') == 1


def test_it_documents_each_webhooks_headers_with_an_example_that_checks():
    """The operators' channels guide names every header the webhooks read, and its SMS signature example is one the
    webhook accepts (and one a changed body spoils)."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    readme = (root / "docs" / "operators" / "channels.md").read_text()
    table = readme[readme.index("**What each webhook checks.**") :]
    table = table[: table.index("\n\n", table.index("| Webhook"))]
    read = set()
    for module in ("hooks.py", "hooks_twilio.py"):
        read |= set(re.findall(r'request\.headers\.get\("([\w-]+)"', (root / "play" / "channels" / module).read_text()))
    assert read >= {"X-Signature", "X-Timestamp", "X-Twilio-Signature", "X-Telegram-Bot-Api-Secret-Token"}
    for header in read:
        assert f"`{header}`" in table, header
    example = re.search(r"key `(.+?)`, body `(.+?)`, `X-Timestamp: (\d+)` → `X-Signature: ([0-9a-f]{64})`", table)
    key, body, timestamp, signature = example.groups()
    sent = datetime.datetime.fromtimestamp(int(timestamp), tz=datetime.UTC)
    sms.webhook_verify(body.encode(), signature, timestamp, key=key, now=sent)
    with pytest.raises(sms.Refused, match="bad X-Signature"):
        sms.webhook_verify(body.encode() + b" ", signature, timestamp, key=key, now=sent)


@pytest.mark.parametrize(
    ("written", "utc"),
    [
        ("2024-06-07T11:41:31.000+-5:00", "2024-06-07T16:41:31"),
        ("2024-06-07T11:41:31.000+-3:-30", "2024-06-07T15:11:31"),
        ("2024-06-07T11:41:31.000+-10:00", "2024-06-07T21:41:31"),
        ("2024-06-07T11:41:31.000+00:-30", "2024-06-07T12:11:31"),
        ("2024-06-07T11:41:31.000+05:30", "2024-06-07T06:11:31"),
        ("2024-06-07T11:41:31.000-04:00", "2024-06-07T15:41:31"),
        ("2024-06-07T11:41:31.000Z", "2024-06-07T11:41:31"),
    ],
)
def test_it_reads_the_gateways_times_with_the_offsets_old_android_writes(written, utc):
    assert sms.gateway_time(written) == datetime.datetime.fromisoformat(utc).replace(tzinfo=datetime.UTC)


@pytest.mark.parametrize(
    "written", ["yesterday", "", "2024-06-07T11:41:31.000", "2024-06-07T11:41:31.000+-25:00", "2024-13-07T11:41+-5:00"]
)
def test_it_reads_no_moment_from_a_time_without_one(written):
    assert sms.gateway_time(written) is None
