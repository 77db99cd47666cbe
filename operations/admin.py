from django.contrib import admin

from operations.backup.models import BackupRun
from toolkit.admin_base import ReadOnlyAdmin


@admin.register(BackupRun)
class BackupRunAdmin(ReadOnlyAdmin):
    """Written by the backups themselves (manage.py backup, the nightly job): a failed night is here."""

    list_display = ["started_at", "succeeded", "name", "size", "directory", "error"]
    list_filter = ["succeeded"]
