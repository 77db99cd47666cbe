"""The rating-history chart in a real browser, in English and Russian, on a desktop and a phone:
no console errors, every point drawn in a place of its own, the table alternative opens."""

import datetime

import pytest

from ratings import services
from tests.players.factories import PlayerFactory
from tests.ratings.scenario import make_tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def player():
    hero = PlayerFactory(family_name="Смирнова", given_names="Анна", birth_date=datetime.date(2014, 3, 1))
    others = [PlayerFactory(birth_date=datetime.date(2013, 1, n + 1)) for n in range(7)]
    today = datetime.date.today()  # noqa: DTZ011
    first = None
    for n, days in enumerate((330, 240, 150, 60)):
        tournament = make_tournament(f"Cup {n}", today - datetime.timedelta(days=days), [hero, *others], seed=n)
        first = first or tournament
    services.rating_run(tournament_id=first.pk)
    return hero


def chart_points(page, system):
    """The centres of the points of one system's chart, as the browser laid them out."""
    points = page.locator(f"#rating-{system} svg.rating-chart .point")
    boxes = [points.nth(i).bounding_box() for i in range(points.count())]
    return [(round(b["x"] + b["width"] / 2), round(b["y"] + b["height"] / 2)) for b in boxes]


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize("viewport", [(1280, 800), (390, 844)])
def test_it_draws_the_chart_in_either_language_on_a_desktop_and_a_phone(
    browser, live_server, player, language, viewport
):
    context = browser.new_context(locale="en-GB", viewport={"width": viewport[0], "height": viewport[1]})
    page = context.new_page()
    errors = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{live_server.url}/players/{player.federation_id}/")
    if language == "ru":
        page.click("header .language button[value=ru]")
        page.wait_for_load_state()
    assert page.locator("html").get_attribute("lang") == language

    for system in ("orr", "mchess", "playchess"):
        centres = chart_points(page, system)
        assert len(centres) == 4, system
        assert len(set(centres)) == 4, centres  # four places, not one heap
        xs = [x for x, _ in centres]
        assert xs == sorted(xs), xs  # left to right in date order
        plot = page.locator(f"#rating-{system} svg.rating-chart").bounding_box()
        assert plot["width"] > 250 and plot["height"] > 150
        assert all(plot["x"] <= x <= plot["x"] + plot["width"] for x in xs)

    chart = page.locator("#rating-orr")
    # Labels a person can read: 12 CSS pixels on a phone too, several of them on each axis.
    sizes = chart.locator("svg text.tick").evaluate_all("els => els.map(e => parseFloat(getComputedStyle(e).fontSize))")
    assert len(sizes) >= 4 and min(sizes) >= 11
    visible_dates = chart.locator("svg text.tick.date").evaluate_all(
        "els => els.filter(e => getComputedStyle(e).display !== 'none').length"
    )
    assert visible_dates >= 2
    # The points' tooltips, and the table beside the chart.
    assert "Cup 3" in chart.locator("svg .point title").last.text_content()
    chart.locator("details.chart-table summary").click()
    assert chart.locator("details.chart-table tbody tr").count() == 4
    assert chart.locator("details.chart-table tbody tr").first.is_visible()
    assert errors == []
    context.close()
