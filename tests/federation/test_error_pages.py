"""Error pages in the site's layout and the visitor's language (with DEBUG off, as in production)."""

import re
from unittest import mock

import pytest
from django.db import OperationalError, connections
from django.test import Client, RequestFactory, override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from federation import errors
from tests.base import BaseTestCase

PAGES = {
    # path, status, English message, Russian message
    "400": ("/test-errors/400/", 400, "Bad request", "Неверный запрос"),
    "403": ("/test-errors/403/", 403, "Access denied", "Доступ запрещён"),
    "404": ("/no/such/page/", 404, "Page not found", "Страница не найдена"),
    "500": ("/test-errors/500/", 500, "Server error", "Ошибка сервера"),
}


@override_settings(ROOT_URLCONF="tests.federation.error_urls", DEBUG=False, SITE_NAME="Test Chess Federation")
class ErrorPageTestCase(BaseTestCase):
    def get(self, path, language):
        client = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE=language)
        return client.get(path)

    def test_it_shows_each_error_in_the_layout_in_english_and_russian(self):
        for name, (path, status, english, russian) in PAGES.items():
            for language, message in (("en", english), ("ru", russian)):
                response = self.get(path, language)
                assert response.status_code == status, (name, language)
                text = response.content.decode()
                assert '<a class="brand" href="/">Test Chess Federation</a>' in text, (name, language)
                assert f"<h1>{message}</h1>" in text, (name, language)
                assert f'<html lang="{language}">' in text, (name, language)

    def test_it_explains_a_form_sent_without_its_token(self):
        for language, message in (("en", "The form has expired"), ("ru", "Форма устарела")):
            client = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE=language)
            response = client.post(reverse("login"), {"username": "parent", "password": "x"})
            assert response.status_code == 403
            self.assertContains(response, "Test Chess Federation", status_code=403)
            self.assertContains(response, f"<h1>{message}</h1>", status_code=403)

    def test_it_renders_the_500_page_without_touching_the_database(self):
        request = RequestFactory().get("/")
        database = connections["default"]
        with (
            translation.override("en"),
            CaptureQueriesContext(database) as queries,
            mock.patch.object(
                type(database), "ensure_connection", side_effect=OperationalError("the database is down")
            ),
        ):
            response = errors.server_error(request)
        assert response.status_code == 500
        assert len(queries) == 0
        assert "Test Chess Federation" in response.content.decode()
        assert "<h1>Server error</h1>" in response.content.decode()

    def test_it_falls_back_to_plain_html_when_the_500_page_cannot_render(self):
        with mock.patch("federation.errors.loader.get_template", side_effect=RuntimeError("broken template")):
            response = errors.server_error(RequestFactory().get("/"))
        assert response.status_code == 500
        assert b"Server error (500)" in response.content


@pytest.mark.parametrize("name", sorted(PAGES))
def test_it_has_a_template_for_every_error_page(name):
    from django.template.loader import get_template

    assert "base.html" in get_template(f"{name}.html").template.source


@override_settings(ROOT_URLCONF="tests.federation.error_urls", DEBUG=False)
class ErrorPagesAsMakeRunServesThemTestCase(BaseTestCase):
    """`make run` serves with DEBUG off: a stranger's mistake shows the site's page, styled by the
    stylesheet WhiteNoise serves (the test client serves no static file of its own), and nothing of
    the server's insides."""

    def test_it_shows_its_own_styled_pages_and_no_debug_text_in_both_languages(self):
        import django
        from django.conf import settings

        for name, (path, status, english, russian) in PAGES.items():
            for language, message in (("en", english), ("ru", russian)):
                client = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE=language)
                response = client.get(path)
                text = response.content.decode()
                assert response.status_code == status, (name, language)
                assert f"<h1>{message}</h1>" in text, (name, language)
                # The default name, translated: the 500 page has it too, without context processors.
                brand = "Chess Federation Ratings" if language == "en" else "Рейтинги шахматной федерации"
                assert f'<a class="brand" href="/">{brand}</a>' in text, (name, language)
                stylesheet = re.search(r'<link rel="stylesheet" href="([^"]+)">', text).group(1)
                css = client.get(stylesheet)
                assert (css.status_code, css["Content-Type"].split(";")[0]) == (200, "text/css"), stylesheet
                assert b".site-header" in b"".join(css.streaming_content)
                for leak in (
                    "Traceback",
                    "Django",
                    "DEBUG",
                    "Using the URLconf",
                    "something broke",  # the 500 view's exception
                    "RuntimeError",
                    "makes no sense",  # the 400 view's
                    str(settings.BASE_DIR),
                    django.get_version(),
                    "style=",
                    "<style",
                ):
                    assert leak not in text, (name, language, leak)
