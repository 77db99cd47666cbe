"""The TD's desk under /play/desk/."""

from django.urls import path

from play.desk import challenge_views, leave_views, views

urlpatterns: list = [
    path("desk/", views.desk_list, name="desk_list"),
    path("desk/sanctions/", views.desk_sanctions, name="desk_sanctions"),
    path("desk/challenges/", challenge_views.desk_challenges, name="desk_challenges"),
    path("desk/challenges/claim/", challenge_views.desk_challenge_claim, name="desk_challenge_claim"),
    path("desk/<int:event_id>/", views.desk_event, name="desk"),
    path("desk/<int:event_id>/games/<str:code>/", views.desk_file, name="desk_file"),
    path("desk/<int:event_id>/games/<str:code>/claim/", views.desk_claim, name="desk_claim"),
    path("desk/<int:event_id>/decide/", views.desk_decide, name="desk_decide"),
    path("desk/<int:event_id>/withdraw/", views.desk_withdraw, name="desk_withdraw"),
    path("desk/<int:event_id>/enquiries/", views.desk_enquiry, name="desk_enquiry"),
    path("desk/<int:event_id>/enquiries/<int:pk>/close/", views.desk_enquiry_close, name="desk_enquiry_close"),
    path("desk/<int:event_id>/handled/", views.desk_handled, name="desk_handled"),
    path("desk/decisions/<int:pk>/", views.decision_page, name="desk_decision"),
    path("desk/decisions/<int:pk>/rule/", views.decision_rule, name="desk_appeal_rule"),
    path("desk/<int:event_id>/leave/<int:pk>/", leave_views.desk_leave, name="desk_leave"),
    path("games/<str:code>/appeal/", views.game_appeal, name="game_appeal"),
    path("games/<str:code>/leave/", leave_views.game_leave, name="game_leave"),
    path("games/<str:code>/dispute/", views.game_dispute, name="game_dispute"),
]
