"""A parent applies for a FIDE rating import, an admin approves it, the player's page shows it."""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission

from accounts.roles import FEDERATION_ADMINS, PLAYERS, ensure_roles
from tests.players.factories import PlayerFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def log_in(page, live_server, username, next_url):
    page.goto(f"{live_server.url}/accounts/login/?next={next_url}")
    page.fill("#id_username", username)
    page.fill("#id_password", "a-long-enough-password")
    page.click("main form button[type=submit]")


def test_it_takes_an_application_to_approval_and_shows_the_ratings_change(page, live_server):
    ensure_roles(Group, Permission)
    users = get_user_model().objects
    mother = users.create_user("mother", "mother@example.org", "a-long-enough-password")
    mother.groups.add(Group.objects.get(name=PLAYERS))
    staff = users.create_user("reviewer", "staff@example.org", "a-long-enough-password")
    staff.groups.add(Group.objects.get(name=FEDERATION_ADMINS))
    player = PlayerFactory(family_name="Орлова", given_names="Ольга")

    page.goto(f"{live_server.url}{player.get_absolute_url()}")
    assert "no rating" in page.locator("#rating-orr").inner_text()
    page.click("text=Apply to import this player's FIDE rating")
    page.fill("#id_username", "mother")
    page.fill("#id_password", "a-long-enough-password")
    page.click("main form button[type=submit]")
    page.wait_for_url("**/players/apply/**")
    assert page.input_value("#id_federation_id") == str(player.federation_id)
    page.fill("#id_fide_id", "34100018")
    page.fill("#id_fide_rating", "1650")
    page.fill("#id_rating_list_month", "2026-11")
    page.click("#application-form button[type=submit]")
    page.wait_for_url("**/players/applications/")
    assert "pending review" in page.locator("#my-applications").inner_text()
    # She follows her daughter too.
    page.goto(f"{live_server.url}{player.get_absolute_url()}")
    page.click("#follow-form button")
    page.wait_for_selector("#follow-form button[aria-pressed=true]")

    page.context.clear_cookies()
    log_in(page, live_server, "reviewer", "/players/review/")
    page.click("#pending a")
    assert "The rule: from today, 1650 becomes the ORR rating" in page.content()
    page.check("input[name=decision][value=approve]")
    page.fill("#id_reason", "FIDE profile checked")
    page.click("#decision-form button[type=submit]")
    page.wait_for_url("**/players/review/")

    page.goto(f"{live_server.url}{player.get_absolute_url()}")
    assert page.locator("#rating-orr .big").inner_text() == "1650"
    assert page.locator("#rating-mchess .big").inner_text() == "16500"
    assert "34100018" in page.locator("#fide-profile").inner_text()

    page.context.clear_cookies()
    log_in(page, live_server, "mother", "/players/following/")
    row = page.locator("#following tbody tr")
    assert "Орлова, Ольга" in row.inner_text() and "1650" in row.inner_text()
