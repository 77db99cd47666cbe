"""The API's OpenAPI schema (/api/openapi.json) describes its endpoints and their answers, and the
interactive documentation (/api/docs) is served from the site's own static files (the CSP forbids
a CDN; tests/browser/test_api_docs.py runs it in Chromium)."""

import json
import re

from django.contrib.staticfiles import finders
from django.test import override_settings

from api import schemas
from tests.base import BaseTestCase
from tests.players.factories import PlayerFactory


class OpenApiTestCase(BaseTestCase):
    def schema(self) -> dict:
        response = self.client.get("/api/openapi.json")
        assert response.status_code == 200
        assert response["Content-Type"] == "application/json"
        return json.loads(response.content)

    def test_it_describes_every_endpoint_with_its_answers(self):
        schema = self.schema()
        assert schema["openapi"].startswith("3.")
        paths = schema["paths"]
        assert set(paths) == {
            "/api/lists/{system}/",
            "/api/players/{federation_id}/",
            "/api/tournaments/{pk}/",
            "/api/gcr/",
            "/api/systems/accuracy/",
        }
        answers = {
            "/api/gcr/": {"200": "GcrAnswer", "400": "Errors", "429": "TooManyRequests"},
            "/api/lists/{system}/": {"200": "RatingList", "400": "Errors", "404": "Errors", "429": "TooManyRequests"},
            "/api/players/{federation_id}/": {"200": "Player", "429": "TooManyRequests"},
            "/api/tournaments/{pk}/": {"200": "Tournament", "429": "TooManyRequests"},
            "/api/systems/accuracy/": {"200": "Accuracy", "429": "TooManyRequests"},
        }
        for path, by_status in answers.items():
            operation = paths[path]["get"]
            assert set(paths[path]) == {"get"}
            for status, name in by_status.items():
                assert operation["responses"][status]["content"]["application/json"]["schema"] == {
                    "$ref": f"#/components/schemas/{name}"
                }
        filters = {p["name"] for p in paths["/api/lists/{system}/"]["get"]["parameters"] if p["in"] == "query"}
        assert {
            "name",
            "age_group",
            "birth_year",
            "sex",
            "club",
            "region",
            "active",
            "provisional",
            "month",
            "page",
        } == (filters)
        gcr_filters = {p["name"] for p in paths["/api/gcr/"]["get"]["parameters"] if p["in"] == "query"}
        assert gcr_filters == {
            "tournament",
            "since",
            "until",
            "days",
            "club",
            "region",
            "age_group",
            "born_from",
            "born_until",
            "kind",
            "rated",
        }
        components = schema["components"]["schemas"]
        assert components["ListRow"]["properties"]["last_played"]["anyOf"][0] == {"format": "date", "type": "string"}
        assert "birth_date" not in components["Player"]["required"]

    def test_it_serves_the_interactive_docs_from_the_sites_own_static_files(self):
        response = self.client.get("/api/docs")
        assert response.status_code == 200
        html = response.content.decode()
        assets = re.findall(r'(?:src|href)="([^"]+)"', html)
        assert "/static/ninja/swagger-ui-bundle.js" in assets and "/static/ninja/swagger-ui.css" in assets
        assert all(asset.startswith("/static/ninja/") for asset in assets), assets
        assert "//" not in "".join(assets)  # nothing from another origin (the CSP would block it)
        # No inline script (the CSP forbids it): the settings are a JSON data block.
        assert re.findall(r"<script(?![^>]*\bsrc=)([^>]*)>", html) == [' type="application/json" id="swagger-settings"']
        assert '"url": "/api/openapi.json"' in html
        for asset in assets:
            assert finders.find(asset.removeprefix("/static/")), asset
        assert "Content-Security-Policy" in response

    @override_settings(API_RATE_LIMIT="1/minute")
    def test_its_429_answer_has_the_schemas_shape(self):
        """The refusal is answered outside ninja (by the limit around each endpoint): it still
        matches its schema."""
        url = f"/api/players/{PlayerFactory().federation_id}/"
        assert self.client.get(url).status_code == 200
        refused = self.client.get(url)
        assert refused.status_code == 429
        body = json.loads(refused.content)
        assert schemas.TooManyRequests.model_validate(body).model_dump() == body

    def test_the_schema_and_docs_are_not_counted_or_cached(self):
        response = self.client.get("/api/openapi.json")
        assert "X-RateLimit-Limit" not in response
        assert self.client.post("/api/openapi.json").status_code == 405
