"""The operators' endpoints, mounted at the site's root (federation/urls.py): /health/, /metrics.
Each room of the app adds its own urls.py to this list."""

from django.urls import include, path

app_name = "operations"

urlpatterns: list = [
    path("", include("operations.health.urls")),
    path("", include("operations.metrics.urls")),
]
