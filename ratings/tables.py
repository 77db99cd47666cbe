import django_tables2 as tables
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from ratings.models import PlayerRating


class RatingListTable(tables.Table):
    rank = tables.Column(verbose_name=_("Rank"), orderable=False)
    name = tables.Column(verbose_name=_("Name"), accessor="player__family_name", order_by=("player__family_name",))
    rating = tables.Column(verbose_name=_("Rating"))
    birth_year = tables.Column(verbose_name=_("Born"), accessor="player__birth_date", orderable=True)
    club = tables.Column(verbose_name=_("Club"), accessor="player__club__name", default="")
    region = tables.Column(verbose_name=_("Region"), accessor="player__region__name", default="")
    games = tables.Column(verbose_name=_("Games"))

    class Meta:
        model = PlayerRating
        fields = ["rank", "name", "rating", "birth_year", "club", "region", "games"]
        attrs = {"class": "table"}
        order_by = "-rating"

    def render_name(self, record):
        return format_html('<a href="{}">{}</a>', record.player.get_absolute_url(), record.player.full_name)

    def render_rating(self, record):
        if record.provisional:
            return format_html('{}<abbr class="provisional" title="{}">*</abbr>', record.rating, _("provisional"))
        return record.rating

    def render_birth_year(self, record):
        return record.player.birth_year or ""
