from django.urls import path

from tournaments import arbiter_views

app_name = "arbiter"
urlpatterns = [
    path("", arbiter_views.arbiter_home, name="home"),
    path("upload/", arbiter_views.upload, name="upload"),
    path("uploads/<int:pk>/", arbiter_views.preview, name="preview"),
    path("uploads/<int:pk>/progress/", arbiter_views.upload_progress, name="upload_progress"),
    path("tournaments/<int:pk>/", arbiter_views.tournament, name="tournament"),
    path("tournaments/<int:pk>/file/", arbiter_views.tournament_file, name="tournament_file"),
]
