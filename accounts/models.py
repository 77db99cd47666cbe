from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class AuditEntry(models.Model):
    """Who did what to which record, when, and what it was before and after. Never edited."""

    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("who")
    )
    action = models.CharField(_("action"), max_length=40, db_index=True)
    object_type = models.CharField(_("record type"), max_length=60)
    object_id = models.CharField(_("record id"), max_length=40)
    summary = models.CharField(_("summary"), max_length=300)
    before = models.JSONField(_("before"), default=dict, blank=True)
    after = models.JSONField(_("after"), default=dict, blank=True)
    reason = models.TextField(_("reason"), blank=True)
    created_at = models.DateTimeField(_("when"), auto_now_add=True, db_index=True)

    class Meta:
        # The table keeps the name it had in the project package (accounts/migrations/0001 moved
        # only the model's state, never the rows).
        db_table = "federation_auditentry"
        ordering = ["-created_at", "-id"]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit log")
        indexes = [models.Index(fields=["object_type", "object_id"], name="audit_object_idx")]

    def __str__(self) -> str:
        # In the site's zone, named: a bare time read as local would be off by the UTC offset.
        when = timezone.localtime(self.created_at) if self.created_at else None
        return f"{when:%Y-%m-%d %H:%M %Z} {self.actor}: {self.summary}" if when else f"{self.actor}: {self.summary}"
