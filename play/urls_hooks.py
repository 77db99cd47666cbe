"""Machine-to-machine endpoints under /play/hooks/: fixed URLs the gateways are configured with."""

from django.urls import path

from play import hooks

urlpatterns = [
    path("hooks/sms/", hooks.sms_hook, name="hook_sms"),
    path("hooks/telegram/", hooks.telegram_hook, name="hook_telegram"),
]
