"""The game page, its live parts and the player's own games."""

urlpatterns: list = []
