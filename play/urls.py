"""Mobile chess URLs: the game pages (play/urls_game.py) and the events and records around them
(play/urls_events.py), challenge games (play/urls_challenge.py), the player's phones and chats
(play/urls_channels.py) and the TD's desk (play/desk/urls.py), under one namespace."""

from django.conf import settings
from django.urls import include, path

from play import urls_challenge, urls_channels, urls_events, urls_game

app_name = "play"

urlpatterns = [
    path("", include(urls_game)),
    path("", include(urls_events)),
    path("", include(urls_challenge)),
    path("", include(urls_channels)),
    path("", include("play.urls_hooks")),
    path("", include("play.desk.urls")),
    path("", include("play.computer.urls")),
]

if settings.DEBUG:
    # The phone simulator, for development only (its views also refuse when DEBUG is off).
    urlpatterns.append(path("", include("play.urls_simulator")))
