"""The API's interactive documentation (/api/docs, django-ninja's Swagger UI from the site's own
static files) works under the site's Content-Security-Policy: it loads nothing from another origin,
breaks no rule of the policy (the page fixture checks the console), lists the endpoints from
/api/openapi.json and runs one."""

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_api_docs_run_under_the_sites_policy(live_server, page):
    origins = set()
    page.on("request", lambda request: origins.add(request.url.split("/")[2]))
    page.goto(f"{live_server.url}/api/docs")
    page.get_by_text("/api/lists/{system}/").first.wait_for()
    assert page.get_by_text("/api/players/{federation_id}/").first.is_visible()
    assert page.get_by_text("/api/tournaments/{pk}/").first.is_visible()
    assert origins == {live_server.url.split("/")[2]}, origins
