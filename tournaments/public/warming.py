"""The pages a rating run warms before visitors are switched to its new data (settings.PAGE_CACHE_WARM,
toolkit/pagecache.py): the most visited ones. Here, in the public room of the highest app they
belong to (the ratings' pages and the tournaments')."""

from django.urls import reverse

from ratings.models import System
from tournaments import selectors as tournament_selectors

# The reports of this many tournaments rated last: a run rates one upload, a re-rating a few more.
JUST_RATED = 10


def most_visited_pages() -> list[str]:
    """Home, the list of the ratings and the first page of each list, the tournaments' list and the
    reports of the tournaments just rated. toolkit.pagecache renders each in every language."""
    pages = [reverse("home"), reverse("ratings:index"), reverse("tournaments:list")]
    pages += [reverse("ratings:list", args=[system]) for system in System.values]
    just_rated = tournament_selectors.just_rated_tournaments(limit=JUST_RATED)
    pages += [reverse("tournaments:detail", args=[pk]) for pk in just_rated]
    return pages
