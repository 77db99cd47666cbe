"""Machine-to-machine endpoints under /play/hooks/: fixed URLs the gateways are configured with."""

from django.urls import path

from play import hooks, hooks_twilio

urlpatterns = [
    path("hooks/sms/", hooks.sms_hook, name="hook_sms"),
    path("hooks/telegram/", hooks.telegram_hook, name="hook_telegram"),
    path("hooks/twilio/", hooks_twilio.twilio_hook, name="hook_twilio"),
    path("hooks/twilio/status/", hooks_twilio.twilio_status_hook, name="hook_twilio_status"),
]
