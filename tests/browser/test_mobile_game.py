"""Two players on phones (390×844, two browser contexts) play a whole game on the site, to mate:
moves typed in several notations (long algebraic, ICCF numeric, Russian piece letters, SAN with
the repetition written out), one tapped on the board, one illegal move referred back; the clocks
run on the page, each page follows the other's moves without a reload, and both end on 1-0,
checkmate. Every page keeps to the Content-Security-Policy and throws no JavaScript error."""

import datetime
import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.utils import timezone

from accounts.roles import PLAYERS, ensure_roles
from play import services
from players import services as player_services
from tests.browser.conftest import is_policy_violation
from tests.players.factories import PlayerFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
PASSWORD = "a-long-enough-password"
CLOCK = re.compile(r"^-?\d+:\d\d:\d\d$")


@pytest.fixture
def game(settings):
    import io

    settings.PLAY_CONSOLE_STREAM = io.StringIO()
    ensure_roles(Group, Permission)
    users = get_user_model().objects
    admin = users.create_superuser("root", "root@example.org", PASSWORD)
    white = PlayerFactory(family_name="Белов", given_names="Иван")
    black = PlayerFactory(family_name="Чернова", given_names="Анна")
    for name, player in (("ivan", white), ("anna", black)):
        user = users.create_user(name, f"{name}@example.org", PASSWORD)
        user.groups.add(Group.objects.get(name=PLAYERS))
        link = player_services.link_request(user=user, relation="self", player=player)
        player_services.link_decide(link=link, admin=admin, confirm=True)
    return services.game_create(white=white, black=black, start=timezone.now() - datetime.timedelta(minutes=5))


def phone(browser, live_server, username, game):
    context = browser.new_context(locale="en-GB", viewport=PHONE, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(20_000)
    problems = []
    page.on("console", lambda message: problems.append(message.text) if is_policy_violation(message.text) else None)
    page.on("pageerror", lambda error: problems.append(f"JavaScript error: {error}"))
    page.console_problems = problems
    page.goto(f"{live_server.url}/accounts/login/?next={game.get_absolute_url()}")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_url(f"**{game.get_absolute_url()}")
    return context, page


def send(page, text):
    page.fill("#move-text", text)
    with page.expect_navigation():
        page.click("#move-send")
    page.wait_for_selector("#replies")


def last_reply(page) -> str:
    return page.locator("#replies").inner_text()


def tap(page, square):
    """A finger on the middle of a square (the piece drawn over it takes the touch, as on a phone)."""
    rect = page.locator(f"#board-panel rect.{square}")
    rect.scroll_into_view_if_needed()
    box = rect.bounding_box()
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def wait_for_move(page, plies):
    """The opponent's move reaches the page by its own polling, without a reload."""
    page.wait_for_selector(f"#board-panel[data-ply='{plies}'][data-latest]")


def test_it_lets_two_phones_play_a_game_to_mate(browser, live_server, game):
    white_context, white = phone(browser, live_server, "ivan", game)
    black_context, black = phone(browser, live_server, "anna", game)
    try:
        # The boards: White's from White's side, Black's from Black's (a1 top right).
        assert white.locator("rect.a1").bounding_box()["y"] > white.locator("rect.a8").bounding_box()["y"]
        assert black.locator("rect.a1").bounding_box()["y"] < black.locator("rect.a8").bounding_box()["y"]
        for page in (white, black):
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
            for color in ("white", "black"):
                face = page.locator(f"#clock-{color} .clock-left")
                assert face.is_visible() and CLOCK.match(face.inner_text()), face.inner_text()
        # The move box for White, on move; Black waits, with the commands he may send meanwhile.
        assert white.locator("#move-text").is_visible() and black.locator("#move-text").count() == 0
        assert black.locator("#waiting").is_visible() and black.locator("#command-text").is_visible()
        # White's clock runs on both pages: time used grows by the second.
        used = white.locator("#clock-white .clock-used-value")
        before = used.inner_text()
        white.wait_for_function(
            "before => document.querySelector('#clock-white .clock-used-value').textContent !== before", arg=before
        )
        assert black.locator("#clock-white[data-running]").count() == 1

        send(white, "e2-e4")  # long algebraic; White's first move repeats nothing
        assert "Received 1. e4" in last_reply(white)
        wait_for_move(black, 1)
        assert "Last move: 1. e4" in black.locator("#game-state").inner_text()
        black.wait_for_selector("#move-text")  # the poll brought Black his move box, without a reload
        assert black.locator("#waiting").count() == 0

        send(black, "5755")  # ICCF numeric e7-e5; the page writes "1. e4" in front of it
        assert "Received 1... e5" in last_reply(black)
        wait_for_move(white, 2)

        send(white, "Ke3")  # illegal: referred back, nothing played, the clock keeps running
        alert = white.locator("#replies")
        assert "Referred back: illegal move." in alert.inner_text()
        assert "is not a legal move in this position" in alert.inner_text()
        assert white.locator("#replies.alert-warn").count() == 1
        assert white.locator("#board-panel").get_attribute("data-ply") == "2"

        send(white, "Сc4")  # a Russian bishop (С)
        assert "Received 2. Bc4" in last_reply(white)
        wait_for_move(black, 3)

        send(black, "2. Bc4 Nc6")  # SAN with the repetition written out by the player
        assert "Received 2... Nc6" in last_reply(black)
        wait_for_move(white, 4)

        send(white, "Фh5")  # a Russian queen (Ф)
        assert "Received 3. Qh5" in last_reply(white)
        wait_for_move(black, 5)

        # Black taps his knight, then f6: the page fills the move box, he sends it.
        tap(black, "g8")
        tap(black, "f6")
        assert black.input_value("#move-text") == "g8-f6"
        with black.expect_navigation():
            black.click("#move-send")
        black.wait_for_selector("#replies")
        assert "Received 3... Nf6" in last_reply(black)
        wait_for_move(white, 6)

        send(white, "Qxf7#")
        for page in (white, black):
            page.wait_for_selector("#result")
            assert page.locator("#result").inner_text() == "1-0"
            assert page.locator("#termination").inner_text() == "checkmate"
            assert page.locator("#move-text").count() == 0  # the game is over: no move box
            assert page.locator("#game-live[hx-trigger]").count() == 0  # and no more polling
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        record = white.locator("#record").inner_text()
        for san in ("e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"):
            assert san in record
        # The record keeps exactly what each page sent.
        texts = list(game.transmissions.filter(direction="in").order_by("pk").values_list("text", flat=True))
        assert texts == ["e2-e4", "1. e4 5755", "1... e5 2. Ke3", "1... e5 2. Сc4", "2. Bc4 Nc6",
                         "2... Nc6 3. Фh5", "3. Qh5 g8-f6", "3... Nf6 4. Qxf7#"]  # fmt: skip
        # Replay: back to the start and forward again, one ply at a time.
        black.click("#board-panel .replay-first")
        black.wait_for_selector("#board-panel[data-ply='0']")
        black.click("#board-panel .replay-next")
        black.wait_for_selector("#board-panel[data-ply='1']")
        assert "Position after e4" in black.locator("#board-panel").inner_text()
        black.click("#board-panel .replay-last")
        black.wait_for_selector("#board-panel[data-ply='7'][data-latest]")
        assert "ply=" not in black.url  # fetched by htmx, not by loading the page again
        black.click("#record a.move-link >> text=Nc6")  # a move of the record shows its position
        black.wait_for_selector("#board-panel[data-ply='4']")
        problems = white.console_problems + black.console_problems
        assert not problems, problems
    finally:
        white_context.close()
        black_context.close()
