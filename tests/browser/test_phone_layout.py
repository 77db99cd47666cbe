"""The public pages as a phone (390×844) and a laptop (1280×800) show them: the rating beside the
name, no sideways page scroll, folded filters, a report whose names stay in view, its navigation,
"find a player" and the month picker (static/js/public.js: no inline script)."""

import datetime

import pytest

from ratings import services
from tests.players.factories import ClubFactory, PlayerFactory
from tests.ratings.scenario import make_tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
TODAY = datetime.date.today()  # noqa: DTZ011


@pytest.fixture
def report():
    club = ClubFactory(name="Шахматный клуб «Белая ладья» имени Героев Отечества")
    players = [
        PlayerFactory(
            family_name=f"Константинопольская-Вознесенская{n}",
            given_names="Александра Владимировна",
            sex="F" if n % 2 else "M",
            club=club,
        )
        for n in range(24)
    ]
    tournament = make_tournament("Первенство города", TODAY - datetime.timedelta(days=40), players, rounds=9, seed=11)
    services.rating_run(tournament_id=tournament.pk)
    services.publish_lists(month=TODAY.replace(day=1))
    return tournament


def open_page(browser, viewport, url):
    context = browser.new_context(locale="en-GB", viewport=viewport)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(url)
    return context, page


def test_it_shows_a_phone_the_rating_beside_the_name_without_sideways_scroll(browser, live_server, report):
    context, page = open_page(browser, PHONE, f"{live_server.url}/ratings/orr/")
    try:
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        for row in range(5):
            box = page.locator("#rating-list tbody tr").nth(row).locator("td.col-rating").bounding_box()
            assert box["width"] > 0 and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
        assert page.locator("details.filters").get_attribute("open") is None  # folded by default
        assert not page.locator("#id_name").is_visible()
        page.goto(f"{live_server.url}/ratings/orr/?sex=F")
        assert page.locator("details.filters").get_attribute("open") is not None  # open while a filter is on
        assert page.locator("#id_sex").is_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        context.close()


def test_it_shows_a_tablet_the_whole_list_without_scrolling_the_table(browser, live_server, report):
    context, page = open_page(browser, {"width": 768, "height": 1024}, f"{live_server.url}/ratings/orr/")
    try:
        box = page.locator("#rating-list").evaluate(
            "table => [table.parentElement.scrollWidth, table.parentElement.clientWidth]"
        )
        assert box[0] <= box[1], box
        assert page.locator("#rating-list tbody tr").first.locator("td.col-club").is_visible()
    finally:
        context.close()


def test_it_keeps_the_reports_names_in_view_on_a_phone(browser, live_server, report):
    context, page = open_page(browser, PHONE, f"{live_server.url}{report.get_absolute_url()}")
    try:
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        name = page.locator("#crosstable tbody tr").first.locator("td.name")
        assert name.evaluate("cell => getComputedStyle(cell).position") == "sticky"
        scroller = page.locator("#crosstable-section .scroll")
        assert scroller.evaluate("box => box.scrollWidth > box.clientWidth")  # nine rounds do not fit
        scroller.evaluate("box => { box.scrollLeft = 400; }")
        page.wait_for_function("document.querySelector('#crosstable-section .scroll').scrollLeft > 0")
        left = scroller.bounding_box()["x"]
        box = name.bounding_box()
        assert abs(box["x"] - left) < 2, (box, left)  # still at the left edge after scrolling
        for table in ("#orr-calculation", "#other-systems"):
            cell = page.locator(f"{table} tbody tr").first.locator("td.name")
            assert cell.evaluate("cell => getComputedStyle(cell).position") == "sticky", table
    finally:
        context.close()


def test_it_shows_old_and_new_in_the_report_on_a_laptop_and_finds_a_player(browser, live_server, report):
    context, page = open_page(browser, LAPTOP, f"{live_server.url}{report.get_absolute_url()}")
    try:
        head = page.locator("#orr-calculation thead th", has_text="Old → new")
        box = head.bounding_box()
        assert box["x"] + box["width"] <= LAPTOP["width"], box
        page.click("#report-contents >> text=ORR calculation")
        page.wait_for_url("**#orr-section")

        assert page.locator("#find-player").is_visible()  # shown by the script
        wanted = "Константинопольская-Вознесенская17"
        page.fill("#find-player", wanted.lower())
        for table in ("#crosstable", "#orr-calculation", "#other-systems"):
            shown = page.locator(f"{table} tbody tr:visible")
            assert shown.count() == 1, table
            assert wanted in shown.first.inner_text()
        page.fill("#find-player", "")
        assert page.locator("#crosstable tbody tr:visible").count() == 24
    finally:
        context.close()


def test_it_keeps_the_filters_and_the_sort_when_a_month_is_chosen(browser, live_server, report):
    context, page = open_page(browser, LAPTOP, f"{live_server.url}/ratings/orr/?sex=F&sort=name")
    try:
        page.select_option("#month", TODAY.strftime("%Y-%m"))  # applies itself: no button to press
        page.wait_for_url("**month=*")
        assert "sex=F" in page.url and "sort=name" in page.url
        rows = page.locator("#rating-list tbody tr")
        assert rows.count() == 12
        names = [rows.nth(n).locator("td.col-name a").inner_text() for n in range(12)]
        assert names == sorted(names)
    finally:
        context.close()
