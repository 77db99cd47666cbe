"""Screenshots of every page type, from a running demo site (make run), for docs/screenshots/.

    .venv/bin/python docs/take_screenshots.py [http://127.0.0.1:8000]

Needs Debian's chromium and an arbiter account `shot` / `shot-password-123` for the preview.
"""

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

BASE = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000"
OUT = Path(__file__).resolve().parent / "screenshots"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]  # fmt: skip


def main() -> None:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=ARGS)
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
