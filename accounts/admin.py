from django.contrib import admin

from accounts.models import AuditEntry
from accounts.views import ThrottledAdminAuthenticationForm
from toolkit.admin_base import ReadOnlyAdmin

# The admin's login counts failures like the site's own (accounts/throttle.py).
admin.site.login_form = ThrottledAdminAuthenticationForm


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    """The audit log is written by the corrections themselves and never edited."""

    list_display = ["created_at", "actor", "action", "summary", "reason"]
    list_filter = ["action"]
    search_fields = ["summary", "reason", "object_id", "actor__username"]
    list_select_related = ["actor"]
    date_hierarchy = "created_at"
    readonly_fields = [f.name for f in AuditEntry._meta.fields]
