"""The site's URLs for the events tests while the game page (URL name "play:game", built on
another branch in play/urls_game.py) is not in this checkout: the events' pages link to every
game with game.get_absolute_url(), which needs that name to exist. The route added here answers
with the game's code only; `events_helpers.game_route` uses this module only when the real
route is missing, so once the game page is merged the tests run on the site's own URLs."""

from django.http import HttpResponse
from django.urls import include, path

from federation import urls as site
from play import urls as play_urls


def _game(request, code):
    return HttpResponse(code, content_type="text/plain")


play_patterns = ([*play_urls.urlpatterns, path("games/<str:code>/", _game, name="game")], "play")
urlpatterns = [p for p in site.urlpatterns if str(p.pattern) != "play/"] + [path("play/", include(play_patterns))]
