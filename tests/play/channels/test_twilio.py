"""SMS through Twilio over real HTTP: outbound rows go through twilio-python to a fake Twilio REST
API on a socket (tests/fakes/twilio_api.py); Twilio's webhooks are form posts through Django's test
client to /play/hooks/twilio/ and /play/hooks/twilio/status/, signed with Twilio's own
RequestValidator and the auth token, as Twilio signs them."""

import datetime
import io
import logging
from urllib.parse import urlencode

import pytest
from django.utils import timezone
from twilio.request_validator import RequestValidator

from play import services
from play.channels import PermanentFailure, TransientFailure, outbox, twilio_sms
from play.channels.hooks_twilio import EMPTY_TWIML
from play.models import ChannelAddress, MobileGame, Transmission
from tests.fakes.twilio_api import FakeTwilio
from tests.players.factories import PlayerFactory

ACCOUNT = FakeTwilio.account_sid
TOKEN = FakeTwilio.auth_token
NUMBER = FakeTwilio.number
URL = "/play/hooks/twilio/"
STATUS_URL = "/play/hooks/twilio/status/"
WHITE_PHONE, BLACK_PHONE = "+79991112233", "+79994445566"


@pytest.fixture(autouse=True)
def _twilio_settings(settings):
    settings.PLAY_CONSOLE_STREAM = io.StringIO()
    settings.TWILIO_ACCOUNT_SID, settings.TWILIO_AUTH_TOKEN, settings.TWILIO_FROM_NUMBER = ACCOUNT, TOKEN, NUMBER
    settings.TWILIO_WEBHOOK_BASE_URL = settings.TWILIO_STATUS_CALLBACK_URL = ""
    settings.PLAY_CHANNEL_BACKENDS = {**settings.PLAY_CHANNEL_BACKENDS, "sms": "play.channels.twilio_sms.TwilioSms"}


@pytest.fixture
def twilio(settings):
    fake = FakeTwilio().start()
    settings.TWILIO_API_URL = fake.url
    yield fake
    fake.stop()


@pytest.fixture
def game(db):
    white, black = PlayerFactory(), PlayerFactory()
    now = timezone.now()
    for player, phone in ((white, WHITE_PHONE), (black, BLACK_PHONE)):
        ChannelAddress.objects.create(player=player, channel="sms", address=phone, verified_at=now)
    return services.game_create(white=white, black=black, start=now - datetime.timedelta(hours=1))


def sms(text: str, phone: str = WHITE_PHONE, sid: str = "SM" + "a1" * 16) -> dict:
    """The form Twilio posts for an incoming SMS."""
    return {
        "ToCountry": "US",
        "ToState": "CA",
        "SmsMessageSid": sid,
        "NumMedia": "0",
        "SmsSid": sid,
        "SmsStatus": "received",
        "Body": text,
        "To": NUMBER,
        "NumSegments": "1",
        "MessageSid": sid,
        "AccountSid": ACCOUNT,
        "From": phone,
        "ApiVersion": "2010-04-01",
    }


def status(sid: str, message_status: str, **extra) -> dict:
    """The form Twilio posts to the status callback."""
    return {
        "SmsSid": sid,
        "SmsStatus": message_status,
        "MessageStatus": message_status,
        "To": WHITE_PHONE,
        "MessageSid": sid,
        "AccountSid": ACCOUNT,
        "From": NUMBER,
        "ApiVersion": "2010-04-01",
        **extra,
    }


def sign(url: str, form: dict, token: str = TOKEN) -> str:
    return RequestValidator(token).compute_signature(url, form)


def post(client, form: dict, path: str = URL, *, signature: str | None = None, signed_url: str | None = None):
    """Post the form as Twilio does (URL-encoded), signed for the URL it called unless told."""
    if signature is None:
        signature = sign(signed_url or f"http://testserver{path}", form)
    headers = {"HTTP_X_TWILIO_SIGNATURE": signature} if signature else {}
    return client.post(path, data=urlencode(form), content_type="application/x-www-form-urlencoded", **headers)


def moves(game) -> int:
    game.refresh_from_db()
    return game.plies


def inbound():
    return Transmission.objects.filter(direction="in")


