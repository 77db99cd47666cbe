"""Channel outages (rule 5e) over real HTTP: the SMS channel goes through the maintained client to a
fake gateway that fails and then recovers; the players' notices go by Telegram to a fake Bot API,
by e-mail (Django's test outbox) or onto the game page. Every moment is passed as `now`: the
outage opens at the first sweep after a message has waited longer than the game's norm, and
closes at the channel's first successful delivery."""

import datetime
import io

import pytest
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from play import services
from play.channels import limits, outages, outbox
from play.models import ChannelAddress, ChannelOutage, MobileEvent, MobileGame, Transmission
from players.models import PlayerLink
from tests.base import PASSWORD, federation_admin
from tests.play.events.helpers import make_event
from tests.players.factories import PlayerFactory

pytestmark = pytest.mark.django_db

UTC = datetime.UTC
# White's "1. e4" arrives and is answered: two days ago on the hour (the TD's desk shows outages of
# the last 30 days by the real clock).
T0 = (timezone.now() - datetime.timedelta(days=2)).replace(minute=0, second=0, microsecond=0)
PHONES = {"w": "+79990000001", "b": "+79990000002", "c": "+79990000003"}
W_CHAT = 555000111


def at(seconds: int) -> datetime.datetime:
    return T0 + datetime.timedelta(seconds=seconds)


def short(moment: datetime.datetime) -> str:
    """A moment as the texts write it."""
    return moment.strftime("%d.%m %H:%M:%S")


def long(moment: datetime.datetime) -> str:
    """A moment as the TD's pages write it."""
    return moment.strftime("%Y-%m-%d %H:%M:%S")


@pytest.fixture(autouse=True)
def _channels(settings):
    settings.PLAY_CONSOLE_STREAM = io.StringIO()
    settings.PLAY_CHANNEL_BACKENDS = {
        **settings.PLAY_CHANNEL_BACKENDS,
        "sms": "play.channels.sms.SmsGateway",
        "telegram": "play.channels.telegram.TelegramBot",
    }
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"


@pytest.fixture
def td(django_user_model):
    return django_user_model.objects.create_user("director", "td@example.org", PASSWORD)


@pytest.fixture
def world(td, django_user_model):
    """Event "sms" (norm 60) of W, B and C: W has a verified phone and Telegram chat; B a phone and
    an account (confirmed link, with e-mail); C a phone only. The TD pairs game "one", W-B, then
    game "two", W-C; all play by SMS."""
    w, b, c = PlayerFactory(), PlayerFactory(), PlayerFactory()
    for player, key in ((w, "w"), (b, "b"), (c, "c")):
        ChannelAddress.objects.create(player=player, channel="sms", address=PHONES[key], verified_at=T0)
    ChannelAddress.objects.create(player=w, channel="telegram", address=str(W_CHAT), verified_at=T0)
    account = django_user_model.objects.create_user("b-account", "b@example.org", PASSWORD)
    PlayerLink.objects.create(user=account, player=b, relation="self", status="confirmed", decided_by=td, decided_at=T0)
    start = T0 - datetime.timedelta(hours=1)
    event = make_event(td, [w, b, c], code="sms", name="By SMS", start=start, pairing=MobileEvent.Pairing.TD_ADDS)
    one = services.game_create(white=w, black=b, start=start, event=event)
    two = services.game_create(white=w, black=c, start=start, event=event)
    event.games.update(white_channel="sms", black_channel="sms")
    return {"w": w, "b": b, "c": c, "one": one, "two": two, "event": event, "account": account}


def sms_move(player_key: str, game, text: str, arrival) -> list[int]:
    """A move arriving by SMS, and the first try to send its replies (which go out by SMS)."""
    receipt = services.message_receive(
        channel="sms", sender=PHONES[player_key], text=f"#{game.code} {text}", arrival=arrival
    )
    assert receipt.applied == "move", receipt
    ids = [r.pk for r in receipt.replies]
    assert {r.channel for r in receipt.replies} == {"sms"}
    outbox.outbound_deliver_many(ids, now=arrival)
    return ids


