from django.shortcuts import redirect, render

from players.selectors import player_by_federation_id
from ratings import selectors as rating_selectors
from ratings.models import System


def player_detail(request, federation_id: int):
    player = player_by_federation_id(federation_id)
    if player.merged_into_id:
        # A merged duplicate keeps its address: old links lead to the record that replaced it.
        return redirect(player.merged_into)
    ratings = rating_selectors.player_ratings(player=player)
    context = {
        "player": player,
        "ratings": [(value, label, ratings.get(value)) for value, label in System.choices],
        "history": rating_selectors.player_history(player=player),
    }
    return render(request, "players/detail.html", context)