@pytest.mark.django_db
class TestInbound:
    def test_it_applies_a_signed_move_and_answers_empty_twiml(self, client, game):
        response = post(client, sms("1. e4"))
        assert response.status_code == 200, response.content
        assert response["Content-Type"].startswith("text/xml")
        assert response.content.decode() == '<?xml version="1.0" encoding="UTF-8"?><Response/>' == EMPTY_TWIML
        assert moves(game) == 1
        row = inbound().get()
        assert (row.channel, row.game, row.address, row.text) == ("sms", game, WHITE_PHONE, "1. e4")
        assert row.external_id == "tw:SM" + "a1" * 16
        assert row.sent is None  # Twilio gives no sending time: the arrival counts

    def test_it_applies_a_sms_posted_twice_once(self, client, game):
        assert post(client, sms("1. e4")).status_code == 200
        assert post(client, sms("1. e4")).status_code == 200
        assert moves(game) == 1
        assert inbound().count() == 1

    def test_it_tells_apart_two_sms_by_their_sid(self, client, game):
        assert post(client, sms("1. e4", sid="SM" + "01" * 16)).status_code == 200
        assert post(client, sms("1. e4 e5", phone=BLACK_PHONE, sid="SM" + "02" * 16)).status_code == 200
        assert moves(game) == 2

    def test_it_refuses_a_bad_signature_with_403_logs_and_stores_nothing(self, client, game, caplog):
        form = sms("1. e4")
        with caplog.at_level(logging.WARNING, logger="play.twilio"):
            response = post(client, form, signature=sign(f"http://testserver{URL}", form, token="another token"))
        assert response.status_code == 403
        assert "Twilio webhook refused" in caplog.text and "bad X-Twilio-Signature" in caplog.text
        assert moves(game) == 0
        assert not inbound().exists()

    def test_it_refuses_a_missing_signature(self, client, game, caplog):
        with caplog.at_level(logging.WARNING, logger="play.twilio"):
            assert post(client, sms("1. e4"), signature="").status_code == 403
        assert "missing X-Twilio-Signature" in caplog.text
        assert moves(game) == 0
        assert not inbound().exists()

    def test_it_refuses_a_body_changed_after_signing(self, client, game):
        signature = sign(f"http://testserver{URL}", sms("1. e4"))
        assert post(client, sms("1. d4"), signature=signature).status_code == 403
        assert moves(game) == 0

    def test_it_checks_the_url_twilio_called_behind_a_proxy(self, client, game, settings):
        # Twilio called the public address; the site behind the proxy sees http://testserver.
        public = f"https://ratings.example.org{URL}"
        assert post(client, sms("1. e4"), signed_url=public).status_code == 403
        settings.TWILIO_WEBHOOK_BASE_URL = "https://ratings.example.org/"
        assert post(client, sms("1. e4"), signed_url=public).status_code == 200
        assert moves(game) == 1
        # ... and then a signature for the address the site sees no longer checks.
        assert post(client, sms("1. e4 e5", phone=BLACK_PHONE, sid="SM" + "03" * 16)).status_code == 403
        assert moves(game) == 1

    def test_it_signs_the_query_string_too(self, client, game):
        path = f"{URL}?federation=1"
        assert post(client, sms("1. e4"), path=path).status_code == 200
        assert moves(game) == 1

    def test_it_ignores_an_unknown_number(self, client, game):
        response = post(client, sms("1. e4", phone="+70000000000"))
        assert response.status_code == 200
        assert response.content.decode() == EMPTY_TWIML
        assert moves(game) == 0
        assert not inbound().exists()

    def test_it_applies_cyrillic_moves(self, client, game):
        # "е4" with a Cyrillic е, and the knight as К: the signature covers the UTF-8 text.
        assert post(client, sms("1. е4", sid="SM" + "0a" * 16)).status_code == 200
        assert post(client, sms("1. е4 e5", phone=BLACK_PHONE, sid="SM" + "0b" * 16)).status_code == 200
        assert post(client, sms("1... e5 2. Кf3", sid="SM" + "0c" * 16)).status_code == 200
        assert moves(game) == 3
        texts = list(inbound().order_by("pk").values_list("text", flat=True))
        assert texts == ["1. е4", "1. е4 e5", "1... e5 2. Кf3"]  # kept unchanged

    @pytest.mark.parametrize("missing", ["From", "Body", "MessageSid"])
    def test_it_answers_400_to_a_form_without_a_field_and_changes_nothing(self, client, game, missing):
        form = sms("1. e4")
        del form[missing]
        response = post(client, form)
        assert response.status_code == 400
        assert missing in response.content.decode()
        assert moves(game) == 0
        assert not inbound().exists()

    def test_it_answers_503_when_no_token_is_configured(self, client, game, settings):
        form = sms("1. e4")
        signature = sign(f"http://testserver{URL}", form)
        settings.TWILIO_AUTH_TOKEN = ""
        response = post(client, form, signature=signature)
        assert response.status_code == 503
        assert "not configured" in response.content.decode()
        assert moves(game) == 0

    def test_it_takes_only_post(self, client, db):
        assert client.get(URL).status_code == 405
        assert client.get(STATUS_URL).status_code == 405


