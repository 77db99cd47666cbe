"""The game page, its live parts and the player's own games."""

from django.urls import path

from play.web import views

urlpatterns = [
    path("mine/", views.my_games, name="mine"),
    path("mine/live/", views.my_games_live, name="mine_live"),
    path("games/<str:code>/", views.game_page, name="game"),
    path("games/<str:code>/live/", views.game_live, name="live"),
    path("games/<str:code>/board/", views.game_board, name="board"),
    path("games/<str:code>/send/", views.game_send, name="send"),
    path("games/<str:code>/if/", views.game_conditional, name="conditional"),
    path("games/<str:code>/record/", views.game_record, name="record"),
]
