"""The Content-Security-Policy and the templates that keep to it."""

import re
from pathlib import Path

import pytest
from django.conf import settings

from tests.base import BaseTestCase

TEMPLATES = Path(settings.BASE_DIR) / "templates"


class SecurityHeadersTestCase(BaseTestCase):
    def test_it_puts_the_policy_and_the_other_headers_on_every_answer(self):
        self.login(self.admin)
        for url in ("/", "/ratings/orr/", "/api/", "/api/lists/orr/", "/admin/", "/players/999999/"):
            response = self.client.get(url)
            policy = response["Content-Security-Policy"]
            directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
            assert directives["default-src"] == "'self'", url
            assert directives["script-src"] == "'self'"
            assert directives["style-src"] == "'self'"
            assert directives["img-src"] == "'self' data:"
            assert directives["object-src"] == "'none'"
            assert directives["base-uri"] == "'self'"
            assert directives["frame-ancestors"] == "'none'"
            assert directives["form-action"] == "'self'"
            assert "unsafe" not in policy
            assert response["Referrer-Policy"] == "same-origin"
            assert response["X-Content-Type-Options"] == "nosniff"
            assert response["X-Frame-Options"] == "DENY"


def _templates():
    return sorted(TEMPLATES.rglob("*.html"))


@pytest.mark.parametrize("path", _templates(), ids=lambda p: str(p.relative_to(TEMPLATES)))
def test_it_finds_no_inline_script_handler_or_style_in_a_template(path):
    """What script-src 'self' and style-src 'self' would block: inline <script> bodies, on*=
    handlers, javascript: links, style= attributes, <style> blocks, scripts from elsewhere."""
    text = path.read_text()
    for script in re.finditer(r"<script\b([^>]*)>(.*?)</script>", text, re.S | re.I):
        attributes, body = script.groups()
        assert "src=" in attributes and not body.strip(), f"inline script in {path.name}"
        assert not re.search(r"src=[\"']?(https?:)?//", attributes), f"script from another site in {path.name}"
    assert not re.search(r"<[a-z][^>]*\son[a-z]+\s*=", text, re.I), f"on*= handler in {path.name}"
    assert not re.search(r"<[a-z][^>]*\sstyle\s*=", text, re.I), f"style= attribute in {path.name}"
    assert not re.search(r"<style\b", text, re.I), f"<style> block in {path.name}"
    assert "javascript:" not in text.lower(), f"javascript: URL in {path.name}"
