"""Player pages that combine players, their ratings and their tournaments: they live in the highest
of those apps and are routed under the players' URL names by federation/urls.py."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render

from players.selectors import (
    follow_of,
    link_offer,
    linked_accounts,
    may_apply_for_fide_import,
    player_by_federation_id,
    public_birth,
)
from ratings import selectors as rating_selectors
from toolkit.pagecache import cache_public_page
from tournaments import selectors as tournament_selectors


@cache_public_page
def player_detail(request, federation_id: int):
    player = player_by_federation_id(federation_id)
    if player.merged_into_id:
        # A merged duplicate keeps its address: old links lead to the record that replaced it.
        return redirect(player.merged_into)
    page = rating_selectors.player_page(player=player)
    context = {
        "player": player,
        "birth": public_birth(player=player, user=request.user),
        "follow": follow_of(user=request.user, player=player),
        **page,
        "games": tournament_selectors.player_games(player=player, changes=page["changes"]),
        "may_apply": may_apply_for_fide_import(player=player, fide_import=page["fide_import"]),
        # Per account, so never in a cached page: the page cache stores anonymous answers only.
        "link_offer": link_offer(user=request.user, player=player),
        "linked_accounts": linked_accounts(player=player) if request.user.has_perm("players.view_playerlink") else [],
    }
    return render(request, "players/detail.html", context)


@login_required
def following(request):
    return render(request, "players/following.html", {"rows": tournament_selectors.followed_players(user=request.user)})
