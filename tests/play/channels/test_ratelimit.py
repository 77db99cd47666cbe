"""Per-number rate limits (play/channels/limits.py, counted by toolkit/ratelimit.py) with exact
counts: inbound, a flood from one number is dropped unanswered past PLAY_INBOUND_PER_MINUTE in any
60 s (a sliding window) while another number is served; outbound, a bug writing 100 messages to one
number sends PLAY_OUTBOUND_PER_MINUTE of them in a clock minute, through the real client to a fake
gateway, and the outbox sweep sends the rest minute by minute."""

import datetime
import io
import logging

import pytest
from django.utils import timezone

from play import services
from play.channels import limits, outbox, telegram
from play.models import ChannelAddress, ChannelOutage, Transmission
from tests.players.factories import PlayerFactory

pytestmark = pytest.mark.django_db

UTC = datetime.UTC
T0 = datetime.datetime(2026, 11, 20, 10, 0, tzinfo=UTC)  # the start of a clock minute
FLOOD, QUIET = "+79991110000", "+79992220000"
CHAT = 123456789


def at(seconds: int) -> datetime.datetime:
    return T0 + datetime.timedelta(seconds=seconds)


@pytest.fixture(autouse=True)
def _settings(settings):
    settings.PLAY_CONSOLE_STREAM = io.StringIO()
    settings.PLAY_CHANNEL_BACKENDS = {**settings.PLAY_CHANNEL_BACKENDS, "sms": "play.channels.sms.SmsGateway"}
    settings.PLAY_INBOUND_PER_MINUTE = 30
    settings.PLAY_OUTBOUND_PER_MINUTE = 30


@pytest.fixture
def game():
    white, black = PlayerFactory(), PlayerFactory()
    ChannelAddress.objects.create(player=white, channel="sms", address=FLOOD, verified_at=T0)
    ChannelAddress.objects.create(player=black, channel="sms", address=QUIET, verified_at=T0)
    ChannelAddress.objects.create(player=black, channel="telegram", address=str(CHAT), verified_at=T0)
    return services.game_create(white=white, black=black, start=T0 - datetime.timedelta(hours=1))


def status(sender: str, arrival, channel: str = "sms") -> str:
    return services.message_receive(channel=channel, sender=sender, text="STATUS", arrival=arrival).applied


# --- inbound ------------------------------------------------------------------------------------


def test_it_drops_the_31st_message_of_a_minute_from_one_number_unapplied(game, caplog):
    outcomes = [status(FLOOD, at(second)) for second in range(30)]
    assert outcomes == ["status"] * 30
    before = Transmission.objects.count()
    with caplog.at_level(logging.WARNING, logger="play.ratelimit"):
        assert status(FLOOD, at(59)) == "rate limited"
    # Not applied and not stored: the only row written is the window's one notice (below).
    assert Transmission.objects.count() == before + 1
    assert not Transmission.objects.filter(direction="in", at=at(59)).exists()
    assert f"from {FLOOD} over 30 a minute" in caplog.text
    assert limits.inbound_dropped("sms", T0.date()) == 1


def test_it_tells_the_player_once_a_window_to_wait_instead_of_dropping_his_move_in_silence(game):
    for second in range(30):
        status(FLOOD, at(second))
    first = services.message_receive(channel="sms", sender=FLOOD, text="1. e4", arrival=at(35))
    assert first.applied == "rate limited"
    (notice,) = first.replies
    assert (notice.direction, notice.channel, notice.address, notice.kind) == ("out", "sms", FLOOD, "rate limited")
    assert notice.player == game.white and notice.game is None
    # 35 s into the minute, 30 read: the 31st would be read at 62 s, when the window sliding over
    # the last 60 s holds 29 of them (30 × 58/60) and room for one more: in 27 s.
    assert notice.text == "Too many messages: at most 30 a minute. This one was not read; send it again in 27 s."
    # The rest of the window's messages get nothing; the next window's first over the limit does.
    assert [status(FLOOD, at(s)) for s in (40, 59)] == ["rate limited"] * 2
    assert Transmission.objects.filter(kind="rate limited").count() == 1
    # The next clock minute's first over the limit is told again: at 60 s the 30 still weigh in
    # full (the window slides, so the minute's edge opens nothing), and fade by one every 2 s.
    later = services.message_receive(channel="sms", sender=FLOOD, text="STATUS", arrival=at(60))
    assert [row.text for row in later.replies] == [
        "Too many messages: at most 30 a minute. This one was not read; send it again in 2 s."
    ]
    assert status(FLOOD, at(62)) == "status"


