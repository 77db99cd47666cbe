"""The accounts' pages under /accounts/: included without a namespace (the names are Django's own:
login, logout, password_reset, ...)."""

from django.contrib.auth import views as auth_views
from django.urls import path

from accounts import views

urlpatterns = [
    path("login/", views.ThrottledLoginView.as_view(), name="login"),
    path("signup/", views.signup, name="signup"),
    path("confirm/resend/", views.resend_confirmation, name="resend_confirmation"),
    path("confirm/<str:token>/", views.confirm, name="confirm"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password/reset/", views.PasswordResetView.as_view(), name="password_reset"),
    path("password/reset/sent/", auth_views.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path(
        "password/reset/<uidb64>/<token>/",
        views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "password/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
]
