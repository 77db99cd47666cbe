from django.urls import path

from ratings.opening import views

app_name = "opening"
urlpatterns = [path("", views.opening_list, name="list")]
