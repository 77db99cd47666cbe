"""Every page of the site, on a phone (390×844) and a laptop (1280 px), in Russian and in English,
as each persona who may see it. The list of pages comes from the URL configuration
(tests/sitewide/pages.py), filled with the fixture federation (tests/sitewide/federation.py):
a page added later is checked without anyone remembering to.

On the phone: the document is never wider than the screen; nothing in the page sticks out past
its right edge (unless inside a box that scrolls by itself); the cells of the key columns
(marked data-key in the templates: rank, name and rating on lists; opponent, result and change
on a player's page; every detail of the event and the desk) are in view without sideways
scrolling; the menu's Log in / My games / Log out are reachable (at once or after the menu
button). On the laptop: no table is cut (none wider than the box it scrolls in).
"""

import collections

import pytest
from django.test import Client

from tests.browser.conftest import is_policy_violation
from tests.sitewide.federation import PERSONAS, build_federation
from tests.sitewide.pages import SHOWN_WITH, page_urls, visible_pages

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 900}
LANGUAGES = ("ru", "en")

# Pages whose key columns must be marked: (pattern name, the data-key values it must show).
KEYS = {
    "home": {"rank", "name", "rating"},
    "ratings:list": {"rank", "name", "rating"},
    "tournaments:list": {"name"},
    "players:detail": {"opponent", "result", "change"},
    "play:event": {"rank", "name", "score", "game", "white", "black", "status", "result"},
    "play:desk": {"item"},
    "play:desk_file": {"at", "kind", "text"},
}

# The phone's checks, in the page: one call returns everything found. `links` are the menu links
# that must be in reach ([what, selector]): shown inside the screen at once or after the menu
# button (#menu-button) is pressed.
PHONE_CHECKS = """({width, links}) => {
  const found = {wide: document.documentElement.scrollWidth, sticking: [], keys: [], keyNames: [], menu: []};
  const clips = (el) => getComputedStyle(el).overflowX !== 'visible';
  const label = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
      (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).join('.') : '') +
      ' "' + (el.textContent || '').trim().slice(0, 30) + '"';
  const folded = (el) => el.closest('details:not([open]) > :not(summary), [hidden]');
  // The right edge of what the element may show in: the screen, or a box that clips it.
  const edge = (el) => {
    let left = 0, right = width;
    for (let up = el.parentElement; up; up = up.parentElement) {
      if (!clips(up)) continue;
      const b = up.getBoundingClientRect();
      left = Math.max(left, b.left);
      right = Math.min(right, b.right);
    }
    return [left, right];
  };
  for (const el of document.body.querySelectorAll('*')) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.right <= width + 1 || folded(el)) continue;
    let clipped = false;
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      if (clips(up)) { clipped = true; break; }
    }
    if (!clipped) found.sticking.push(label(el) + ' right=' + Math.round(box.right));
  }
  for (const el of document.querySelectorAll('[data-key]')) {
    found.keyNames.push(el.dataset.key);
    if (folded(el) || !el.textContent.trim()) continue;  // an empty cell (no Mchess line for a game) may fold
    const box = el.getBoundingClientRect();
    const [left, right] = edge(el);
    if (box.width === 0 || box.left < left - 1 || box.right > right + 1) {
      found.keys.push(el.dataset.key + ': ' + label(el) + ' ' + Math.round(box.left) + '..' + Math.round(box.right) +
                      ' in ' + Math.round(left) + '..' + Math.round(right));
    }
  }
  found.keyNames = [...new Set(found.keyNames)];
  const inReach = (el) => {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0 || getComputedStyle(el).visibility === 'hidden') return false;
    const [left, right] = edge(el);
    return box.left >= left - 1 && box.right <= right + 1;
  };
  const button = document.getElementById('menu-button');
  let pressed = false;
  for (const [what, selector] of links) {
    const el = document.querySelector(selector);
    if (!el) { found.menu.push(what + ': missing'); continue; }
    if (inReach(el)) continue;
    if (!pressed && button && inReach(button)) { button.click(); pressed = true; }
    if (!inReach(el)) found.menu.push(what + ': out of reach');
  }
  return found;
}"""

