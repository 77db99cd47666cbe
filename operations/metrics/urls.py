from django.urls import path

from operations.metrics import views

urlpatterns = [path("metrics", views.metrics, name="metrics")]
