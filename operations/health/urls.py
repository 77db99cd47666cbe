from django.urls import path

from operations.health import views

urlpatterns = [
    path("health/", views.health, name="health"),
    path("health/web/", views.health_web, name="health_web"),
]
