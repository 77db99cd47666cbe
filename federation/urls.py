from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from federation import accounts, errors, views

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
    path("players/", include("players.urls")),
    path("tournaments/", include("tournaments.urls")),
    path("arbiter/", include("tournaments.arbiter_urls")),
    path("ratings/", include("ratings.urls")),
    path("play/", include("play.urls")),
    path("api/", include("federation.api_urls")),
    path("staff/", include("federation.staff_urls")),
    path("admin/", admin.site.urls),
]

# Error pages in the site's layout and language (templates/400.html and the others); the 500
# page is rendered without the database (federation/errors.py).
handler500 = errors.server_error