def white_sms_rows(game):
    return Transmission.objects.filter(game=game, direction="out", channel="sms", player=game.white)


@pytest.mark.django_db
class TestOutbound:
    def test_it_sends_the_reply_through_the_client_to_twilio(self, client, game, twilio):
        assert post(client, sms("1. e4")).status_code == 200
        rows = list(white_sms_rows(game))
        assert rows and all(row.delivery == "pending" for row in rows)
        assert outbox.outbound_deliver_many([row.pk for row in rows]) == len(rows)
        assert [(body["To"], body["From"]) for body in twilio.sent] == [(WHITE_PHONE, NUMBER)] * len(rows)
        assert [body["Body"] for body in twilio.sent] == [row.text for row in rows]
        assert all("StatusCallback" not in body for body in twilio.sent)
        assert twilio.requests[0].path == f"/2010-04-01/Accounts/{ACCOUNT}/Messages.json"
        for number, row in enumerate(rows, start=1):
            row.refresh_from_db()
            assert row.delivery == "sent"
            assert row.external_id == f"SM{number:032x}"

    def test_it_asks_for_status_callbacks_when_configured(self, client, game, twilio, settings):
        settings.TWILIO_STATUS_CALLBACK_URL = "https://ratings.example.org/play/hooks/twilio/status/"
        post(client, sms("1. e4"))
        assert outbox.outbound_deliver(white_sms_rows(game).first().pk) is True
        assert twilio.sent[0]["StatusCallback"] == "https://ratings.example.org/play/hooks/twilio/status/"

    def test_it_keeps_the_row_pending_while_twilio_fails_then_sends_it(self, client, game, twilio):
        post(client, sms("1. e4"))
        row = white_sms_rows(game).first()
        twilio.fail_next = 2
        assert outbox.outbound_deliver(row.pk) is False
        row.refresh_from_db()
        assert (row.delivery, row.attempts) == ("pending", 1)
        assert "500" in row.error and "20500" in row.error
        assert outbox.outbound_deliver(row.pk) is False
        row.refresh_from_db()
        assert (row.delivery, row.attempts, row.external_id) == ("pending", 2, None)
        assert outbox.outbound_deliver(row.pk) is True
        row.refresh_from_db()
        assert (row.delivery, row.attempts, row.error) == ("sent", 3, "")
        assert row.external_id.startswith("SM")
        assert len(twilio.requests) == 3 and len(twilio.sent) == 1

    def test_it_finds_the_message_of_a_send_whose_answer_was_lost_and_sends_no_second_sms(self, client, game, twilio):
        post(client, sms("1. e4"))
        row = white_sms_rows(game).first()
        twilio.lose_answers = 1  # Twilio makes the message; its answer never arrives
        assert outbox.outbound_deliver(row.pk) is False
        row.refresh_from_db()
        assert (row.delivery, row.attempts) == ("pending", 1) and "unreachable" in row.error
        assert outbox.outbound_deliver(row.pk) is True
        row.refresh_from_db()
        assert (row.delivery, row.external_id) == ("sent", twilio.made[0]["sid"])
        assert len(twilio.made) == 1  # one SMS
        assert [r.method for r in twilio.requests] == ["POST", "GET"]  # the second try looked it up

    def test_it_sends_a_row_whose_lookup_finds_only_another_rows_message(self, client, game, twilio):
        post(client, sms("1. e4"))
        first = white_sms_rows(game).first()
        assert outbox.outbound_deliver(first.pk) is True
        # The same words to the same number again, whose last try found Twilio unreachable.
        again = Transmission.objects.get(pk=first.pk)
        again.pk, again.delivery, again.delivered_at, again.external_id = None, "pending", None, None
        again.attempts, again.error = 1, "Twilio unreachable while sending: read timed out"
        again.save()
        assert outbox.outbound_deliver(again.pk) is True
        again.refresh_from_db()
        assert len(twilio.made) == 2 and again.external_id == twilio.made[1]["sid"]

    def test_it_keeps_the_row_pending_on_429(self, client, game, twilio):
        post(client, sms("1. e4"))
        row = white_sms_rows(game).first()
        twilio.fail_status, twilio.fail_next = 429, 1
        assert outbox.outbound_deliver(row.pk) is False
        row.refresh_from_db()
        assert (row.delivery, row.attempts) == ("pending", 1)
        assert "429" in row.error

    def test_it_keeps_the_row_pending_when_twilio_is_unreachable(self, client, game, twilio):
        post(client, sms("1. e4"))
        row = white_sms_rows(game).first()
        twilio.stop()
        assert outbox.outbound_deliver(row.pk) is False
        row.refresh_from_db()
        assert (row.delivery, row.attempts) == ("pending", 1)
        assert "unreachable" in row.error

    def test_it_marks_the_row_failed_at_once_for_a_bad_number(self, client, game, twilio):
        post(client, sms("1. e4"))
        row = white_sms_rows(game).first()
        Transmission.objects.filter(pk=row.pk).update(address="8 999 111-22-33")
        assert outbox.outbound_deliver(row.pk) is False
        row.refresh_from_db()
        assert (row.delivery, row.attempts) == ("failed", 1)
        assert "400" in row.error and "21211" in row.error
        assert outbox.outbound_deliver(row.pk) is False  # a failed row is not sent again
        assert len(twilio.requests) == 1 and twilio.sent == []

    def test_it_marks_the_row_failed_at_once_on_wrong_credentials(self, client, game, twilio, settings):
        settings.TWILIO_AUTH_TOKEN = "wrong"
        post(client, sms("1. e4"), signature=sign(f"http://testserver{URL}", sms("1. e4"), token="wrong"))
        row = white_sms_rows(game).first()
        assert outbox.outbound_deliver(row.pk) is False
        row.refresh_from_db()
        assert (row.delivery, row.attempts) == ("failed", 1)
        assert "401" in row.error and "20003" in row.error

    def test_it_ignores_twilio_edge_and_region_in_the_environment(self, client, game, twilio, monkeypatch):
        # The client would rewrite the host to api.sydney.au1.twilio.com: the settings rule.
        monkeypatch.setenv("TWILIO_EDGE", "sydney")
        monkeypatch.setenv("TWILIO_REGION", "au1")
        post(client, sms("1. e4"))
        assert outbox.outbound_deliver(white_sms_rows(game).first().pk) is True
        assert len(twilio.sent) == 1


