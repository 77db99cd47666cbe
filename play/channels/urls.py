"""The channels' URLs: the player's phones and chats ("My phones and chats", with the daily e-mail
digest), the gateways' webhooks under /play/hooks/ (fixed URLs the gateways are configured with),
and the phone simulator's, which play/urls.py includes only when DEBUG is on at start."""

from django.urls import path

from play.channels import hooks, hooks_twilio, simulator, views

urlpatterns = [
    path("channels/", views.channels_page, name="channels"),
    path("channels/digest/", views.digest_choice, name="channels_digest"),
    path("channels/<int:pk>/sms/", views.sms_request, name="channels_sms"),
    path("channels/<int:pk>/sms/confirm/", views.sms_confirm, name="channels_sms_confirm"),
    path("channels/<int:pk>/telegram/", views.telegram_code, name="channels_telegram"),
    path("channels/<int:pk>/language/", views.language_choice, name="channels_language"),
    path("channels/<int:pk>/<str:channel>/remove/", views.address_remove, name="channels_remove"),
    # Machine to machine: the gateways call these.
    path("hooks/sms/", hooks.sms_hook, name="hook_sms"),
    path("hooks/telegram/", hooks.telegram_hook, name="hook_telegram"),
    path("hooks/twilio/", hooks_twilio.twilio_hook, name="hook_twilio"),
    path("hooks/twilio/status/", hooks_twilio.twilio_status_hook, name="hook_twilio_status"),
]

# DEBUG only (play/urls.py decides, so a test that turns DEBUG on re-reads play/urls.py alone).
simulator_urlpatterns = [
    path("simulator/", simulator.simulator, name="simulator"),
    path("simulator/new/", simulator.practice, name="simulator_new"),
    path("simulator/<str:code>/<str:color>/", simulator.phone, name="simulator_phone"),
    path("simulator/<str:code>/<str:color>/send/", simulator.send, name="simulator_send"),
]
