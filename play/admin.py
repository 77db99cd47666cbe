"""Mobile chess in the Django admin, read-mostly.

Events are created on /play/events/new/ (play.services.event_create pairs them); games change
only through the message service and the TD's rulings, which keep the machine's snapshot, the
continuous record and the ratings in step: so games, the record and channel identities are
read-only here, as are challenges (answered on their own page). What an admin may edit by hand
is what nothing derives from: an event's name, its TD and appeals chairman, and the referee of
an entry. Computer levels are edited here: a change of a level's engine settings makes a new
level with a new player (play.computer.services.level_revise), so ratings stay meaningful.
"""

from django.contrib import admin, messages
from django.utils.translation import gettext as _

from play.computer import services as computer
from play.models import (
    Challenge,
    ChannelAddress,
    ChannelOutage,
    ComputerLevel,
    Entry,
    MobileEvent,
    MobileGame,
    Transmission,
)
from toolkit.admin_base import ReadOnlyAdmin


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    fields = ["player", "referee"]
    readonly_fields = ["player"]
    autocomplete_fields = ["referee"]
    can_delete = False

    def has_add_permission(self, request, obj=None):
        # An entry added by hand would have no games: the pairing is made when the event is created.
        return False


@admin.register(MobileEvent)
class MobileEventAdmin(admin.ModelAdmin):
    list_display = ["code", "name", "td", "pairing", "start", "weight"]
    list_filter = ["pairing", "referee_control"]
    search_fields = ["code", "name", "td__username"]
    list_select_related = ["td"]
    autocomplete_fields = ["td", "appeals_chair"]
    # The games copied the control, norm and W when they were created; the code is in addresses.
    readonly_fields = ["code", "control", "norm", "weight", "pairing", "start", "created_by", "created_at"]
    fields = ["code", "name", "td", "appeals_chair", "referee_control", *readonly_fields[1:]]
    inlines = [EntryInline]

    def has_add_permission(self, request):
        return False  # /play/events/new/ creates events and their games

    def has_delete_permission(self, request, obj=None):
        return False  # its games and their record are protected; an event is never removed


@admin.register(MobileGame)
class MobileGameAdmin(ReadOnlyAdmin):
    list_display = ["code", "event", "white", "black", "status", "result", "termination", "plies", "start"]
    list_filter = ["status", "result"]
    search_fields = ["code", "white__family_name", "black__family_name", "event__code"]
    list_select_related = ["event", "white", "black"]
    exclude = ["state"]


@admin.register(Transmission)
class TransmissionAdmin(ReadOnlyAdmin):
    list_display = ["at", "game", "direction", "party", "channel", "kind", "delivery"]
    list_filter = ["direction", "channel", "delivery", "kind"]
    search_fields = ["game__code", "text", "address"]
    list_select_related = ["game"]
    date_hierarchy = "at"


@admin.register(ChannelAddress)
class ChannelAddressAdmin(ReadOnlyAdmin):
    list_display = ["player", "channel", "address", "verified_at"]
    list_filter = ["channel"]
    search_fields = ["address", "player__family_name", "player__federation_id"]
    list_select_related = ["player"]


@admin.register(Challenge)
class ChallengeAdmin(ReadOnlyAdmin):
    list_display = ["challenger", "opponent", "status", "side", "control", "created_at", "game"]
    list_filter = ["status"]
    search_fields = ["challenger__family_name", "opponent__family_name"]
    list_select_related = ["challenger", "opponent", "game"]


@admin.register(ChannelOutage)
class ChannelOutageAdmin(ReadOnlyAdmin):
    """Opened by the outbox sweep and closed by the channel's next delivery (play/channels/outages.py)."""

    list_display = ["channel", "started_at", "detected_at", "ended_at", "last_error"]
    list_filter = ["channel"]
    date_hierarchy = "started_at"


@admin.register(ComputerLevel)
class ComputerLevelAdmin(admin.ModelAdmin):
    list_display = [
        "number",
        "name",
        "active",
        "skill",
        "elo",
        "depth",
        "nodes",
        "movetime_ms",
        "think_seconds",
        "player",
    ]
    list_filter = ["active"]
    list_select_related = ["player"]
    fields = [
        "number", "name", "skill", "elo", "depth", "nodes", "movetime_ms", "think_seconds", "active", "player",
        "created_at", "retired_at",
    ]  # fmt: skip
    readonly_fields = ["player", "created_at", "retired_at"]

    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return self.readonly_fields
        if not obj.active and obj.retired_at is not None:
            return self.fields  # a retired level is the record of what its player played with
        return [*self.readonly_fields, "number"]

    def has_delete_permission(self, request, obj=None):
        return False  # its player's games and rating refer to it; retire it instead

    def save_model(self, request, obj, form, change):
        if not change:
            super().save_model(request, obj, form, change)
            return
        changes = {name: form.cleaned_data[name] for name in form.changed_data}
        current = computer.level_revise(level=ComputerLevel.objects.get(pk=obj.pk), **changes)
        if current.pk != obj.pk:
            messages.info(
                request,
                _("The engine settings changed: level %(number)s is now a new computer player, rated from the start.")
                % {"number": current.number},
            )
        obj.pk = current.pk
