"""A player on a phone (390×844) plays the weakest computer level: he chooses it on "Play the
computer", plays a move, sees the computer's answer arrive on the game page, resigns, and finds
both in the Mchess list with computers shown (the computer moved from its start of 1000) and the
computer hidden without that filter. No page breaks the Content-Security-Policy."""

import io
import os

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission

from play.computer import services as computer
from play.computer.engine import DEFAULT_PATH
from play.models import MobileGame
from players import services as player_services
from tests.players.factories import PlayerFactory
from tournaments.roles import PLAYERS, ensure_roles

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not os.access(DEFAULT_PATH, os.X_OK), reason=f"no Stockfish at {DEFAULT_PATH}"),
]

PHONE = {"width": 390, "height": 844}
PASSWORD = "a-long-enough-password"


@pytest.fixture
def player(settings):
    settings.PLAY_CONSOLE_STREAM = io.StringIO()
    computer.levels_ensure()  # the migration's levels are gone once a transactional test flushed them
    ensure_roles(Group, Permission)
    users = get_user_model().objects
    admin = users.create_superuser("root", "root@example.org", PASSWORD)
    person = PlayerFactory(family_name="Белов", given_names="Иван")
    user = users.create_user("ivan", "ivan@example.org", PASSWORD)
    user.groups.add(Group.objects.get(name=PLAYERS))
    link = player_services.link_request(user=user, relation="self", player=person)
    player_services.link_decide(link=link, admin=admin, confirm=True)
    return person


def test_a_phone_plays_the_weakest_level_to_the_end_and_sees_the_ratings(browser, live_server, player):
    context = browser.new_context(locale="en-GB", viewport=PHONE, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(30_000)
    problems = []
    page.on("console", lambda m: problems.append(m.text) if "Content Security Policy" in m.text else None)
    page.on("pageerror", lambda error: problems.append(f"JavaScript error: {error}"))
    try:
        page.goto(f"{live_server.url}/accounts/login/?next=/play/computer/")
        page.fill("#id_username", "ivan")
        page.fill("#id_password", PASSWORD)
        page.click("main form button[type=submit]")
        page.wait_for_url("**/play/computer/")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        beginner = page.locator(".level-list li", has_text="1. Beginner")
        assert "Mchess 1000" in beginner.inner_text()
        beginner.locator("input").check()
        page.locator("input[name=side][value=white]").check()
        with page.expect_navigation():
            page.click("form.computer-game button[type=submit]")
        game = MobileGame.objects.get()
        page.wait_for_url(f"**{game.get_absolute_url()}")

        page.fill("#move-text", "e4")
        with page.expect_navigation():
            page.click("#move-send")
        # The computer answers through the message service (at once: no broker in tests).
        page.wait_for_selector("#board-panel[data-ply='2'][data-latest]")
        page.fill("#move-text", "RESIGN")
        with page.expect_navigation():
            page.click("#move-send")
        page.wait_for_selector("#result")
        assert page.locator("#result").inner_text() == "0-1"

        # Spec, Mchess: 1000 against 0, the lower-rated loses, W 250: the computer 1083, he 0.
        page.goto(f"{live_server.url}/ratings/mchess/?computers=on")
        table = page.locator("main table").inner_text()
        assert "Computer" in table and "1083" in table and "Белов" in table
        page.goto(f"{live_server.url}/ratings/mchess/")
        table = page.locator("main table").inner_text()
        assert "Белов" in table and "Computer" not in table
        page.goto(f"{live_server.url}/play/computers/")
        row = page.locator("#computers tr", has_text="1. Beginner").inner_text()
        assert "1083" in row and "1.0 / 1 (100.0 %)" in row
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        assert not problems, problems
    finally:
        context.close()
