import django_tables2 as tables
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _


class RatingListTable(tables.Table):
    """One table for live and published lists: both rows carry rank, player, rating, provisional, games."""

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

    def render_name(self, record):
        player = record.player
        title = player.latin_name if player.latin_name != player.full_name else ""
        return format_html(
            '<a href="{}" title="{}">{}</a>{}',
            player.get_absolute_url(),
            title,
            player.full_name,
            format_html(' <span class="badge">{}</span>', player.title) if player.title else "",
        )

    def render_rating(self, record):
        if record.provisional:
            return format_html('{}<abbr class="provisional" title="{}">*</abbr>', record.rating, _("provisional"))
        return record.rating

    def render_birth_year(self, record):
        return record.player.birth_year or ""
