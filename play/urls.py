"""Mobile chess URLs: the game pages (play/urls_game.py) and the events and records around them
(play/urls_events.py) and challenge games (play/urls_challenge.py), under one namespace."""

from django.urls import include, path

from play import urls_challenge, urls_events, urls_game

app_name = "play"

urlpatterns = [
    path("", include(urls_game)),
    path("", include(urls_events)),
    path("", include(urls_challenge)),
    path("", include("play.urls_hooks")),
    path("", include("play.computer.urls")),
]
