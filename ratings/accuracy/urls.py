from django.urls import path

from ratings.accuracy import views

app_name = "accuracy"
urlpatterns = [path("", views.accuracy_page, name="page")]
