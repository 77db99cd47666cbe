from django.urls import path

from guides import views

app_name = "guides"

urlpatterns = [
    path("", views.index, name="index"),
    path("<slug:slug>/", views.guide, name="guide"),
]
