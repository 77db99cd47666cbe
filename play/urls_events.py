"""Mobile events, their crosstables, records and PGN; the old TD's list now redirects to the desk."""

from django.urls import path
from django.views.generic.base import RedirectView

from play import views_events

urlpatterns: list = [
    path("", views_events.events, name="events"),
    path("events/new/", views_events.event_new, name="event_new"),
    path("events/<slug:code>/", views_events.event, name="event"),
    path("events/<slug:code>/live/", views_events.event_live, name="event_live"),
    path("events/<slug:code>/pgn", views_events.event_pgn, name="event_pgn"),
    path("games/<str:code>/pgn", views_events.game_pgn, name="game_pgn"),
    # The TD's list of before the desk: the desk is the TD's one place now (bookmarks still work).
    path("td/", RedirectView.as_view(pattern_name="play:desk_list", permanent=True), name="td"),
]
