"""Mobile events, their crosstables, records and PGN, and challenge games outside events; the old
TD's list now redirects to the desk."""

from django.urls import path
from django.views.generic.base import RedirectView

from play.events import challenge_views, views

urlpatterns: list = [
    path("", views.events, name="events"),
    path("events/new/", views.event_new, name="event_new"),
    path("events/<slug:code>/", views.event, name="event"),
    path("events/<slug:code>/live/", views.event_live, name="event_live"),
    path("events/<slug:code>/pgn", views.event_pgn, name="event_pgn"),
    path("games/<str:code>/pgn", views.game_pgn, name="game_pgn"),
    # The TD's list of before the desk: the desk is the TD's one place now (bookmarks still work).
    path("td/", RedirectView.as_view(pattern_name="play:desk_list", permanent=True), name="td"),
    path("challenges/", challenge_views.challenge_list, name="challenges"),
    path("challenges/<int:pk>/answer/", challenge_views.challenge_answer, name="challenge_answer"),
    path("challenges/<int:pk>/withdraw/", challenge_views.challenge_withdraw, name="challenge_withdraw"),
]
