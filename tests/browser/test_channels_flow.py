"""A player registers his SMS number on a phone (390×844): "My phones and chats" from the menu of
"My games", the number typed with spaces, the code read from the outbound SMS row (the console SMS
channel), a wrong code refused, the right one typed, the number shown verified; a Telegram code with
the bot's link; the number removed after a second confirmation. The page keeps to
the Content-Security-Policy, throws no JavaScript error and never scrolls sideways."""

import io
import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission

from accounts.roles import PLAYERS, ensure_roles
from play.models import ChannelAddress, Transmission
from players import services as player_services
from tests.browser.conftest import is_policy_violation
from tests.players.factories import PlayerFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
PASSWORD = "a-long-enough-password"


@pytest.fixture
def player(settings):
    settings.PLAY_CONSOLE_STREAM = io.StringIO()
    settings.TELEGRAM_BOT_USERNAME = "FedChessBot"
    ensure_roles(Group, Permission)
    users = get_user_model().objects
    admin = users.create_superuser("root", "root@example.org", PASSWORD)
    ivan = PlayerFactory(family_name="Белов", given_names="Иван")
    user = users.create_user("ivan", "ivan@example.org", PASSWORD)
    user.groups.add(Group.objects.get(name=PLAYERS))
    link = player_services.link_request(user=user, relation="self", player=ivan)
    player_services.link_decide(link=link, admin=admin, confirm=True)
    return ivan


def test_it_registers_a_number_with_the_code_sent_by_sms(browser, live_server, player):
    context = browser.new_context(locale="en-GB", viewport=PHONE, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(20_000)
    problems = []
    page.on("console", lambda message: problems.append(message.text) if is_policy_violation(message.text) else None)
    page.on("pageerror", lambda error: problems.append(f"JavaScript error: {error}"))
    try:
        page.goto(f"{live_server.url}/accounts/login/?next=/play/mine/")
        page.fill("#id_username", "ivan")
        page.fill("#id_password", PASSWORD)
        page.click("main form button[type=submit]")
        page.wait_for_url("**/play/mine/")
        with page.expect_navigation():
            page.click("#channels-link")
        assert page.locator("h1").inner_text() == "My phones and chats"
        card = page.locator(f"#player-{player.pk}")
        assert "No number registered." in card.inner_text()
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

        page.fill(f"#id_number_{player.pk}", "+7 912 345-67-89")
        with page.expect_navigation():
            page.click(f"#sms-{player.pk} .number-form button")
        assert "A code was sent by SMS to +79123456789" in page.locator(".messages").inner_text()
        row = Transmission.objects.get(direction="out", channel="sms", kind="verification")
        assert row.address == "+79123456789"
        code = re.search(r"\b(\d{6})\b", row.text).group(1)

        wrong = "000000" if code != "000000" else "111111"
        page.fill(f"#id_code_{player.pk}", wrong)
        with page.expect_navigation():
            page.click(f"#sms-{player.pk} .code-form button")
        assert "Wrong code: 4 more tries with this code." in page.locator(f"#sms-{player.pk}").inner_text()
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

        page.fill(f"#id_code_{player.pk}", code)
        with page.expect_navigation():
            page.click(f"#sms-{player.pk} .code-form button")
        assert "+79123456789 is now the verified SMS number" in page.locator(".messages").inner_text()
        state = page.locator(f"#sms-{player.pk} .channel-state.verified")
        assert "Verified number: +79123456789" in state.inner_text()
        assert ChannelAddress.objects.get(player=player, channel="sms").verified_at is not None

        # Telegram: a code and the bot's deep link.
        with page.expect_navigation():
            page.click(f"#telegram-{player.pk} .channel-form button")
        telegram_code = page.locator(f"#telegram-{player.pk} .one-time-code").inner_text()
        assert re.fullmatch(r"[A-Z2-9]{8}", telegram_code)
        link = page.locator(f"#telegram-{player.pk} a.button").get_attribute("href")
        assert link == f"https://t.me/FedChessBot?start={telegram_code}"
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

        # Removing the number asks once more (a folded confirmation, no script).
        remove = page.locator(f"#sms-{player.pk} details.channel-remove")
        assert not remove.locator("button").is_visible()
        remove.locator("summary").click()
        with page.expect_navigation():
            remove.locator("button").click()
        assert "No number registered." in page.locator(f"#sms-{player.pk}").inner_text()
        assert not ChannelAddress.objects.filter(player=player, channel="sms").exists()
    finally:
        context.close()
    assert not problems, problems
