"""A player on a phone (390×844) plays the weakest computer level: he chooses it on "Play the
computer", plays a move, sees the computer's answer arrive on the game page, resigns, and finds
both ratings moved in the Mchess list with computers shown (the computer from its start of 1000,
he from the 125 an earlier rated game against a person gave him) and the computer hidden without
that filter. No page breaks the Content-Security-Policy."""

import datetime
import io

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission

from accounts.roles import PLAYERS, ensure_roles
from play import services as play_services
from play.computer import services as computer
from play.models import MobileGame
from players import services as player_services
from tests.players.factories import PlayerFactory

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.needs("stockfish"),
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
    # An earlier rated game through the real pipeline (messages, the game's end, the re-rating on
    # commit), so that his loss to the computer moves his rating too: he beats another newcomer
    # after a move of each (a game without one is not rated): 0 against 0, LRP 1/2, W 250: he 125,
    # she stays at the floor 0.
    rival = PlayerFactory(family_name="Петрова", given_names="Анна")
    start = datetime.datetime.now(datetime.UTC) - datetime.timedelta(hours=2)
    earlier = play_services.game_create(white=person, black=rival, start=start)
    for minutes, (who, text) in enumerate(
        [(person, "1. d4"), (rival, "1. d4 d5"), (person, "1... d5 2. c4"), (rival, "RESIGN")], start=1
    ):
        play_services.message_receive(
            channel="console",
            sender=str(who.federation_id),
            text=text,
            arrival=start + datetime.timedelta(minutes=5 * minutes),
            game_code=earlier.code,
        )
    earlier.refresh_from_db()
    assert (earlier.result, earlier.rated) == ("1-0", True)
    return person


def list_rating(page, name: str) -> str:
    """The rating cell of the player's row in the Mchess list on the page."""
    cell = page.locator("#rating-list tbody tr", has_text=name).locator("td.col-rating").inner_text()
    return cell.removesuffix("*")  # the provisional mark, if any


def test_it_lets_a_phone_play_the_weakest_level_to_the_end_and_see_both_ratings(browser, live_server, player):
    context = browser.new_context(locale="en-GB", viewport=PHONE, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(30_000)
    problems = []
    page.on("console", lambda m: problems.append(m.text) if "Content Security Policy" in m.text else None)
    page.on("pageerror", lambda error: problems.append(f"JavaScript error: {error}"))
    try:
        page.goto(f"{live_server.url}/ratings/mchess/?computers=on")
        assert list_rating(page, "Белов") == "125"
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
        game = MobileGame.objects.get(status=MobileGame.Status.OPEN)
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

        # Spec, Mchess: 1000 against 125, the lower-rated loses, W 250:
        # LRP = 1 / (2 + 875^2 / 10^6) = 0.3616, change = round(250 x 0.3616) = 90: the computer 1090, he 35.
        page.goto(f"{live_server.url}/ratings/mchess/?computers=on")
        assert list_rating(page, "Computer") == "1090"
        assert list_rating(page, "Белов") == "35"
        page.goto(f"{live_server.url}/ratings/mchess/")
        table = page.locator("main table").inner_text()
        assert "Белов" in table and "Computer" not in table
        page.goto(f"{live_server.url}/play/computers/")
        row = page.locator("#computers tr", has_text="1. Beginner").inner_text()
        assert "1090" in row and "1.0 / 1 (100.0 %)" in row
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        assert not problems, problems
    finally:
        context.close()
