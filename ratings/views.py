import datetime

from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django_tables2 import RequestConfig

from ratings import exports, selectors
from ratings.filters import RatingListFilter, clean_month
from ratings.models import RatingList, System
from ratings.tables import RankedRowsData, RatingListTable
from toolkit.pagecache import cache_public_page


class CountedPaginator(Paginator):
    """A paginator told its count, because counting the ranked queryset would rank every row."""

    def __init__(self, object_list, per_page, *args, total: int, **kwargs):
        super().__init__(object_list, per_page, *args, **kwargs)
        self._total = total

    @property
    def count(self) -> int:
        return self._total


DOWNLOAD_TYPES = {
    "csv": "text/csv; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}


def list_queryset(request, system: str):
    """The filtered list the page, the downloads and the API show: live, or a published month."""
    if system not in System.values:
        raise Http404("No such rating system")
    # A malformed month shows the live list, empty, with the form's error; a well-formed month
    # without a published list is a page that does not exist.
    month = clean_month(request.GET.get("month"))
    if month is None:
        base, reference, rating_list = selectors.live_list(system=system), None, None
    else:
        rating_list = get_object_or_404(RatingList, system=system, month=month)
        base, reference = selectors.published_list(rating_list=rating_list), month
    filterset = RatingListFilter(request.GET, queryset=base, reference=reference, live=month is None)
    queryset = filterset.qs  # an invalid filter value shows an empty list and the form's errors
    return filterset, queryset, rating_list


@cache_public_page
def rating_list(request, system: str):
    filterset, queryset, rating_list = list_queryset(request, system)
    valid = filterset.is_valid()
    download = request.GET.get("download")
    if download in DOWNLOAD_TYPES and valid:
        rows = selectors.list_export_rows(system=system, queryset=queryset)
        month = rating_list.month.strftime("%Y-%m") if rating_list else datetime.date.today().isoformat()  # noqa: DTZ011
        response = HttpResponse(exports.WRITERS[download](rows), content_type=DOWNLOAD_TYPES[download])
        response["Content-Disposition"] = f'attachment; filename="{system}-{month}.{download}"'
        return response
    by_rating = request.GET.get("sort", "-rating") == "-rating"
    rows, total = selectors.list_rows(queryset, by_rating=by_rating)
    if by_rating:
        rows = RankedRowsData(rows)
    table = RatingListTable(rows, live=rating_list is None)
    RequestConfig(request, paginate={"per_page": 50, "paginator_class": CountedPaginator, "total": total}).configure(
        table
    )
    query = request.GET.copy()
    query.pop("page", None)  # the download links and the month picker: every row, from page 1
    query.pop("download", None)
    # What the month picker carries along, so that choosing a month keeps the filters and the sort.
    kept = [(key, value) for key, values in query.lists() if key != "month" for value in values if value]
    context = {
        "table": table,
        "filter": filterset,
        "system": system,
        "system_label": System(system).label,
        "systems": System.choices,
        "rating_list": rating_list,
        "months": selectors.published_months(system=system),
        "query": query.urlencode(),
        "kept": kept,
        "sort": request.GET.get("sort", ""),
        "filtered": any(v for k, v in request.GET.items() if k not in ("page", "sort", "month")),
        "title": _("%(system)s rating list") % {"system": System(system).label},
    }
    return render(request, "ratings/list.html", context, status=200 if valid else 400)


@cache_public_page
def index(request):
    """/ratings/: the four lists, what each measures, the live list and the latest published one."""
    latest = selectors.latest_published_months()
    systems = [{"value": value, "label": label, "latest": latest.get(value)} for value, label in System.choices]
    return render(request, "ratings/index.html", {"systems": systems})


@cache_public_page
def about(request):
    return render(request, "ratings/about.html")
