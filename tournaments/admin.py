from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _

from tournaments.models import Game, Participant, Tournament, Upload


class ParticipantInline(admin.TabularInline):
    model = Participant
    extra = 0
    autocomplete_fields = ["player"]
    fields = ["start_number", "player", "rank", "points_in_file", "rating_in_file", "fide_rating_in_file", "is_guest"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "city", "start_date", "end_date", "rounds", "fide_rated", "status", "chief_arbiter"]
    list_filter = ["status", "fide_rated", "time_control", "rate_mchess", "rate_playchess"]
    search_fields = ["name", "city", "chief_arbiter_name", "chief_arbiter__username"]
    date_hierarchy = "start_date"
    list_select_related = ["chief_arbiter"]
    autocomplete_fields = ["chief_arbiter", "co_arbiters"]
    readonly_fields = ["status", "status_detail", "rated_at", "created_at", "updated_at"]
    inlines = [ParticipantInline]
    actions = ["rerate_from_here"]

    @admin.action(description=_("Re-rate the history from the earliest selected tournament"))
    def rerate_from_here(self, request, queryset):
        from ratings.models import RatingRequest
        from ratings.notices import tell_if_waiting
        from ratings.services import rating_request

        first = queryset.order_by("end_date").values_list("end_date", flat=True).first()
        if first is None:
            return
        rating_request(reason=RatingRequest.Reason.ADMIN, since=first)
        self.message_user(
            request,
            _("Every tournament ending on or after %(date)s is queued for re-rating.") % {"date": first},
            messages.SUCCESS,
        )
        tell_if_waiting(request)


@admin.register(Participant)
class ParticipantAdmin(admin.ModelAdmin):
    list_display = ["tournament", "start_number", "player", "rank", "points_in_file", "rating_in_file", "is_guest"]
    list_filter = ["is_guest"]
    search_fields = ["player__family_name", "player__federation_id", "tournament__name"]
    list_select_related = ["tournament", "player"]
    autocomplete_fields = ["tournament", "player"]


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["tournament", "round", "board", "white", "black", "result", "kind"]
    list_filter = ["kind", "result"]
    search_fields = ["tournament__name", "white__family_name", "black__family_name"]
    list_select_related = ["tournament", "white", "black"]
    autocomplete_fields = ["tournament", "white", "black"]


@admin.register(Upload)
class UploadAdmin(admin.ModelAdmin):
    list_display = ["original_name", "format", "status", "uploaded_by", "uploaded_at", "size", "tournament"]
    list_filter = ["status", "format"]
    search_fields = ["original_name", "sha256", "uploaded_by__username"]
    list_select_related = ["uploaded_by", "tournament"]
    # The file itself is private: no address, so no link in the admin either.
    exclude = ["file"]
    readonly_fields = ["sha256", "size", "format", "uploaded_by", "uploaded_at", "preview", "problems"]
    date_hierarchy = "uploaded_at"
