from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from federation import accounts, errors, views
from players import urls as player_urls
from ratings import application_views
from tournaments import player_views

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
    path("", views.home, name="home"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/login/", accounts.ThrottledLoginView.as_view(), name="login"),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/confirm/resend/", accounts.resend_confirmation, name="resend_confirmation"),
    path("accounts/confirm/<str:token>/", accounts.confirm, name="confirm"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/password/reset/", accounts.PasswordResetView.as_view(), name="password_reset"),
    path("accounts/password/reset/sent/", auth_views.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path(
        "accounts/password/reset/<uidb64>/<token>/",
        accounts.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "accounts/password/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("players/", include((players_patterns, player_urls.app_name))),
    path("tournaments/", include("tournaments.urls")),
    path("arbiter/", include("tournaments.arbiter_urls")),
    path("ratings/", include("ratings.urls")),
    path("play/", include("play.urls")),
    path("api/", include("federation.api_urls")),
    path("staff/", include("federation.staff_urls")),
    path("help/", include("guides.urls")),
    path("admin/", admin.site.urls),
]

# Error pages in the site's layout and language (templates/400.html and the others); the 500
# page is rendered without the database (federation/errors.py).
handler500 = errors.server_error