def notices(kind: str):
    return Transmission.objects.filter(kind=kind, direction="out").select_related("game").order_by("pk")


def deliver_pending(now) -> None:
    ids = list(Transmission.objects.filter(delivery="pending", channel__in=("telegram", "email")).values_list("pk"))
    outbox.outbound_deliver_many([pk for (pk,) in ids], now=now)


@pytest.fixture
def opened(world, gateway, bot):
    """The gateway fails from T0; game 1's replies wait from T0, game 2's from T0 + 30 s."""
    gateway.fail_next = 10_000
    sms_move("w", world["one"], "1. e4", T0)
    sms_move("w", world["two"], "1. d4", at(30))
    assert outbox.outbox_sweep(now=at(60)) == 0
    assert not ChannelOutage.objects.exists()  # waited exactly N = 60 s: not longer
    outbox.outbox_sweep(now=at(61))
    return ChannelOutage.objects.get()


def test_it_opens_an_outage_once_a_message_waited_longer_than_the_norm(world, opened):
    outage = opened
    assert (outage.channel, outage.started_at, outage.detected_at, outage.ended_at) == ("sms", T0, at(61), None)
    assert "503" in outage.last_error
    assert list(outage.games.all()) == [world["one"]]  # game 2's replies have waited 31 s only


def test_it_tells_the_td_and_each_player_by_another_channel(world, opened, bot):
    w, b = world["w"], world["b"]
    told = [(n.game.code, n.party, n.channel, n.address) for n in notices("outage")]
    assert told == [
        (world["one"].code, "td", "web", "td"),
        (world["one"].code, "white", "telegram", str(W_CHAT)),  # W: his other verified channel
        (world["one"].code, "black", "email", "b@example.org"),  # B: no other channel; his account's mail
    ]
    td_row = notices("outage").first()
    assert td_row.delivery == "sent"
    assert td_row.text == (
        f"#{world['one'].code} SMS messages have not gone out since {short(T0)}, longer than the "
        "transmission norm: this game waits on them. You may credit time."
    )
    deliver_pending(at(62))
    assert [m["chat_id"] for m in bot.sent] == [str(W_CHAT)]
    assert f"SMS messages have not gone out since {short(T0)}" in bot.sent[0]["text"]
    assert "The TD is told and may credit time." in bot.sent[0]["text"]
    assert [m.to for m in mail.outbox] == [["b@example.org"]]
    assert mail.outbox[0].body.startswith(f"#{world['one'].code} SMS messages have not gone out")
    assert not ChannelAddress.objects.filter(player__in=[w, b], channel="email").exists()


def test_it_takes_in_a_game_once_its_own_message_waited_longer_than_the_norm_telling_each_player_once(world, opened):
    outbox.outbox_sweep(now=at(91))  # game 2's replies have now waited 61 s
    outage = ChannelOutage.objects.get()
    assert set(outage.games.all()) == {world["one"], world["two"]}
    told = [(n.game.code, n.party, n.channel) for n in notices("outage")][3:]
    # The TD on game 2; C, who has no other channel nor account, on the game page; W not again.
    assert told == [(world["two"].code, "td", "web"), (world["two"].code, "black", "web")]
    c_row = notices("outage").last()
    assert (c_row.address, c_row.delivery, c_row.player) == (str(world["c"].federation_id), "sent", world["c"])
    # Later passes, more failing messages: no new notices.
    sms_move("b", world["one"], "1. e4 e5", at(100))
    outbox.outbox_sweep(now=at(300))
    assert notices("outage").count() == 5
    assert sorted(ChannelOutage.objects.get().notified) == sorted([world["w"].pk, world["b"].pk, world["c"].pk])


