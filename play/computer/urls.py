"""Computer opponents' pages."""

from django.urls import path

from play.computer import views

urlpatterns = [
    path("computer/", views.play_computer, name="computer"),
    path("computers/", views.computers, name="computers"),
]
