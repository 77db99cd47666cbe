from django.contrib import admin

from players.admin import PlayerAdmin
from ratings.models import PlayerRating, ProvisionalGame, RatingChange, RatingList, RatingListEntry, RatingRequest
from toolkit.admin_base import ReadOnlyAdmin

# Rating data are written by rating runs only: an edit by hand would not survive the next
# re-rating and would make the history irreproducible.


@admin.register(PlayerRating)
class PlayerRatingAdmin(ReadOnlyAdmin):
    list_display = ["player", "system", "rating", "provisional", "games", "tournaments", "last_played"]
    list_filter = ["system", "provisional"]
    search_fields = ["player__family_name", "player__federation_id", "player__fide_id"]
    list_select_related = ["player"]


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    list_display = ["player", "tournament", "mobile_game", "system", "rating_before", "rating_after", "games", "score"]
    list_filter = ["system", "provisional_after", "is_guest"]
    search_fields = ["player__family_name", "player__federation_id", "tournament__name"]
    list_select_related = ["player", "tournament", "mobile_game"]


@admin.register(ProvisionalGame)
class ProvisionalGameAdmin(ReadOnlyAdmin):
    list_display = ["player", "system", "tournament", "round", "opponent_rating", "score"]
    list_filter = ["system"]
    search_fields = ["player__family_name", "player__federation_id"]
    list_select_related = ["player", "tournament"]


@admin.register(RatingList)
class RatingListAdmin(ReadOnlyAdmin):
    list_display = ["system", "month", "published_at"]
    list_filter = ["system"]
    date_hierarchy = "month"


@admin.register(RatingListEntry)
class RatingListEntryAdmin(ReadOnlyAdmin):
    list_display = ["rating_list", "rank", "player", "rating", "provisional", "games"]
    list_filter = ["rating_list__system", "rating_list__month", "provisional"]
    search_fields = ["player__family_name", "player__federation_id"]
    list_select_related = ["rating_list", "player"]


@admin.register(RatingRequest)
class RatingRequestAdmin(ReadOnlyAdmin):
    """Where every re-rating stands: waiting, running (with its heartbeat), done or failed and why."""

    list_display = [
        "id", "reason", "tournament", "since", "state", "created_at", "started_at", "heartbeat_at", "worker", "attempts"
    ]  # fmt: skip
    list_filter = ["state", "reason"]
    list_select_related = ["tournament"]
    readonly_fields = ["error"]


class PlayerRatingInline(admin.TabularInline):
    model = PlayerRating
    extra = 0
    fields = ["system", "rating", "provisional", "games", "tournaments", "last_played"]
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        # Ratings come from rating runs only; an edit here would be overwritten and break reproducibility.
        return False


# The player's admin page shows his current ratings: added from here, since players does not import ratings.
PlayerAdmin.inlines = [*PlayerAdmin.inlines, PlayerRatingInline]
