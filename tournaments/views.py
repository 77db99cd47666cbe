from django.core.paginator import Paginator
from django.shortcuts import render

from tournaments import selectors


def tournament_list(request):
    page = Paginator(selectors.public_tournaments(), 50).get_page(request.GET.get("page"))
    return render(request, "tournaments/list.html", {"page": page})


def tournament_detail(request, pk: int):
    tournament = selectors.public_tournament(pk)
    return render(
        request,
        "tournaments/detail.html",
        {"tournament": tournament, "standings": selectors.standings(tournament=tournament)},
    )
