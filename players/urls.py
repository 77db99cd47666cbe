from django.urls import path

from players import application_views, follow_views, link_views, views

app_name = "players"
urlpatterns = [
    path("apply/", application_views.apply, name="apply"),
    path("applications/", application_views.my_applications, name="applications"),
    path("review/", application_views.review_queue, name="review_queue"),
    path("review/<int:pk>/", application_views.review, name="review"),
    path("link/", link_views.link_request, name="link_request"),
    path("link/<int:pk>/revoke/", link_views.link_revoke, name="link_revoke"),
    path("mine/", link_views.my_links, name="my_links"),
    path("review/links/", link_views.link_queue, name="link_queue"),
    path("review/links/<int:pk>/", link_views.link_decide, name="link_decide"),
    path("following/", follow_views.following, name="following"),
    path("<int:federation_id>/follow/", follow_views.follow, name="follow"),
    path("<int:federation_id>/", views.player_detail, name="detail"),
]
