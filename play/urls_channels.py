"""My phones and chats: a player's SMS number and Telegram chat, and the daily e-mail digest."""

from django.urls import path

from play import views_channels

urlpatterns = [
    path("channels/", views_channels.channels_page, name="channels"),
    path("channels/digest/", views_channels.digest_choice, name="channels_digest"),
    path("channels/<int:pk>/sms/", views_channels.sms_request, name="channels_sms"),
    path("channels/<int:pk>/sms/confirm/", views_channels.sms_confirm, name="channels_sms_confirm"),
    path("channels/<int:pk>/telegram/", views_channels.telegram_code, name="channels_telegram"),
    path("channels/<int:pk>/language/", views_channels.language_choice, name="channels_language"),
    path("channels/<int:pk>/<str:channel>/remove/", views_channels.address_remove, name="channels_remove"),
]
