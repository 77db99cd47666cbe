from django.urls import path

from tournaments.public import views

# Included by tournaments/urls.py, whose namespace ("tournaments") these names live in.
urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("<int:pk>/", views.tournament_detail, name="detail"),
    path("<int:pk>/players/<int:player_id>/", views.player_calculation, name="player_calculation"),
]
