from django.urls import include, path

from ratings import views

app_name = "ratings"
urlpatterns = [
    path("", views.index, name="index"),
    path("about/", views.about, name="about"),
    path("accuracy/", include("ratings.accuracy.urls")),
    path("<slug:system>/", views.rating_list, name="list"),
]
