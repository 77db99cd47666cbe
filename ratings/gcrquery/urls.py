from django.urls import path

from ratings.gcrquery import views

app_name = "gcrquery"
urlpatterns = [path("", views.gcr_filter, name="filter")]
