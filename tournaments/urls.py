"""The tournaments' URLs (namespace "tournaments", mounted at /tournaments/): each room with pages
brings its own urls.py. The arbiters' area has its own namespace and root: arbiter_urls.py."""

from django.urls import include, path

app_name = "tournaments"
urlpatterns = [
    path("", include("tournaments.public.urls")),
]
