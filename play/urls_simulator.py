"""The phone simulator's URLs (DEBUG only: play/urls.py includes them only then)."""

from django.urls import path

from play import views_simulator as views

urlpatterns = [
    path("simulator/", views.simulator, name="simulator"),
    path("simulator/new/", views.practice, name="simulator_new"),
    path("simulator/<str:code>/<str:color>/", views.phone, name="simulator_phone"),
    path("simulator/<str:code>/<str:color>/send/", views.send, name="simulator_send"),
]
