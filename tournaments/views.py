from django.contrib.auth.decorators import login_required
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


@login_required
def arbiter_home(request):
    context = {
        "tournaments": selectors.arbiter_tournaments(user=request.user)[:100],
        "uploads": selectors.arbiter_uploads(user=request.user)[:100],
    }
    return render(request, "tournaments/arbiter_home.html", context)
