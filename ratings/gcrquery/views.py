"""The GCR document's own page: GCR recomputed from the games that pass the filters (GET: the URL
is the filter, to share)."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.shortcuts import render
from django.views.decorators.http import require_GET

from ratings.gcrquery.forms import GcrFilterForm
from ratings.gcrquery.selectors import gcr_over

PER_PAGE = 100


@require_GET
def gcr_filter(request):
    form = GcrFilterForm(request.GET)
    answer = gcr_over(form.query()) if form.is_valid() else None
    page = None
    if answer is not None:
        ranked = [(place, row) for place, row in enumerate(answer["results"], start=1)]
        page = Paginator(ranked, PER_PAGE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    context = {"form": form, "answer": answer, "page": page, "query": query.urlencode(), "filtered": bool(query)}
    return render(request, "ratings/gcr_filter.html", context, status=200 if form.is_valid() else 400)
