from django.contrib import admin


class ReadOnlyAdmin(admin.ModelAdmin):
    """An admin that only shows: for rows written by the site's own audited paths (rating runs, the
    audit log, decisions on the review pages), where an edit by hand would bypass them."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
