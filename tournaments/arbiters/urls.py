from django.urls import path

from tournaments.arbiters import views

# Included by tournaments/arbiter_urls.py, whose namespace ("arbiter") these names live in.
urlpatterns = [
    path("", views.arbiter_home, name="home"),
    path("upload/", views.upload, name="upload"),
    path("uploads/<int:pk>/", views.preview, name="preview"),
    path("uploads/<int:pk>/reading/", views.reading_progress, name="reading_progress"),
    path("uploads/<int:pk>/progress/", views.upload_progress, name="upload_progress"),
    path("tournaments/<int:pk>/", views.tournament, name="tournament"),
    path("tournaments/<int:pk>/file/", views.tournament_file, name="tournament_file"),
]
