from django.urls import path

from ratings.whatif import views

app_name = "whatif"
urlpatterns = [path("", views.calculator, name="calculator")]
