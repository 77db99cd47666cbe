"""Each backup run, successful or not: what the admin lists and what /health/ can read
(operations.backup.selectors.last_backup)."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class BackupRun(models.Model):
    started_at = models.DateTimeField(_("started"))
    finished_at = models.DateTimeField(_("finished"))
    succeeded = models.BooleanField(_("succeeded"))
    directory = models.CharField(_("folder"), max_length=500)
    name = models.CharField(_("backup"), max_length=100, blank=True)
    size = models.BigIntegerField(_("bytes"), null=True, blank=True)
    error = models.TextField(_("error"), blank=True)

    class Meta:
        app_label = "operations"
        ordering = ["-started_at", "-id"]
        verbose_name = _("backup run")
        verbose_name_plural = _("backup runs")

    def __str__(self):
        return f"{self.started_at:%Y-%m-%d %H:%M} {'ok' if self.succeeded else 'FAILED'} {self.name}"
