"""A visitor in a real browser: the list, its filters, a player, his chart, a report, Russian, a download."""

import datetime

import openpyxl
import pytest

from ratings import services
from tests.players.factories import PlayerFactory
from tests.ratings.scenario import make_tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

THIS_YEAR = datetime.date.today().year  # noqa: DTZ011


@pytest.fixture
def federation():
    girl = PlayerFactory(
        family_name="Смирнова", given_names="Анна", sex="F", birth_date=datetime.date(THIS_YEAR - 9, 3, 1)
    )
    others = [PlayerFactory(birth_date=datetime.date(THIS_YEAR - 12 - n % 8, 1, n + 1)) for n in range(9)]
    first = make_tournament("Autumn cup", datetime.date(THIS_YEAR - 1, 9, 6), [girl, *others], seed=41)
    make_tournament("Winter cup", datetime.date(THIS_YEAR - 1, 12, 6), [girl, *others], seed=42)
    services.rating_run(tournament_id=first.pk)
    return girl


def test_it_lets_a_visitor_filter_the_list_open_a_player_a_report_and_download(page, live_server, federation, tmp_path):
    page.goto(f"{live_server.url}/ratings/orr/")
    assert page.locator("#rating-list tbody tr").count() == 10
    page.click("details.filters summary")
    page.select_option("#id_age_group", "u10")
    page.fill("#id_name", "smirnova")  # Latin letters find the Cyrillic name
    page.click("#list-filters button[type=submit]")
    rows = page.locator("#rating-list tbody tr")
    assert rows.count() == 1
    assert "Смирнова, Анна" in rows.first.inner_text()

    with page.expect_download() as download_info:
        page.click("#download-xlsx")
    target = tmp_path / "list.xlsx"
    download_info.value.save_as(target)
    sheet = openpyxl.load_workbook(target).active
    assert sheet.max_row == 2
    assert sheet.cell(row=2, column=3).value == "Смирнова, Анна"

    page.click("text=Смирнова, Анна")
    page.wait_for_url(f"**{federation.get_absolute_url()}")
    chart = page.locator("#rating-orr svg[role=img]")
    assert chart.is_visible()
    assert "ORR rating history" in chart.locator("title").first.text_content()

    page.click("#player-tournaments >> text=Winter cup")
    assert page.locator("#orr-calculation").is_visible()
    assert "Kt = " in page.locator("#tournament-coefficient").inner_text()

    page.click("header .language button[value=ru]")
    page.wait_for_load_state()
    assert page.locator("html").get_attribute("lang") == "ru"
    assert "Расчёт ОРР" in page.content()


def test_it_opens_a_published_list_from_the_month_picker_under_the_security_policy(page, live_server, federation):
    services.publish_lists(month=datetime.date(THIS_YEAR, 1, 1))
    page.goto(f"{live_server.url}/ratings/orr/")
    with page.expect_navigation():
        page.select_option("#month", f"{THIS_YEAR}-01")  # no button: the script sends the form
    assert f"month={THIS_YEAR}-01" in page.url
    assert "published list of" in page.locator("h1").inner_text()
    # The browser really enforces the policy: an inline script is refused, and said so.
    page.evaluate(
        """() => { const s = document.createElement('script'); s.textContent = 'window.ran = 1';
                   document.body.appendChild(s); }"""
    )
    page.wait_for_timeout(200)
    assert page.evaluate("() => window.ran") is None
    refused = [text for text in page.console_problems if "Content Security Policy" in text]
    assert refused
    page.console_problems.clear()  # expected here; any other test's violation fails it
