"""The TD in a browser after an SMS outage (rule 5e): the fake gateway fails, the outbox sweep opens
the outage past the norm, the gateway recovers and the first delivery closes it. The desk
shows its start, end, duration and game; the game's page shows the open outage's notice, then the
closed outage with its duration. Every page keeps to the Content-Security-Policy."""

import datetime
import io

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from play import services
from play.channels import outbox
from play.models import ChannelAddress, ChannelOutage, MobileEvent
from tests.fakes.sms_gateway import FakeGateway
from tests.players.factories import PlayerFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-enough-password"
T0 = (timezone.now() - datetime.timedelta(days=1)).replace(minute=0, second=0, microsecond=0)


@pytest.fixture
def outage(settings):
    settings.PLAY_CONSOLE_STREAM = io.StringIO()
    gateway = FakeGateway().start()
    settings.PLAY_CHANNEL_BACKENDS = {**settings.PLAY_CHANNEL_BACKENDS, "sms": "play.channels.sms.SmsGateway"}
    settings.SMS_GATEWAY_URL = gateway.url
    settings.SMS_GATEWAY_USER, settings.SMS_GATEWAY_PASSWORD = gateway.user, gateway.password
    td = get_user_model().objects.create_user("director", "td@example.org", PASSWORD)
    white, black = PlayerFactory(), PlayerFactory()
    for player, phone in ((white, "+79990000001"), (black, "+79990000002")):
        ChannelAddress.objects.create(player=player, channel="sms", address=phone, verified_at=T0)
    event = services.event_create(
        created_by=td, code="sms", name="By SMS", td=td, start=T0 - datetime.timedelta(hours=1),
        pairing=MobileEvent.Pairing.TD_ADDS, players=[white, black],
    )  # fmt: skip
    game = services.game_create(white=white, black=black, start=event.start, event=event)
    game.__class__.objects.filter(pk=game.pk).update(white_channel="sms", black_channel="sms")
    gateway.fail_next = 10_000
    receipt = services.message_receive(channel="sms", sender="+79990000001", text="1. e4", arrival=T0)
    outbox.outbound_deliver_many([r.pk for r in receipt.replies], now=T0)
    outbox.outbox_sweep(now=T0 + datetime.timedelta(seconds=61))
    yield {"td": td, "game": game, "gateway": gateway, "outage": ChannelOutage.objects.get()}
    gateway.stop()


def login(page, live_server, username, next_url):
    page.goto(f"{live_server.url}/accounts/login/?next={next_url}")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_url(f"**{next_url}")


def test_it_shows_the_td_the_outage_open_then_closed(page, live_server, outage):
    game, record = outage["game"], outage["outage"]
    login(page, live_server, "director", "/play/desk/")
    row = page.locator(f"#outage-{record.pk}")
    assert "still failing" in row.inner_text()
    assert f"#{game.code}" in row.inner_text()
    page.goto(f"{live_server.url}{game.get_absolute_url()}")
    assert "SMS messages of this game have not gone out since" in page.locator(f"#outage-open-{record.pk}").inner_text()

    outage["gateway"].fail_next = 0
    outbox.outbox_sweep(now=T0 + datetime.timedelta(minutes=45))
    page.goto(f"{live_server.url}/play/desk/")
    cells = [c.strip() for c in page.locator(f"#outage-{record.pk} td").all_inner_texts()]
    assert cells[0] == "SMS"
    assert cells[1].startswith(T0.strftime("%Y-%m-%d %H:%M:%S"))
    assert cells[2].startswith((T0 + datetime.timedelta(minutes=45)).strftime("%Y-%m-%d %H:%M:%S"))
    assert cells[3] == "0:45:00"

    page.click(f"#outage-{record.pk} a[href='{game.get_absolute_url()}']")
    page.wait_for_url(f"**{game.get_absolute_url()}")
    assert "0:45:00" in page.locator(f"#game-outage-{record.pk}").inner_text()
    assert page.locator(f"#outage-open-{record.pk}").count() == 0  # closed: no notice any more
