from django.urls import path

from federation import api

app_name = "api"
urlpatterns = [
    path("", api.index, name="index"),
    path("lists/<slug:system>/", api.rating_list, name="list"),
    path("players/<int:federation_id>/", api.player, name="player"),
    path("tournaments/<int:pk>/", api.tournament, name="tournament"),
]
