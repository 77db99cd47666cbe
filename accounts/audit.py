"""Recording decisions and corrections: one call, inside the transaction of the change itself."""

from __future__ import annotations

from accounts.models import AuditEntry


def record(*, actor, action: str, target, summary: str, before=None, after=None, reason: str = "") -> AuditEntry:
    return AuditEntry.objects.create(
        actor=actor if getattr(actor, "pk", None) else None,
        action=action,
        object_type=target._meta.label,
        object_id=str(target.pk),
        summary=summary[:300],
        before=before or {},
        after=after or {},
        reason=reason,
    )
