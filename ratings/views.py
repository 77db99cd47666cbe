from django.http import Http404
from django.shortcuts import render
from django_tables2 import RequestConfig

from ratings import selectors
from ratings.models import System
from ratings.tables import RatingListTable


def rating_list(request, system: str):
    if system not in System.values:
        raise Http404("No such rating system")
    table = RatingListTable(selectors.rating_list(system=system))
    RequestConfig(request, paginate={"per_page": 50}).configure(table)
    return render(
        request,
        "ratings/list.html",
        {"table": table, "system": system, "system_label": System(system).label, "systems": System.choices},
    )
