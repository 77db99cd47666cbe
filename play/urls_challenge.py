"""Challenge games outside events."""

from django.urls import path

from play import views_challenge

urlpatterns = [
    path("challenges/", views_challenge.challenge_list, name="challenges"),
    path("challenges/<int:pk>/answer/", views_challenge.challenge_answer, name="challenge_answer"),
    path("challenges/<int:pk>/withdraw/", views_challenge.challenge_withdraw, name="challenge_withdraw"),
]
