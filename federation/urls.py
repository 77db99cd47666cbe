from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from federation import accounts, views

urlpatterns = [
    path("", views.home, name="home"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/login/", accounts.ThrottledLoginView.as_view(), name="login"),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/confirm/<str:token>/", accounts.confirm, name="confirm"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("players/", include("players.urls")),
    path("tournaments/", include("tournaments.urls")),
    path("arbiter/", include("tournaments.arbiter_urls")),
    path("ratings/", include("ratings.urls")),
    path("api/", include("federation.api_urls")),
    path("staff/", include("federation.staff_urls")),
    path("admin/", admin.site.urls),
]
