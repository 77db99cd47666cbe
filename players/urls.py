from django.urls import path

from players import application_views, follow_views, link_views

app_name = "players"
# The pages that show ratings or tournaments too are added under this namespace by federation/urls.py.
urlpatterns = [
    path("apply/", application_views.apply, name="apply"),
    path("applications/", application_views.my_applications, name="applications"),
    path("link/", link_views.link_request, name="link_request"),
    path("link/<int:pk>/revoke/", link_views.link_revoke, name="link_revoke"),
    path("mine/", link_views.my_links, name="my_links"),
    path("review/links/", link_views.link_queue, name="link_queue"),
    path("review/links/<int:pk>/", link_views.link_decide, name="link_decide"),
    path("<int:federation_id>/follow/", follow_views.follow, name="follow"),
]