@pytest.mark.django_db
class TestCheck:
    def test_it_reports_the_active_account(self, twilio):
        line = twilio_sms.TwilioSms().check()
        assert line == (
            f"Twilio account {ACCOUNT} (Chess federation) is active; sending from {NUMBER} through {twilio.url}"
        )
        assert [(r.method, r.path) for r in twilio.requests] == [("GET", f"/2010-04-01/Accounts/{ACCOUNT}.json")]

    def test_it_raises_for_a_suspended_account(self, twilio):
        twilio.account_status = "suspended"
        with pytest.raises(PermanentFailure, match="is suspended, not active"):
            twilio_sms.TwilioSms().check()

    def test_it_raises_for_wrong_credentials(self, twilio, settings):
        settings.TWILIO_AUTH_TOKEN = "wrong"
        with pytest.raises(PermanentFailure, match=r"401.*20003"):
            twilio_sms.TwilioSms().check()

    def test_it_raises_when_twilio_is_unreachable(self, twilio):
        twilio.stop()
        with pytest.raises(TransientFailure, match="unreachable"):
            twilio_sms.TwilioSms().check()


@pytest.mark.django_db
class TestStatusCallbacks:
    @pytest.fixture
    def sent_row(self, client, game, twilio):
        post(client, sms("1. e4"))
        row = white_sms_rows(game).first()
        assert outbox.outbound_deliver(row.pk) is True
        row.refresh_from_db()
        return row

    def test_it_stores_sent_and_delivered_on_the_row(self, client, sent_row, game):
        state = MobileGame.objects.get(pk=game.pk).state
        Transmission.objects.filter(pk=sent_row.pk).update(
            delivered_at=datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
        )
        before = timezone.now()
        assert post(client, status(sent_row.external_id, "sent"), STATUS_URL).content == b"sent"
        delivered = status(sent_row.external_id, "delivered", RawDlrDoneDate="2611231005")
        assert post(client, delivered, STATUS_URL).content == b"delivered"
        response = post(client, delivered, STATUS_URL)
        assert (response.status_code, response.content) == (200, b"duplicate")
        sent_row.refresh_from_db()
        assert sent_row.delivery == "sent"
        assert sent_row.delivered_at >= before
        assert [r["event"] for r in sent_row.delivery_reports] == ["twilio:sent", "twilio:delivered"]
        assert sent_row.delivery_reports[1]["payload"]["RawDlrDoneDate"] == "2611231005"
        # Evidence only: the game (and so its clock) is untouched by a report.
        assert MobileGame.objects.get(pk=game.pk).state == state

    @pytest.mark.parametrize(("final", "code"), [("undelivered", "30003"), ("failed", "30008")])
    def test_it_marks_the_row_failed_with_the_error_code(self, client, sent_row, final, code):
        response = post(client, status(sent_row.external_id, final, ErrorCode=code), STATUS_URL)
        assert (response.status_code, response.content.decode()) == (200, final)
        sent_row.refresh_from_db()
        assert sent_row.delivery == "failed"
        assert sent_row.error == f"Twilio: {final} (error {code})"
        assert sent_row.delivery_reports[0]["payload"]["ErrorCode"] == code

    def test_it_ignores_a_status_for_an_unknown_message(self, client, sent_row, caplog):
        with caplog.at_level(logging.WARNING, logger="play.twilio"):
            response = post(client, status("SM" + "ff" * 16, "delivered"), STATUS_URL)
        assert (response.status_code, response.content) == (200, b"unknown message")
        assert "unknown message" in caplog.text
        sent_row.refresh_from_db()
        assert sent_row.delivery_reports == []

    def test_it_refuses_an_unsigned_status(self, client, sent_row):
        form = status(sent_row.external_id, "failed", ErrorCode="30008")
        assert post(client, form, STATUS_URL, signature=sign(f"http://testserver{URL}", form)).status_code == 403
        sent_row.refresh_from_db()
        assert (sent_row.delivery, sent_row.delivery_reports) == ("sent", [])

    def test_it_answers_400_without_a_status(self, client, sent_row):
        form = status(sent_row.external_id, "delivered")
        del form["MessageStatus"]
        response = post(client, form, STATUS_URL)
        assert response.status_code == 400
        assert "MessageStatus" in response.content.decode()
        sent_row.refresh_from_db()
        assert sent_row.delivery_reports == []


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"TWILIO_API_URL": "api.twilio.com"}, "TWILIO_API_URL='api.twilio.com' must start with http:// or https://"),
        (
            {"TWILIO_WEBHOOK_BASE_URL": "ratings.example.org"},
            "TWILIO_WEBHOOK_BASE_URL='ratings.example.org' must start",
        ),
        (
            {"TWILIO_STATUS_CALLBACK_URL": "ftp://ratings.example.org/play/hooks/twilio/status/"},
            "TWILIO_STATUS_CALLBACK_URL='ftp://ratings.example.org/play/hooks/twilio/status/' must start",
        ),
        (
            {
                "PLAY_SMS_BACKEND": "play.channels.twilio_sms.TwilioSms",
                "TWILIO_ACCOUNT_SID": ACCOUNT,
                "TWILIO_AUTH_TOKEN": "t",
            },
            "PLAY_SMS_BACKEND=play.channels.twilio_sms.TwilioSms needs TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and "
            "TWILIO_FROM_NUMBER",
        ),
    ],
)
def test_it_refuses_twilio_configured_wrong(env, message):
    from tests.federation.test_settings import run_manage

    result = run_manage("check", **env)
    assert result.returncode != 0
    assert message in result.stderr


def test_it_accepts_a_configured_twilio():
    from tests.federation.test_settings import run_manage

    env = {"TWILIO_ACCOUNT_SID": ACCOUNT, "TWILIO_AUTH_TOKEN": "t", "TWILIO_FROM_NUMBER": NUMBER}
    urls = {
        "TWILIO_WEBHOOK_BASE_URL": "https://ratings.example.org",
        "TWILIO_STATUS_CALLBACK_URL": "https://ratings.example.org/play/hooks/twilio/status/",
    }
    result = run_manage("check", PLAY_SMS_BACKEND="play.channels.twilio_sms.TwilioSms", **env, **urls)
    assert result.returncode == 0, result.stderr
