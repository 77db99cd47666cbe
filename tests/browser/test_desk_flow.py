"""The TD's desk on phones (390×844): the TD opens his desk, finds the protested time claim at the
top of the queue, reads the game's file and upholds the claim with his reason; the player appeals
from the game page; the chairman opens the decision from his desk and reverses it; the game is in
progress again. Then the TD credits time in a game and withdraws a player with adjudication after
the preview. Every page keeps to the Content-Security-Policy and throws no JavaScript error."""

import datetime
import io

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.utils import timezone

from accounts.roles import PLAYERS, ensure_roles
from play import services
from play.models import Decision, MobileEvent
from players import services as player_services
from tests.browser.conftest import is_policy_violation
from tests.players.factories import PlayerFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
PASSWORD = "a-long-enough-password"


@pytest.fixture
def event(settings):
    settings.PLAY_CONSOLE_STREAM = io.StringIO()
    ensure_roles(Group, Permission)
    users = get_user_model().objects
    admin = users.create_superuser("root", "root@example.org", PASSWORD)
    td = users.create_user("director", "td@example.org", PASSWORD)
    chair = users.create_user("chairman", "chair@example.org", PASSWORD)
    white = PlayerFactory(family_name="Белов", given_names="Иван")
    black = PlayerFactory(family_name="Чернова", given_names="Анна")
    ivan = users.create_user("ivan", "ivan@example.org", PASSWORD)
    ivan.groups.add(Group.objects.get(name=PLAYERS))
    link = player_services.link_request(user=ivan, relation="self", player=white)
    player_services.link_decide(link=link, admin=admin, confirm=True)
    start = (timezone.now() - datetime.timedelta(days=2)).replace(second=0, microsecond=0)
    event = services.event_create(
        created_by=admin, players=[white, black], code="desk", name="Desk Open", td=td, appeals_chair=chair,
        pairing=MobileEvent.Pairing.ALL_PLAY_ALL, start=start,
    )  # fmt: skip
    game = event.games.get()
    filed = start + datetime.timedelta(seconds=60 + 10_800 + 1 + 60)
    services.games_sweep(now=filed + datetime.timedelta(seconds=1))
    services.message_receive(
        channel="console", sender=str(game.white.federation_id), text="PROTEST my phone was dead",
        arrival=filed + datetime.timedelta(hours=1), game_code=game.code,
    )  # fmt: skip
    return event


