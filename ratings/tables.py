import django_tables2 as tables
from django.utils.translation import gettext_lazy as _
from django_tables2.data import TableListData


class RatingListTable(tables.Table):
    """Columns, sorting and pagination of the live and published lists. The rows themselves are written
    out by templates/ratings/_list_table.html: per-cell rendering was most of a 100,000-player page's time."""

    place = tables.Column(verbose_name=_("Rank"), orderable=False, attrs={"td": {"class": "num"}})
    name = tables.Column(
        verbose_name=_("Name"),
        accessor="player__family_name",
        order_by=("player__family_name", "player__given_names"),
    )
    rating = tables.Column(verbose_name=_("Rating"), attrs={"td": {"class": "num"}})
    birth_year = tables.Column(verbose_name=_("Born"), accessor="player__birth_date", attrs={"td": {"class": "num"}})
    club = tables.Column(verbose_name=_("Club"), accessor="player__club__name", default="")
    region = tables.Column(verbose_name=_("Region"), accessor="player__region__name", default="")
    games = tables.Column(verbose_name=_("Games"), attrs={"td": {"class": "num"}})
    last_played = tables.DateColumn(verbose_name=_("Last played"), format="Y-m-d", default="")

    class Meta:
        attrs = {"class": "table rating-list", "id": "rating-list"}
        order_by = "-rating"
        template_name = "django_tables2/table.html"
        empty_text = _("No player matches these filters.")

    def __init__(self, *args, live: bool = True, **kwargs):
        super().__init__(*args, exclude=() if live else ("last_played",), **kwargs)


class RankedRowsData(TableListData):
    """Rows of selectors.RankedFew or RankedPage: already in rank order, read a page at a time.

    The view uses it only for the rank order, so there is nothing to sort; and the list is not
    copied (the default for list data), which would read every row one by one.
    """

    def order_by(self, aliases):
        pass
