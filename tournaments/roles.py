"""The staff roles as Django groups and the permissions each holds.

Used by migration 0003 (with the historical models it passes in) and by anything
that must make sure the roles exist, such as tests that flush the database.
"""

from __future__ import annotations

ARBITERS = "Arbiters"
FEDERATION_ADMINS = "Federation admins"
ARBITER_PERMISSIONS = (
    ("tournaments", "add_upload"),
    ("tournaments", "view_upload"),
    ("tournaments", "change_upload"),
    ("tournaments", "delete_upload"),
    ("tournaments", "view_tournament"),
    ("players", "view_player"),
)
ADMIN_APPS = ("players", "tournaments", "ratings", "federation")


def ensure_roles(group_model, permission_model) -> None:
    """Create the groups if missing and give them their permissions (idempotent)."""
    arbiters, _ = group_model.objects.get_or_create(name=ARBITERS)
    for app_label, codename in ARBITER_PERMISSIONS:
        arbiters.permissions.add(permission_model.objects.get(content_type__app_label=app_label, codename=codename))
    admins, _ = group_model.objects.get_or_create(name=FEDERATION_ADMINS)
    admins.permissions.add(*permission_model.objects.filter(content_type__app_label__in=ADMIN_APPS))
