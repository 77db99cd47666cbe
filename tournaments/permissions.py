"""Who may do what with tournaments. Roles are Django groups (migration 0003)."""

from __future__ import annotations

from tournaments.roles import FEDERATION_ADMINS


def is_arbiter(user) -> bool:
    return bool(user.is_authenticated and user.is_active and user.has_perm("tournaments.add_upload"))


def can_manage_upload(user, upload) -> bool:
    """An arbiter sees and confirms his own uploads only; federation admins see all."""
    if not is_arbiter(user):
        return False
    return upload.uploaded_by_id == user.pk or user.is_superuser or user.groups.filter(name=FEDERATION_ADMINS).exists()
