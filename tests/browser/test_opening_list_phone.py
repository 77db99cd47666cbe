"""The opening list's staff page on a phone (390×844), in Russian and English: the upload, the
preview with its tables of differences, the import; nothing wider than the screen."""

import pytest
from django.conf import settings
from django.contrib.auth.models import Group, Permission
from django.test import Client

from accounts.roles import ensure_roles
from ratings.models import PlayerRating
from tests.base import federation_admin
from tests.ratings.opening.test_opening import DAY, LIST

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
# Long names and a conflict on every row, so the preview's tables have something to squeeze.
LONG = LIST.replace("Petrov,Ivan", "Константинопольская-Вознесенская,Александра Владимировна")


@pytest.mark.parametrize("language", ["ru", "en"])
def test_it_fits_a_phone_from_upload_to_import(browser, live_server, tmp_path, language):
    ensure_roles(Group, Permission)  # a transactional test's database was flushed
    client = Client()
    client.force_login(federation_admin())
    context = browser.new_context(locale=language, viewport=PHONE, has_touch=True)
    domain = live_server.url.split("//")[1].split(":")[0]
    context.add_cookies(
        [
            {"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
             "domain": domain, "path": "/"},
            {"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "domain": domain, "path": "/"},
        ]
    )  # fmt: skip
    page = context.new_page()
    page.set_default_timeout(20_000)
    try:
        page.goto(f"{live_server.url}/staff/opening-list/")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        first = tmp_path / "list.csv"
        first.write_text(LONG, encoding="utf-8")
        page.fill("#id_effective", DAY.isoformat())
        page.set_input_files("#id_file", str(first))
        page.click("#opening-form button[type=submit]")
        page.wait_for_selector("#opening-preview")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        with page.expect_navigation():
            page.click("button[name=confirm]")
        page.wait_for_load_state()
        assert PlayerRating.objects.filter(player__federation_id=200001, system="orr").exists()
        # A corrected list: the tables of conflicts and differences on the phone.
        second = tmp_path / "corrected.csv"
        second.write_text(LONG.replace("1800,0,120,14", "1810,0,121,14").replace("Sidorova", "Sidorova-Petrova"),
                          encoding="utf-8")  # fmt: skip
        page.fill("#id_effective", DAY.isoformat())
        page.set_input_files("#id_file", str(second))
        page.click("#opening-form button[type=submit]")
        page.wait_for_selector("#opening-preview table")
        assert page.locator("#opening-preview table").count() == 2
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        button = page.locator("button[name=confirm]").bounding_box()
        assert button["x"] >= 0 and button["x"] + button["width"] <= PHONE["width"]
    finally:
        context.close()
