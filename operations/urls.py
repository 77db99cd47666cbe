"""The operators' endpoints, mounted at the site's root (federation/urls.py): /health/, /metrics.
Each room of the app adds its own urls.py to this list."""

urlpatterns: list = []
