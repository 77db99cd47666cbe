"""/help/: the arbiters' and the players' and TDs' guides of docs/, served in English and Russian."""

import os
import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from guides import render as rendering
from guides.catalogue import BY_SLUG, GUIDES

pytestmark = pytest.mark.django_db

SLUGS = [guide.slug for guide in GUIDES]


@pytest.fixture(params=["anonymous", "player"])
def client(request, personas):
    client = Client()
    if request.param == "player":
        client.force_login(personas["player"])
    return client


def get(client, url, language):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get(url)
    return response, response.content.decode()


def main(html):
    return html[html.index("<main") : html.rindex("</main>")]


def cyrillic_share(text):
    letters = re.findall(r"[^\W\d_]", re.sub(r"<[^>]+>", " ", text))
    return sum("а" <= c.lower() <= "я" or c.lower() == "ё" for c in letters) / max(len(letters), 1)


@pytest.mark.parametrize("language", ["en", "ru"])
def test_it_lists_every_guide_on_the_index_in_both_languages(client, language):
    response, html = get(client, reverse("guides:index"), language)
    assert response.status_code == 200
    for slug in SLUGS:
        assert f'href="{reverse("guides:guide", kwargs={"slug": slug})}"' in html
    assert ("Справка" in main(html)) == (language == "ru")
    assert ("Help" in main(html)) == (language == "en")


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize("slug", SLUGS)
def test_it_serves_each_guide_in_the_active_language_with_its_headings(client, slug, language):
    response, html = get(client, reverse("guides:guide", kwargs={"slug": slug}), language)
    assert response.status_code == 200
    body = main(html)
    share = cyrillic_share(body)
    if language == "ru":
        assert share > 0.6, f"the Russian page is {share:.0%} Cyrillic"
    else:
        assert share < 0.05, f"the English page is {share:.0%} Cyrillic"
    assert body.count("<h1>") == 1
    headings = re.findall(r'<h2 id="([^"]+)">', body)
    assert len(headings) >= 5
    for heading in headings:  # the contents link each one
        assert f'href="#{heading}"' in body


def test_it_answers_404_for_a_guide_it_does_not_have(client):
    assert client.get("/help/operators/").status_code == 404
    assert client.get("/help/no-such-guide/").status_code == 404


def test_it_shows_the_help_link_in_the_menu_in_both_languages(client):
    _, html = get(client, reverse("home"), "en")
    assert f'<a href="{reverse("guides:index")}">Help</a>' in html
    _, html = get(client, reverse("home"), "ru")
    assert f'<a href="{reverse("guides:index")}">Справка</a>' in html


def test_it_points_links_between_guides_at_help_and_others_at_their_repository_path(client):
    _, html = get(client, reverse("guides:guide", kwargs={"slug": "arbiters"}), "en")
    body = main(html)
    hrefs = re.findall(r'href="([^"]+)"', body)
    assert hrefs, "no links"
    assert not [h for h in hrefs if h.endswith(".md") or ".md#" in h]
    assert "<code>docs/operators/people.md</code>" in body  # not served: its path, as text
    assert '<a href="#the-same-tournament-twice">' in body
    _, html = get(client, reverse("guides:guide", kwargs={"slug": "mobile-chess"}), "ru")
    assert 'href="#претензии-по-времени-протесты-и-апелляции"' in main(html)


def test_it_wraps_the_guides_tables_in_their_own_scrolling_box(client):
    _, html = get(client, reverse("guides:guide", kwargs={"slug": "arbiters"}), "ru")
    tables = re.findall(r"(.{0,40})<table", main(html))
    assert len(tables) >= 2
    assert all(before.endswith('<div class="scroll">') for before in tables)


def test_it_escapes_raw_html_and_drops_unsafe_links(tmp_path, settings):
    settings.BASE_DIR = tmp_path
    (tmp_path / "docs" / "arbiters").mkdir(parents=True)
    (tmp_path / "docs" / "mobile-chess").mkdir(parents=True)
    source = tmp_path / "docs" / "arbiters" / "README.md"
    source.write_text(
        '# Title <b>bold</b>\n\n<script>alert(1)</script>\n\n<div onclick="x()">block</div>\n\n'
        "## Part\n\ntext <img src=x onerror=alert(1)> [bad](javascript:alert(1)) [web](https://example.org)\n"
        "[other](../mobile-chess/README.md#part) [code](../../players/models.py) ![pic](pic.png)\n\n"
        "| a | b |\n|---|---|\n| <i>x</i> | 2 |\n"
    )
    page = rendering.render(source)
    assert page.title == "Title <b>bold</b>"  # plain text: the template escapes it
    assert "<script" not in page.html and "&lt;script&gt;" in page.html
    assert "<div onclick" not in page.html and "<img" not in page.html and "<i>" not in page.html
    assert "javascript:" not in page.html and "<span>bad</span>" in page.html
    assert '<a href="https://example.org">web</a>' in page.html
    assert f'<a href="{reverse("guides:guide", kwargs={"slug": "mobile-chess"})}#part">other</a>' in page.html
    assert "<span>code (<code>players/models.py</code>)</span>" in page.html
    assert page.contents == (("part", "Part"),)
    client = Client()
    html = client.get(reverse("guides:guide", kwargs={"slug": "arbiters"})).content.decode()
    assert "<h1>Title &lt;b&gt;bold&lt;/b&gt;</h1>" in html


def test_it_renders_a_file_once_until_it_changes(tmp_path):
    source = tmp_path / "README.md"
    source.write_text("# One\n\n## A\n")
    first = rendering.render(source)
    assert rendering.render(source) is first
    source.write_text("# Two\n\n## B\n")
    os.utime(source, ns=(source.stat().st_atime_ns, source.stat().st_mtime_ns + 1_000_000_000))
    assert rendering.render(source).title == "Two"


def test_it_has_a_russian_file_beside_each_english_one():
    for guide in GUIDES:
        english, russian = guide.source("en"), guide.source("ru")
        assert english.name == "README.md" and russian.name == "README.ru.md", guide.slug
        assert BY_SLUG[guide.slug] is guide