# The laptop's check: every box a table scrolls in shows the whole table.
LAPTOP_CHECKS = """(width) => {
  const cut = [];
  for (const table of document.querySelectorAll('main table')) {
    if (table.closest('details:not([open]), [hidden]')) continue;
    const box = table.getBoundingClientRect();
    if (box.width === 0) continue;
    if (box.right > width + 1) cut.push((table.id || table.className) + ' right=' + Math.round(box.right));
    for (let up = table.parentElement; up; up = up.parentElement) {
      if (getComputedStyle(up).overflowX !== 'visible' && up.scrollWidth > up.clientWidth + 1) {
        cut.push((table.id || table.className) + ' ' + up.scrollWidth + ' px in ' + up.clientWidth);
        break;
      }
    }
  }
  return {wide: document.documentElement.scrollWidth, cut};
}"""

# The menu links each persona must reach: what it is, its selector.
LOG_IN = [["Log in", "header nav a[href^='/accounts/login/']"]]
LOGGED_IN = [["My games", "#nav-my-games"], ["Log out", "header nav form[action='/accounts/logout/'] button"]]


@pytest.fixture
def federation(live_server):
    fed = build_federation()
    urls, unfilled = page_urls(fed)
    assert not unfilled, f"URL patterns nothing fills (add them to tests/sitewide/pages.py): {unfilled}"
    return fed, urls


def browsing_plan(fed, urls) -> dict[str, list[tuple[str, str]]]:
    """Each persona's pages to open: every page he sees, except those whose content another persona
    already opens exactly as he would see it (the home page always: it checks his menu)."""
    opened = set()
    plan = {}
    for persona, pages in visible_pages(fed, urls).items():
        plan[persona] = []
        for (name, url), digest in pages.items():
            if name == "home" or (url, digest) not in opened:
                plan[persona].append((name, url))
                opened.add((url, digest))
    return plan


def session_cookie(user, base_url: str) -> list[dict]:
    if user is None:
        return []
    client = Client()
    client.force_login(user)
    return [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base_url}]


def test_it_fits_every_page_on_a_phone_and_cuts_no_column_on_a_laptop(browser, live_server, federation):
    fed, urls = federation
    plan = browsing_plan(fed, urls)
    failures = collections.defaultdict(list)  # kind -> ["persona lang page: detail"]
    shown = collections.Counter()
    seen_keys = collections.defaultdict(set)
    for persona in PERSONAS:
        context = browser.new_context(viewport=PHONE, locale="en-GB", has_touch=True)
        context.add_cookies(session_cookie(fed.users[persona], live_server.url))
        page = context.new_page()
        page.set_default_timeout(15_000)
        console = []
        page.on("console", lambda m, c=console: c.append(m.text) if is_policy_violation(m.text) else None)
        page.on("pageerror", lambda e, c=console: c.append(f"JavaScript error: {e}"))
        for language in LANGUAGES:
            context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
            for name, url in plan[persona]:
                page.set_viewport_size(PHONE)
                response = page.goto(live_server.url + url, wait_until="load")
                assert response is not None and response.status == SHOWN_WITH.get(name, 200), (persona, url)
                shown[language] += 1
                where = f"{persona} {language} {url}"
                links = LOG_IN if fed.users[persona] is None else LOGGED_IN
                found = page.evaluate(PHONE_CHECKS, {"width": PHONE["width"], "links": links})
                if found["wide"] > PHONE["width"]:
                    failures["page wider than the phone"].append(f"{where}: {found['wide']} px")
                if found["sticking"]:
                    failures["element past the phone's edge"].append(f"{where}: {found['sticking'][:3]}")
                if found["keys"]:
                    failures["key column out of view"].append(f"{where}: {found['keys'][:3]}")
                seen_keys[name] |= set(found["keyNames"])
                for problem in found["menu"]:
                    failures["menu link out of reach"].append(f"{where}: {problem}")
                page.set_viewport_size(LAPTOP)
                found = page.evaluate(LAPTOP_CHECKS, LAPTOP["width"])
                if found["wide"] > LAPTOP["width"] or found["cut"]:
                    failures["table cut at 1280 px"].append(f"{where}: {found['wide']} px {found['cut'][:3]}")
                if console:
                    failures["policy violation or script error"].append(f"{where}: {console[:]}")
                    console.clear()
        context.close()
    for name, wanted in KEYS.items():
        if not wanted <= seen_keys[name]:
            failures["key columns not marked"].append(f"{name}: {sorted(wanted - seen_keys[name])}")
    assert shown["ru"] == shown["en"] > 120, shown
    summary = {kind: len(items) for kind, items in failures.items()}
    assert not failures, f"{summary}\n" + "\n".join(f"{k}: {v}" for k, items in failures.items() for v in items)
