from django.urls import path

from tournaments.corrections import views as staff_views

app_name = "staff"
urlpatterns = [
    path("tournaments/<int:pk>/withdraw/", staff_views.tournament_withdraw, name="withdraw"),
    path("tournaments/<int:pk>/rating-retry/", staff_views.rating_retry, name="rating_retry"),
    path("games/<int:pk>/", staff_views.game_correct, name="game"),
    path("players/merge/", staff_views.players_merge, name="merge"),
    path("players/<int:federation_id>/birth-date/", staff_views.birth_date_edit, name="birth_date"),
    path("audit/", staff_views.audit_log, name="audit"),
    path("evidence/<int:pk>/", staff_views.evidence, name="evidence"),
]
