"""Mobile events, their crosstables, records and PGN; the TD's list."""

from django.urls import path

from play import views_events

urlpatterns: list = [
    path("", views_events.events, name="events"),
    path("events/new/", views_events.event_new, name="event_new"),
    path("events/<slug:code>/", views_events.event, name="event"),
    path("events/<slug:code>/live/", views_events.event_live, name="event_live"),
    path("events/<slug:code>/pgn", views_events.event_pgn, name="event_pgn"),
    path("games/<str:code>/pgn", views_events.game_pgn, name="game_pgn"),
    path("td/", views_events.td, name="td"),
    path("td/decide/", views_events.td_decide, name="td_decide"),
]
