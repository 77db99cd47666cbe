"""Screenshots of every page type, from a running demo site (make run), for docs/screenshots/.

    .venv/bin/python docs/take_screenshots.py [http://127.0.0.1:8000]
    .venv/bin/python docs/take_screenshots.py [BASE] --only gcr-filter|accuracy|whatif
    .venv/bin/python docs/take_screenshots.py [BASE] --only tiebreaks --report /tournaments/ID/

Needs Debian's chromium and an arbiter account `shot` / `shot-password-123` for the preview.
"""

import argparse
from pathlib import Path

from playwright.sync_api import sync_playwright

_parser = argparse.ArgumentParser(description="Screenshots of the site's pages for docs/screenshots/.")
_parser.add_argument("base", nargs="?", default="http://127.0.0.1:8000")
_parser.add_argument("--only", choices=["gcr-filter", "accuracy", "whatif", "tiebreaks", "not-found"])
_parser.add_argument("--report", help="the tournament report's path, for --only tiebreaks")
OPTIONS = _parser.parse_args()
BASE = OPTIONS.base.rstrip("/")
OUT = Path(__file__).resolve().parent / "screenshots"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]  # fmt: skip


def shoot_tiebreaks(browser, report: str) -> None:
    """The report's crosstable on a 390 px phone in English and Russian. At rest place, name and
    points are in view; the shot is scrolled as a reader would, until the points stand next to the
    name (which stays, sticky), so the tie-breaks after them show."""
    for locale, name in (("en-GB", "tiebreaks-phone.png"), ("ru-RU", "tiebreaks-phone-ru.png")):
        page = browser.new_context(viewport={"width": 390, "height": 844}, locale=locale).new_page()
        page.goto(f"{BASE}{report}")
        page.locator("#crosstable-section").scroll_into_view_if_needed()
        page.evaluate("document.querySelector('#crosstable-section').scrollIntoView()")
        page.eval_on_selector(
            "#crosstable",
            """table => {
                const name = table.querySelector('thead th.name'), points = name.nextElementSibling;
                table.closest('.scroll').scrollLeft = points.offsetLeft - name.offsetWidth;
            }""",
        )
        page.screenshot(path=OUT / name)
        page.context.close()


def shoot_not_found(browser) -> None:
    """The site's own 404 page as `make run` serves it (DEBUG off), on a 390 px phone in English and Russian."""
    for locale, name in (("en-GB", "not-found-phone.png"), ("ru-RU", "not-found-phone-ru.png")):
        phone = browser.new_context(viewport={"width": 390, "height": 844}, locale=locale).new_page()
        phone.goto(f"{BASE}/tournaments/no-such-page/")
        phone.screenshot(path=OUT / name)
        phone.context.close()


def shoot_gcr_filter(browser) -> None:
    """The GCR filter page (ratings.gcrquery) on a 390 px phone, English and Russian: the games of
    the last two years over the board, the filters folded above the list."""
    for locale, name in (("en-GB", "gcr-filter-phone.png"), ("ru-RU", "gcr-filter-phone-ru.png")):
        phone = browser.new_context(viewport={"width": 390, "height": 844}, locale=locale).new_page()
        phone.goto(f"{BASE}/ratings/gcr/filter/?days=730&kind=board")
        phone.click("#filters summary")  # folded, as a visitor folds them to read the list
        phone.screenshot(path=OUT / name)
        phone.context.close()


def shoot_accuracy(browser, base: str = BASE, out: Path = OUT) -> None:
    """Which system predicts best, on a 390 px phone in English and in Russian (the whole page)."""
    for locale, name in (("en-GB", "accuracy-phone.png"), ("ru-RU", "accuracy-phone-ru.png")):
        context = browser.new_context(viewport={"width": 390, "height": 844}, locale=locale)
        page = context.new_page()
        page.goto(f"{base}/ratings/accuracy/")
        page.screenshot(path=out / name, full_page=True)
        context.close()


