from django.http import Http404
from django.shortcuts import render
from django.utils.translation import get_language

from guides import render as rendering
from guides.catalogue import BY_SLUG, GUIDES


def index(request):
    return render(request, "guides/index.html", {"guides": GUIDES})


def guide(request, slug: str):
    found = BY_SLUG.get(slug)
    if found is None:
        raise Http404("No such guide.")
    language = (get_language() or "en").split("-")[0]
    page = rendering.render(found.source(language))
    return render(request, "guides/guide.html", {"guide": found, "page": page, "guides": GUIDES})
