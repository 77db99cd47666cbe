"""Mobile chess URLs, one include per room, under one namespace: the game pages (play/web/urls.py),
events, their records and challenge games (play/events/urls.py), the player's phones and chats and
the gateways' webhooks (play/channels/urls.py), the TD's desk (play/desk/urls.py) and the
computer opponents (play/computer/urls.py)."""

from django.conf import settings
from django.urls import include, path

from play.channels import urls as channels_urls

app_name = "play"

urlpatterns = [
    path("", include("play.web.urls")),
    path("", include("play.events.urls")),
    path("", include(channels_urls.urlpatterns)),
    path("", include("play.desk.urls")),
    path("", include("play.computer.urls")),
]

if settings.DEBUG:
    # The phone simulator, for development only (its views also refuse when DEBUG is off).
    urlpatterns.append(path("", include(channels_urls.simulator_urlpatterns)))
