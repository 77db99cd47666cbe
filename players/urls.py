from django.urls import path

from players import views

app_name = "players"
urlpatterns = [path("<int:federation_id>/", views.player_detail, name="detail")]