def test_it_closes_at_the_first_successful_delivery_and_tells_the_same_people(world, opened, gateway, bot):
    outbox.outbox_sweep(now=at(91))
    deliver_pending(at(92))
    gateway.fail_next = 0
    outbox.outbox_sweep(now=at(1200))  # the gateway takes the oldest pending SMS: the channel is back
    outage = ChannelOutage.objects.get()
    assert (outage.ended_at, outage.seconds) == (at(1200), 1200)
    assert not Transmission.objects.filter(channel="sms", delivery="pending").exists()
    told = [(n.game.code, n.party, n.channel) for n in notices("outage over")]
    one, two = world["one"].code, world["two"].code
    first, second = sorted([world["one"], world["two"]], key=lambda g: g.pk)  # the TD's rows: game order
    w_first = first.code  # W plays both: told on his first game, with both named
    assert told == [
        (first.code, "td", "web"),
        (second.code, "td", "web"),
        (w_first, "white", "telegram"),
        (one, "black", "email"),
        (two, "black", "web"),
    ]
    expected = f"SMS delivers again since {short(at(1200))}: it failed for 0:20:00 (from {short(T0)})."
    assert notices("outage over").first().text == f"#{first.code} {expected}"
    w_row = notices("outage over").get(channel="telegram")
    assert w_row.data["games"] == [first.code, second.code]
    assert w_row.text.endswith(f"Games: #{first.code}, #{second.code}.")
    deliver_pending(at(1201))
    assert [m["text"] for m in bot.sent][-1] == w_row.text
    assert len(mail.outbox) == 2 and mail.outbox[1].body == notices("outage over").get(channel="email").text
    # Working again, the next pass opens nothing.
    outbox.outbox_sweep(now=at(1300))
    assert ChannelOutage.objects.count() == 1


def test_it_opens_none_for_a_failure_before_a_later_success(world, gateway, bot):
    # W's phone refuses (a permanent failure), then C's SMS goes out: SMS works.
    gateway.fail_status, gateway.fail_next = 400, 2
    sms_move("w", world["one"], "1. e4", T0)
    assert Transmission.objects.filter(channel="sms", delivery="failed").count() == 2
    sms_move("w", world["two"], "1. d4", at(5))
    outbox.outbox_sweep(now=at(600))
    assert not ChannelOutage.objects.exists()


def test_it_opens_one_for_a_failed_message_without_a_later_success(world, gateway, bot):
    gateway.fail_status, gateway.fail_next = 401, 10_000  # wrong credentials: every SMS refused at once
    sms_move("w", world["one"], "1. e4", T0)
    outbox.outbox_sweep(now=at(61))
    outage = ChannelOutage.objects.get()
    assert outage.started_at == T0 and "401" in outage.last_error


def test_it_waits_for_each_games_own_norm(world, gateway, bot):
    MobileGame.objects.filter(pk=world["one"].pk).update(norm=120)
    gateway.fail_next = 10_000
    sms_move("w", world["one"], "1. e4", T0)
    outbox.outbox_sweep(now=at(61))
    outbox.outbox_sweep(now=at(120))
    assert not ChannelOutage.objects.exists()
    outbox.outbox_sweep(now=at(121))
    assert ChannelOutage.objects.get().detected_at == at(121)


def test_it_counts_messages_held_by_the_rate_limit_as_no_outage(world, gateway, settings):
    settings.PLAY_OUTBOUND_PER_MINUTE = 1
    # This minute's one message to W is spent.
    assert limits.outbound_allowed(Transmission(channel="sms", address=PHONES["w"], pk=0), T0)
    for text in ("STATUS", "HELP"):
        services.message_receive(channel="sms", sender=PHONES["w"], text=f"#{world['one'].code} {text}", arrival=T0)
    ids = list(Transmission.objects.filter(channel="sms", direction="out").values_list("pk", flat=True))
    assert len(ids) >= 2  # a reply each (HELP goes as numbered parts on SMS)
    assert outbox.outbound_deliver_many(ids, now=T0) == 0
    assert outages.failing_rows("sms", at(100)) == []
    outages.outages_sweep(now=at(100))
    assert not ChannelOutage.objects.exists()
    assert len(gateway.requests) == 0


