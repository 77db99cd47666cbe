"""The home page: the top of each rating list and the latest rated tournaments (tournaments may read ratings)."""

from django.shortcuts import render

from ratings import selectors as rating_selectors
from ratings.models import System
from toolkit.pagecache import cache_public_page
from tournaments import selectors as tournament_selectors


@cache_public_page
def home(request):
    context = {
        "systems": System.choices,
        "top_lists": rating_selectors.home_top_lists_cached(),
        "latest_tournaments": tournament_selectors.latest_rated_tournaments(limit=8),
    }
    return render(request, "home.html", context)
