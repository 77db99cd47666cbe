"""The arbiters' area (namespace "arbiter", mounted at /arbiter/ by federation/urls.py): its pages
live in the arbiters room."""

from django.urls import include, path

app_name = "arbiter"
urlpatterns = [
    path("", include("tournaments.arbiters.urls")),
]
