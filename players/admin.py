from django.contrib import admin
from django.db import models
from django.utils.translation import gettext_lazy as _

from players.models import Club, FideImportApplication, Player, PlayerLink, Region
from toolkit.admin_base import ReadOnlyAdmin


@admin.register(Region)
class RegionAdmin(admin.ModelAdmin):
    list_display = ["name", "code"]
    search_fields = ["name", "code"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "city", "region"]
    list_filter = ["region"]
    search_fields = ["name", "city"]
    list_select_related = ["region"]
    autocomplete_fields = ["region"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = [
        "federation_id",
        "family_name",
        "given_names",
        "birth_display",
        "sex",
        "fide_id",
        "country",
        "club",
        "region",
        "kind",
    ]
    list_display_links = ["federation_id", "family_name"]
    list_filter = ["kind", "sex", "birth_precision", "region", "country"]
    search_fields = ["federation_id", "fide_id", "family_name", "given_names", "family_name_latin"]
    list_select_related = ["club", "region"]
    autocomplete_fields = ["club", "region", "merged_into"]
    readonly_fields = ["federation_id", "name_key", "latin_key", "created_at", "updated_at"]
    inlines: list = []  # ratings/admin.py adds the player's current ratings
    fieldsets = [
        (None, {"fields": ["federation_id", "family_name", "given_names", "kind"]}),
        (_("Latin spelling"), {"fields": ["family_name_latin", "given_names_latin"]}),
        (_("Personal"), {"fields": ["sex", "birth_date", "birth_precision"]}),
        (_("Chess"), {"fields": ["fide_id", "country", "title", "club", "region"]}),
        (_("Record"), {"fields": ["merged_into", "name_key", "latin_key", "created_at", "updated_at"]}),
    ]

    @admin.display(description=_("born"), ordering="birth_date")
    def birth_display(self, obj):
        return obj.birth_display

    def get_search_results(self, request, queryset, search_term):
        # Let a Cyrillic query find a Latin name and the other way round, given name first or last.
        from players.selectors import name_search

        queryset, may_have_duplicates = super().get_search_results(request, queryset, search_term)
        condition = name_search(search_term)
        if condition is not None:
            queryset |= self.model.objects.filter(condition)
        return queryset, may_have_duplicates


@admin.register(FideImportApplication)
class FideImportApplicationAdmin(admin.ModelAdmin):
    list_display = ["__str__", "fide_id", "fide_rating", "rating_list_month", "status", "applicant", "created_at"]
    list_filter = ["status", "rating_list_month"]
    search_fields = ["fide_id", "player__family_name", "new_family_name", "applicant__username"]
    list_select_related = ["player", "applicant"]
    autocomplete_fields = ["player"]
    exclude = ["evidence_file"]
    readonly_fields = ["created_at", "decided_by", "decided_at", "evidence"]
    date_hierarchy = "created_at"

    @admin.display(description=_("evidence file"))
    def evidence(self, obj):
        from django.urls import reverse
        from django.utils.html import format_html

        if not obj.evidence_file:
            return "—"
        # Private: served only through the staff view, to those who may review applications.
        return format_html('<a href="{}">{}</a>', reverse("staff:evidence", args=[obj.pk]), obj.evidence_file.name)

    formfield_overrides = {models.URLField: {"assume_scheme": "https"}}


@admin.register(PlayerLink)
class PlayerLinkAdmin(ReadOnlyAdmin):
    """Read-only: links are decided and ended on the review pages, which audit every change."""

    list_display = ["__str__", "relation", "status", "requested_at", "decided_by", "decided_at"]
    list_filter = ["status", "relation"]
    search_fields = ["user__username", "player__family_name", "new_family_name", "player__federation_id"]
    list_select_related = ["user", "player", "decided_by"]