def test_it_tells_a_stranger_over_the_limit_nothing(game, settings):
    settings.PLAY_INBOUND_PER_MINUTE = 1
    stranger = "+79993330000"
    assert [status(stranger, at(s)) for s in range(3)] == ["unknown sender", "rate limited", "rate limited"]
    assert not Transmission.objects.filter(address=stranger).exists()


def test_it_counts_telegram_start_in_the_inbound_limit(game, settings):
    settings.PLAY_INBOUND_PER_MINUTE = 2
    message = {"date": int(at(0).timestamp()), "chat": {"id": CHAT, "type": "private"}, "text": "/start"}
    answers = [
        telegram.update_receive({"update_id": n, "message": {**message, "message_id": n}}, now=at(n)) for n in (1, 2, 3)
    ]
    assert answers == ["start", "start", "rate limited"]
    sent = list(Transmission.objects.filter(direction="out", channel="telegram").values_list("kind", flat=True))
    assert sent == ["link", "link", "rate limited"]  # two answers, then the one notice of the window


def test_it_counts_every_telegram_button_press_once(game, settings):
    settings.PLAY_INBOUND_PER_MINUTE = 3

    def press(n: int, action: str) -> str:
        query = {"id": f"q{n}", "from": {"id": CHAT, "is_bot": False, "first_name": "B"}, "chat_instance": "c",
                 "data": f"{action} #{game.code}"}  # fmt: skip
        return telegram.update_receive({"update_id": n, "callback_query": query}, now=at(n))

    # A press the game service applies (STATUS) is counted once, not by both; the first step of
    # resigning, which reaches no game, is counted too.
    assert [press(1, "status"), press(2, "status"), press(3, "resign"), press(4, "offer")] == [
        "status", "status", "resign asked", "rate limited",
    ]  # fmt: skip


def test_it_serves_another_number_during_a_flood(game):
    for second in range(40):
        status(FLOOD, at(second))
    assert status(QUIET, at(50)) == "status"
    assert limits.inbound_dropped("sms", T0.date()) == 10


def test_it_serves_the_number_again_the_next_minute(game):
    for second in range(31):
        status(FLOOD, at(second))
    assert status(FLOOD, at(59)) == "rate limited"
    # The window slides: at the clock minute's edge the last minute's 30 still weigh in full, and
    # one more may come as each 2 s of them fade (30 × (1 - 2/60) = 29).
    assert status(FLOOD, at(60)) == "rate limited"
    assert status(FLOOD, at(62)) == "status"
    assert status(FLOOD, at(63)) == "rate limited"
    assert status(FLOOD, at(64)) == "status"


def test_it_lets_no_second_burst_through_across_the_minutes_edge(game):
    """A fixed clock minute let 30 through at 10:00:59 and 30 more at 10:01:00 (60 in a second)."""
    assert [status(FLOOD, at(59)) for _ in range(30)] == ["status"] * 30
    assert [status(FLOOD, at(60)) for _ in range(30)] == ["rate limited"] * 30
    assert ratelimit_dropped() == 30


def ratelimit_dropped() -> int:
    return limits.inbound_dropped("sms", T0.date())


def test_it_takes_the_inbound_limit_from_the_setting(game, settings):
    settings.PLAY_INBOUND_PER_MINUTE = 2
    assert [status(FLOOD, at(s)) for s in range(3)] == ["status", "status", "rate limited"]


def test_it_does_not_limit_the_console_channel(game, settings):
    settings.PLAY_INBOUND_PER_MINUTE = 1
    federation_id = str(game.white.federation_id)
    assert [status(federation_id, at(s), channel="console") for s in range(3)] == ["status"] * 3


