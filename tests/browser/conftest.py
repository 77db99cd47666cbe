"""Headless Chromium (Debian's package) driven by Playwright, against pytest-django's live server.

Playwright's own browser download is never used: the browser is /usr/bin/chromium (or CHROMIUM),
which .ci/run installs. Without it every test using the browser is skipped (tests/optional.py), and
fails in CI's full pass, where it must run.
"""

import os

import pytest

from tests.optional import chromium_path, require

ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="session")
def browser():
    require("chromium")
    from playwright.sync_api import sync_playwright

    # Playwright runs an event loop in this thread; the test's own ORM calls are synchronous and safe.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(), headless=True, args=ARGS)
        yield browser
        browser.close()


def is_policy_violation(text: str) -> bool:
    """Chromium's console line for anything the Content-Security-Policy blocked."""
    return "Content Security Policy" in text or "Content-Security-Policy" in text


@pytest.fixture
def page(browser):
    context = browser.new_context(locale="en-GB", viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    # Every test also checks that the pages it opened broke no rule of the Content-Security-Policy
    # (an inline script or style, a handler attribute) and threw no JavaScript error.
    problems = []
    page.on("console", lambda message: problems.append(message.text) if is_policy_violation(message.text) else None)
    page.on("pageerror", lambda error: problems.append(f"JavaScript error: {error}"))
    page.console_problems = problems
    yield page
    context.close()
    assert not problems, problems
