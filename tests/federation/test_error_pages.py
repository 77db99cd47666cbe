"""Error pages in the site's layout and the visitor's language (with DEBUG off, as in production)."""

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