def phone(browser, live_server, username, path):
    context = browser.new_context(locale="en-GB", viewport=PHONE, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(20_000)
    problems = []
    page.on("console", lambda message: problems.append(message.text) if is_policy_violation(message.text) else None)
    page.on("pageerror", lambda error: problems.append(f"JavaScript error: {error}"))
    page.console_problems = problems
    page.goto(f"{live_server.url}/accounts/login/?next={path}")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_url(f"**{path}")
    return context, page


def test_it_walks_a_td_through_a_protested_claim_and_the_chairman_through_a_reversal(browser, live_server, event):
    game = event.games.get()
    context, td = phone(browser, live_server, "director", "/play/desk/")
    td.click(f"#desk-events a:has-text('{event.name}')")
    first = td.locator("#desk-queue > li").first
    assert "Protested time claim" in first.inner_text() and "my phone was dead" in first.inner_text()
    # The queue fits the phone's width: no sideways scrolling of the page.
    assert td.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    first.get_by_text("Open the file and decide").click()
    td.wait_for_url(f"**/games/{game.code}/**")
    assert "PROTEST my phone was dead" in td.locator("#file-timeline").inner_text()
    claim = td.locator("#claim-white-1")
    claim.locator("textarea").fill("no evidence of a failure")
    claim.get_by_role("button", name="Uphold").click()
    td.wait_for_selector("text=Decision recorded")
    assert "0–1 (time)" in td.locator("#file-result").inner_text()
    assert not td.console_problems, td.console_problems
    context.close()

    context, player = phone(browser, live_server, "ivan", game.get_absolute_url())
    assert "no evidence of a failure" in player.locator("#decisions").inner_text()
    player.fill("#appeal-text", "the operator confirms the outage")
    player.click("#appeal-form button[type=submit]")
    player.wait_for_selector("text=Your appeal reached the Appeals Commission chairman.")
    assert not player.console_problems, player.console_problems
    context.close()

    decision = Decision.objects.get()
    context, chair = phone(browser, live_server, "chairman", f"/play/desk/{event.pk}/")
    item = chair.locator("#desk-queue > li").first
    assert "the operator confirms the outage" in item.inner_text()
    item.get_by_text("Rule on the appeal").click()
    chair.wait_for_url(f"**/desk/decisions/{decision.pk}/")
    chair.locator(".desk-appeal textarea").fill("the outage is confirmed")
    chair.get_by_role("button", name="Reverse it").click()
    chair.wait_for_selector("text=The decision is reversed.")
    assert "*" in chair.locator("#decision-result").inner_text()
    assert not chair.console_problems, chair.console_problems
    context.close()
    game.refresh_from_db()
    assert (game.result, game.status) == ("*", "open")


def test_it_walks_a_td_through_a_credit_and_a_withdrawal_with_adjudication(browser, live_server, event):
    from play import state
    from players.models import Player

    third = PlayerFactory(family_name="Третьяков", given_names="Пётр")
    event.entries.create(player=third)
    white, black = event.games.get().white, event.games.get().black
    # Added by the TD today: in progress (the event's own game has a claim since two days).
    extra = services.game_create(white=third, black=white, start=timezone.now(), event=event)
    services.game_create(white=black, black=third, start=timezone.now(), event=event)
    context, td = phone(browser, live_server, "director", f"/play/desk/{event.pk}/games/{extra.code}/")
    form = td.locator("#decide form")
    form.locator("select[name=kind]").select_option("credit")
    form.locator("select[name=player]").select_option(str(third.pk))
    form.locator("input[name=minutes]").fill("30")
    form.locator("textarea[name=text]").fill("declared DELAY 30 accepted")
    form.get_by_role("button", name="Record and send to the players").click()
    td.wait_for_selector(f"text=credited 0:30:00 in #{extra.code}")
    extra.refresh_from_db()
    assert state.load(extra).clock.total("white") == -1800

    td.goto(f"{live_server.url}/play/desk/{event.pk}/")
    td.click("#desk-withdraw")
    td.select_option("#w-player", str(third.pk))
    td.check("input[name=mode][value=adjudicate]")
    td.fill("#w-text", "left the event")
    td.get_by_role("button", name="Show what changes").click()
    assert "enter the result of #" in td.locator("#withdraw-problem").inner_text()
    for select in td.locator("#withdraw-games select").all():
        select.select_option("1/2-1/2")
    td.get_by_role("button", name="Show what changes").click()
    assert Player.objects.get(pk=third.pk).full_name in td.locator("#preview-table").inner_text()
    assert td.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    td.get_by_role("button", name="Confirm the withdrawal").click()
    td.wait_for_selector("text=withdrawn; his unfinished games are adjudicated")
    assert not td.console_problems, td.console_problems
    context.close()
    for game in event.games.filter(white=third) | event.games.filter(black=third):
        assert (game.result, game.termination) == ("1/2-1/2", "adjudication")


def test_it_walks_a_player_through_a_leave_request_and_the_td_through_granting_it(browser, live_server, event):
    from play.models import Leave, Transmission

    event.leave_days = 5
    event.save(update_fields=["leave_days"])
    white, black = event.games.get().white, event.games.get().black
    game = services.game_create(white=black, black=white, start=timezone.now(), event=event)  # in progress
    context, ivan = phone(browser, live_server, "ivan", game.get_absolute_url())
    ivan.click("#leave summary")
    assert "5 days of leave per player" in ivan.locator("#leave").inner_text()
    first = timezone.now().date() + datetime.timedelta(days=2)
    ivan.fill("#leave-first", first.isoformat())
    ivan.fill("#leave-last", (first + datetime.timedelta(days=2)).isoformat())
    ivan.fill("#leave-text", "a wedding")
    ivan.get_by_role("button", name="Ask for leave").click()
    ivan.wait_for_selector("text=Your leave request reached the TD.")
    assert not ivan.console_problems, ivan.console_problems
    context.close()
    leave = Leave.objects.get()
    context, td = phone(browser, live_server, "director", f"/play/desk/{event.pk}/")
    item = td.locator(f"#leave-{leave.pk}")
    assert "3 days" in item.inner_text() and "a wedding" in item.inner_text()
    assert td.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    item.get_by_role("button", name="Grant: pause his games").click()
    td.wait_for_selector("text=Leave granted: the games are paused and the players told.")
    assert td.locator(f"#leave-{leave.pk}").count() == 0
    assert not td.console_problems, td.console_problems
    context.close()
    game.refresh_from_db()
    ruling = game.transmissions.get(direction="ruling", kind="pause")
    assert ruling.data["begin"] == f"{first.isoformat()}T00:00:00Z"
    assert Transmission.objects.filter(game=game, direction="out", kind="decision").count() == 2