def test_it_refuses_a_second_open_outage_of_a_channel(world):
    from django.db import IntegrityError, transaction

    ChannelOutage.objects.create(channel="sms", started_at=T0, detected_at=at(61))
    with pytest.raises(IntegrityError), transaction.atomic():
        ChannelOutage.objects.create(channel="sms", started_at=T0, detected_at=at(62))


# --- what the TD sees -----------------------------------------------------------------------------


@pytest.fixture
def closed(world, opened, gateway):
    outbox.outbox_sweep(now=at(91))
    gateway.fail_next = 0
    outbox.outbox_sweep(now=at(1200))
    return ChannelOutage.objects.get()


def test_it_shows_the_td_start_end_duration_and_games(client, td, world, closed):
    client.force_login(td)
    html = client.get(reverse("play:desk_list")).content.decode()
    row = html[html.index(f'id="outage-{closed.pk}"') :]
    row = row[: row.index("</tr>")]
    assert long(T0) in row and long(at(1200)) in row
    assert '<td class="num">0:20:00' in row
    assert f"#{world['one'].code}" in row and f"#{world['two'].code}" in row


def test_it_shows_the_outage_on_the_desk_of_the_affected_event_only(client, td, world, closed):
    client.force_login(td)
    html = client.get(reverse("play:desk", args=[world["event"].pk])).content.decode()
    row = html[html.index(f'id="outage-{closed.pk}"') :]
    row = row[: row.index("</tr>")]
    assert long(T0) in row and long(at(1200)) in row and '<td class="num">0:20:00' in row
    other = make_event(td, 2, code="other", name="Other")
    html = client.get(reverse("play:desk", args=[other.pk])).content.decode()
    assert 'id="outages-section"' not in html


def test_it_shows_the_td_an_open_outage_as_still_failing(client, td, world, opened):
    client.force_login(td)
    html = client.get(reverse("play:desk_list")).content.decode()
    row = html[html.index(f'id="outage-{opened.pk}"') :]
    assert "still failing" in row[: row.index("</tr>")]


def test_it_hides_it_from_another_td_and_shows_staff_all(client, world, closed, django_user_model):
    other = django_user_model.objects.create_user("other_td", "o@example.org", PASSWORD)
    make_event(other, 2, code="other", name="Other")
    client.force_login(other)
    html = client.get(reverse("play:desk_list")).content.decode()
    assert f'id="outage-{closed.pk}"' not in html and 'id="no-outages"' in html
    client.force_login(federation_admin())
    assert f'id="outage-{closed.pk}"' in client.get(reverse("play:desk_list")).content.decode()


def test_it_reads_the_td_list_in_as_many_queries_for_many_outages(client, td, world, closed):
    client.force_login(td)
    url = reverse("play:desk_list")
    client.get(url)
    with CaptureQueriesContext(connection) as one:
        assert client.get(url).status_code == 200
    more = make_event(td, 4, code="more", name="More", start=T0)
    for n in range(3):
        outage = ChannelOutage.objects.create(
            channel="telegram",
            started_at=at(2000 + n * 100),
            detected_at=at(2061 + n * 100),
            ended_at=at(2090 + n * 100),
        )
        outage.games.add(*more.games.all())
    with CaptureQueriesContext(connection) as four:
        html = client.get(url).content.decode()
    assert html.count('id="outage-') == 4
    assert len(four.captured_queries) == len(one.captured_queries)


def test_it_shows_the_td_the_games_outages_and_the_players_the_open_one(client, td, world, opened):
    url = world["one"].get_absolute_url()
    client.force_login(td)
    html = client.get(url).content.decode()
    assert 'id="game-outages"' in html and long(T0) in html
    assert f'id="outage-open-{opened.pk}"' in html
    client.force_login(world["account"])  # B's account: the banner, not the table
    html = client.get(url).content.decode()
    assert f'id="outage-open-{opened.pk}"' in html and 'id="game-outages"' not in html
    assert world["two"].get_absolute_url() != url
    assert f'id="outage-open-{opened.pk}"' not in client.get(world["two"].get_absolute_url()).content.decode()
