from django.core.paginator import Paginator
from django.shortcuts import render

from toolkit.pagecache import cache_public_page
from tournaments import selectors
from tournaments.public.filters import TournamentFilter


@cache_public_page
def tournament_list(request):
    filterset = TournamentFilter(request.GET, queryset=selectors.public_tournaments())
    page = Paginator(filterset.qs, 50).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    filtered = any(v for k, v in request.GET.items() if k != "page")
    context = {"page": page, "filter": filterset, "query": query.urlencode(), "filtered": filtered}
    return render(request, "tournaments/list.html", context, status=200 if filterset.is_valid() else 400)


@cache_public_page
def tournament_detail(request, pk: int):
    tournament = selectors.public_tournament(pk)
    context = {"tournament": tournament, **selectors.tournament_report(tournament=tournament)}
    return render(request, "tournaments/detail.html", context)


@cache_public_page
def player_calculation(request, pk: int, player_id: int):
    tournament = selectors.public_tournament(pk)
    context = {"tournament": tournament, **selectors.player_calculation(tournament=tournament, player_id=player_id)}
    return render(request, "tournaments/player_calculation.html", context)