def test_it_answers_200_on_the_sms_webhook_to_a_message_over_the_limit(client, game, settings):
    from tests.play.channels.test_sms import KEY, post, received

    settings.SMS_WEBHOOK_SIGNING_KEY = KEY
    settings.PLAY_INBOUND_PER_MINUTE = 1
    now = timezone.now()
    # The one message of any 60 s is spent: the request lands within them, whichever clock minute.
    assert limits.inbound_allowed("sms", FLOOD, now)
    response = post(client, received("1. e4", phone=FLOOD))
    assert response.status_code == 200  # the gateway must not retry it forever
    assert response.json() == {"ok": True, "outcome": "rate limited"}
    assert not Transmission.objects.filter(direction="in").exists()


def test_it_drops_a_telegram_update_over_the_limit(game, settings):
    settings.PLAY_INBOUND_PER_MINUTE = 1
    message = {"message_id": 1, "date": int(at(0).timestamp()), "chat": {"id": CHAT, "type": "private"}}
    answers = [
        telegram.update_receive({"update_id": n, "message": {**message, "message_id": n, "text": "STATUS"}}, now=at(n))
        for n in (1, 2)
    ]
    assert answers == ["status", "rate limited"]
    assert Transmission.objects.filter(direction="in", channel="telegram").count() == 1


# --- outbound -----------------------------------------------------------------------------------


def storm(game, n: int = 100, address: str = FLOOD) -> list[int]:
    """What a bug might write: n messages to one number at once."""
    rows = Transmission.objects.bulk_create(
        Transmission(
            game=game, player=game.white, direction="out", channel="sms", party="white", address=address,
            kind="status", text=f"#{game.code} message {i}", at=T0, delivery="pending",
        )
        for i in range(n)
    )  # fmt: skip
    return [row.pk for row in rows]


def test_it_sends_30_a_minute_of_100_messages_a_bug_wrote_to_one_number(game, gateway):
    ids = storm(game)
    assert outbox.outbound_deliver_many(ids, now=T0) == 30
    assert [m["textMessage"]["text"] for m in gateway.sent] == [f"#{game.code} message {i}" for i in range(30)]
    held = Transmission.objects.filter(pk__in=ids, delivery="pending")
    assert held.count() == 70
    assert set(held.values_list("error", "attempts")) == {("rate limited", 0)}  # no attempt spent
    # The outbox sweep in the same minute sends nothing more; in the next, the next 30, in order.
    assert outbox.outbox_sweep(now=at(45)) == 0
    assert outbox.outbox_sweep(now=at(60)) == 30
    assert outbox.outbox_sweep(now=at(120)) == 30
    assert outbox.outbox_sweep(now=at(180)) == 10
    assert [m["textMessage"]["text"] for m in gateway.sent] == [f"#{game.code} message {i}" for i in range(100)]
    assert len(gateway.requests) == 100
    assert not Transmission.objects.filter(pk__in=ids).exclude(delivery="sent").exists()
    assert not ChannelOutage.objects.exists()  # held back is not failing


def test_it_sends_a_new_message_only_after_the_older_ones_held_back(game, gateway):
    storm(game, 40)
    outbox.outbound_deliver_many(list(Transmission.objects.values_list("pk", flat=True)), now=T0)
    (late,) = storm(game, 1)  # a reply written later in the first minute, delivered at once by the task
    assert outbox.outbound_deliver_many([late], now=at(30)) == 0
    assert Transmission.objects.get(pk=late).error == "rate limited"
    # In the next minute its delivery takes the ten held back first, then it.
    assert outbox.outbound_deliver_many([late], now=at(60)) == 1
    texts = [m["textMessage"]["text"] for m in gateway.sent]
    assert texts == [f"#{game.code} message {i}" for i in range(40)] + [f"#{game.code} message 0"]


def test_it_sends_to_another_number_during_a_storm(game, gateway):
    outbox.outbound_deliver_many(storm(game), now=T0)
    quiet = storm(game, 1, address=QUIET)
    assert outbox.outbound_deliver_many(quiet, now=at(1)) == 1
    assert gateway.sent[-1]["phoneNumbers"] == [QUIET]


def test_it_takes_the_outbound_limit_from_the_setting(game, gateway, settings):
    settings.PLAY_OUTBOUND_PER_MINUTE = 5
    assert outbox.outbound_deliver_many(storm(game, 8), now=T0) == 5
