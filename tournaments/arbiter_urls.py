from django.urls import path

from tournaments import views

app_name = "arbiter"
urlpatterns = [path("", views.arbiter_home, name="home")]
