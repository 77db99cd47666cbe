"""/api/: the page that describes the API, ninja's endpoints, its OpenAPI schema and its docs."""

from django.urls import path
from django.views.decorators.http import require_GET

from api import endpoints


def _ninja_patterns() -> list:
    """Ninja's patterns as the site's views answer: GET only, refused by Django's require_GET (an
    empty 405, logged) before ninja looks at the method; the site's CSRF check applies (ninja marks
    its views csrf_exempt), so a browser's POST is refused 403 first, as before ninja. Ninja's root
    ("api-root") is left out: it is the index's address; the schema's paths start from the index
    (FederationAPI.get_root_path)."""
    patterns = [pattern for pattern in endpoints.api.urls[0] if pattern.name != "api-root"]
    for pattern in patterns:
        pattern.callback = require_GET(pattern.callback)
        pattern.callback.csrf_exempt = False
    return patterns


app_name = "api"
urlpatterns = [
    path("", endpoints.index, name="index"),
    *_ninja_patterns(),
]