def main() -> None:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=ARGS)
        if OPTIONS.only:
            only = {
                "gcr-filter": lambda: shoot_gcr_filter(browser),
                "accuracy": lambda: shoot_accuracy(browser),
                "whatif": lambda: shoot_whatif(browser),
                "tiebreaks": lambda: shoot_tiebreaks(browser, OPTIONS.report or "/tournaments/1/"),
                "not-found": lambda: shoot_not_found(browser),
            }
            only[OPTIONS.only]()
            browser.close()
            return
        desk = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB").new_page()
        desk.goto(f"{BASE}/")
        desk.screenshot(path=OUT / "home.png")
        desk.goto(f"{BASE}/ratings/orr/?age_group=u12")
        desk.screenshot(path=OUT / "rating-list.png")
        player = desk.locator("#rating-list tbody tr a").first.get_attribute("href")
        desk.goto(f"{BASE}{player}")
        desk.screenshot(path=OUT / "player.png", full_page=True)
        desk.goto(f"{BASE}/tournaments/")
        desk.screenshot(path=OUT / "tournaments.png")
        report = desk.locator("#tournaments tbody tr a").first.get_attribute("href")
        desk.goto(f"{BASE}{report}")
        desk.screenshot(path=OUT / "tournament-report.png", full_page=True)
        calculation = desk.locator("#orr-calculation tbody tr a").first.get_attribute("href")
        desk.goto(f"{BASE}{calculation}")
        desk.screenshot(path=OUT / "player-calculation.png", full_page=True)
        desk.goto(f"{BASE}/ratings/about/")
        desk.screenshot(path=OUT / "about.png")
        desk.goto(f"{BASE}/api/")
        desk.screenshot(path=OUT / "api.png")
        desk.goto(f"{BASE}/accounts/login/?next=/arbiter/upload/")
        desk.fill("#id_username", "shot")
        desk.fill("#id_password", "shot-password-123")
        desk.click("main form button[type=submit]")
        desk.goto(f"{BASE}/arbiter/")
        desk.screenshot(path=OUT / "arbiter-area.png")
        ru = browser.new_context(viewport={"width": 1280, "height": 900}, locale="ru-RU").new_page()
        ru.goto(f"{BASE}/ratings/orr/")
        ru.screenshot(path=OUT / "rating-list-ru.png")
        phone = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB").new_page()
        phone.goto(f"{BASE}/ratings/orr/")
        phone.screenshot(path=OUT / "rating-list-phone.png")
        phone.goto(f"{BASE}{report}")
        phone.screenshot(path=OUT / "tournament-report-phone.png")
        shoot_whatif(browser)
        shoot_prediction(desk)
        shoot_tiebreaks(browser, report)
        shoot_gcr_filter(browser)
        shoot_accuracy(browser)
        browser.close()


def shoot_whatif(browser, base: str = BASE) -> None:
    """The what-if calculator on a 390 px phone, in English and Russian, with a calculated result
    (a provisional player by rating against opponents by rating: needs no particular player)."""
    query = "rating=1450&provisional=on&games=4&birth_year=2012&opponents=1600+1%0D%0A1500+0.5%0D%0A1700+0"
    for locale, name in (("en-GB", "whatif-phone.png"), ("ru-RU", "whatif-phone-ru.png")):
        context = browser.new_context(viewport={"width": 390, "height": 844}, locale=locale)
        page = context.new_page()
        page.goto(f"{base}/ratings/whatif/?{query}")
        page.locator("#whatif-results").scroll_into_view_if_needed()
        page.screenshot(path=OUT / name, full_page=True)
        context.close()


def shoot_prediction(page, base: str = BASE) -> None:
    """The upload preview's "If confirmed now" section (an arbiter logged in on `page`)."""
    page.goto(f"{base}/arbiter/upload/")
    example = Path(__file__).resolve().parents[1] / "examples" / "karl-mala-2005.trf"
    page.set_input_files("input[type=file]", str(example))
    page.click("main form button[type=submit]")
    page.wait_for_selector("#prediction")
    box = page.locator("#prediction").bounding_box()  # its head and first rows: a long file is long
    clip = {"x": box["x"], "y": box["y"], "width": box["width"], "height": min(box["height"], 700)}
    page.screenshot(path=OUT / "preview-prediction.png", full_page=True, clip=clip)


if __name__ == "__main__":
    main()
