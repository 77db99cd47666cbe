from django.contrib import admin
from django.urls import include, path

from federation import errors
from players import urls as player_urls
from ratings import application_views
from tournaments.public import home, player_views

# The players' pages, with those that combine a player's ratings and tournaments (they live in the
# higher apps: players imports neither ratings nor tournaments).
players_patterns = [
    *player_urls.urlpatterns,
    path("review/", application_views.review_queue, name="review_queue"),
    path("review/<int:pk>/", application_views.review, name="review"),
    path("following/", player_views.following, name="following"),
    path("<int:federation_id>/", player_views.player_detail, name="detail"),
]

urlpatterns = [
    path("", home.home, name="home"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/", include("accounts.urls")),
    path("players/", include((players_patterns, player_urls.app_name))),
    path("tournaments/", include("tournaments.urls")),
    path("arbiter/", include("tournaments.arbiter_urls")),
    path("ratings/whatif/", include("ratings.whatif.urls")),
    path("ratings/gcr/filter/", include("ratings.gcrquery.urls")),
    path("ratings/", include("ratings.urls")),
    path("play/", include("play.urls")),
    path("api/", include("api.urls")),
    path("staff/", include("tournaments.corrections.urls")),
    path("staff/opening-list/", include("ratings.opening.urls")),
    path("help/", include("guides.urls")),
    path("admin/", admin.site.urls),
    # /health/ and /metrics (operations/urls.py).
    path("", include("operations.urls")),
]

# Error pages in the site's layout and language (templates/400.html and the others); the 500
# page is rendered without the database (federation/errors.py).
handler500 = errors.server_error
