"""The phone simulator in a real browser (DEBUG on, as in development): a staff member starts a
practice game and plays its first moves by typing on both phones; each phone shows its player's
messages, the other phone follows without a reload (htmx polling), the phones sit side by side on
a wide screen and one above the other on a narrow one, and nothing breaks the Content-Security-Policy."""

import io

import pytest
from django.contrib.auth import get_user_model

from play.models import MobileGame
from tests.play.channels.simulator_urls import debug_on
from tests.players.factories import PlayerFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-enough-password"


@pytest.fixture
def debug_urls(settings):
    yield from debug_on(settings)


@pytest.fixture
def players(settings, debug_urls):
    settings.PLAY_CONSOLE_STREAM = io.StringIO()
    get_user_model().objects.create_superuser("root", "root@example.org", PASSWORD)
    return PlayerFactory(family_name="Белов"), PlayerFactory(family_name="Чернова")


def log_in(page, live_server):
    page.goto(f"{live_server.url}/accounts/login/?next=/play/simulator/")
    page.fill("#id_username", "root")
    page.fill("#id_password", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_url("**/play/simulator/")


def type_on(page, color, text):
    page.fill(f"#{color}-text", text)
    page.press(f"#{color}-text", "Enter")


def messages(page, color):
    return page.locator(f"#phone-{color}-messages")


def test_it_plays_moves_typed_on_two_phones(page, live_server, players):
    white, black = players
    log_in(page, live_server)
    page.fill("#id_white", str(white.federation_id))
    page.fill("#id_black", str(black.federation_id))
    page.click("#sim-new-game")
    page.wait_for_selector("#phone-white")
    game = MobileGame.objects.get()
    assert f"#{game.code}" in page.locator("#sim-title").inner_text()
    assert "Белов" in page.locator("#phone-white").inner_text()
    # Wide: the phones side by side.
    left, right = page.locator("#phone-white").bounding_box(), page.locator("#phone-black").bounding_box()
    assert right["x"] > left["x"] + left["width"] - 1 and abs(right["y"] - left["y"]) < 2

    type_on(page, "white", "1. e4")
    messages(page, "white").get_by_text(f"#{game.code} Received 1. e4.").wait_for()
    assert page.input_value("#white-text") == ""  # the box is cleared for the next message
    # Black's phone hears of it by its own polling.
    messages(page, "black").get_by_text(f"#{game.code} Your opponent played 1. e4.").wait_for()
    type_on(page, "black", "1. e4 Кf6")  # Russian knight letter
    messages(page, "white").get_by_text(f"#{game.code} Your opponent played 1... Nf6.").wait_for()
    type_on(page, "white", "1... Кf6 2. Кc3")
    messages(page, "black").get_by_text("Your opponent played 2. Nc3.").wait_for()
    game.refresh_from_db()
    assert (game.plies, game.white_channel, game.black_channel) == (3, "console", "console")
    # Each phone: what its player sent (on the right) and what he received, in order.
    sent = messages(page, "white").locator(".sim-in .sim-text").all_inner_texts()
    assert sent == ["1. e4", "1... Кf6 2. Кc3"]
    assert "1. e4 Кf6" not in messages(page, "white").inner_text()

    # Narrow (a phone's width): one above the other.
    page.set_viewport_size({"width": 390, "height": 844})
    top, below = page.locator("#phone-white").bounding_box(), page.locator("#phone-black").bounding_box()
    assert below["y"] >= top["y"] + top["height"] and abs(below["x"] - top["x"]) < 2


def test_it_opens_a_game_chosen_in_the_list(page, live_server, players):
    from django.utils import timezone

    from play import services

    game = services.game_create(white=players[0], black=players[1], start=timezone.now())
    log_in(page, live_server)
    page.select_option("#sim-game", game.code)  # choosing submits the form (static/js/simulator.js)
    page.wait_for_selector("#phone-black")
    assert page.url.endswith(f"?game={game.code}")
