"""The roles as Django groups and the permissions each holds (it imports no app: every app may use it).

Used by the migrations that create or extend the roles (with the historical models they
pass in) and by anything that must make sure the roles exist, such as tests that flush
the database.
"""

from __future__ import annotations

ARBITERS = "Arbiters"
FEDERATION_ADMINS = "Federation admins"
PLAYERS = "Players and parents"

# Every confirmed account: apply for a FIDE-rating import, follow players, ask to be linked to a player.
PLAYER_PERMISSIONS = (
    ("players", "add_fideimportapplication"),
    ("players", "add_follow"),
    ("players", "change_follow"),
    ("players", "delete_follow"),
    ("players", "add_playerlink"),
)
ARBITER_PERMISSIONS = (
    ("tournaments", "add_upload"),
    ("tournaments", "view_upload"),
    ("tournaments", "change_upload"),
    ("tournaments", "delete_upload"),
    ("tournaments", "view_tournament"),
    ("players", "view_player"),
)
# "federation": the audit log's app until accounts/migrations/0002 moved its content type to
# "accounts" (the migrations that run before that one grant it under its old label).
ADMIN_APPS = ("players", "tournaments", "ratings", "federation", "accounts", "play")


def ensure_roles(group_model, permission_model, *, strict: bool = True) -> None:
    """Create the groups if missing and give them their permissions (idempotent).

    An early migration runs this before later models exist: it passes strict=False to skip
    their permissions, which the migration adding those models grants.
    """

    def permissions(pairs):
        found = []
        for app_label, codename in pairs:
            permission = permission_model.objects.filter(content_type__app_label=app_label, codename=codename).first()
            if permission is None and strict:
                raise LookupError(f"permission {app_label}.{codename} does not exist")
            if permission is not None:
                found.append(permission)
        return found

    players, _ = group_model.objects.get_or_create(name=PLAYERS)
    players.permissions.add(*permissions(PLAYER_PERMISSIONS))
    arbiters, _ = group_model.objects.get_or_create(name=ARBITERS)
    arbiters.permissions.add(*permissions(ARBITER_PERMISSIONS))
    admins, _ = group_model.objects.get_or_create(name=FEDERATION_ADMINS)
    admins.permissions.add(*permission_model.objects.filter(content_type__app_label__in=ADMIN_APPS))


def role(name: str):
    """The group of a role, made (with every role's permissions) if a flushed database lost it."""
    from django.contrib.auth.models import Group, Permission

    group = Group.objects.filter(name=name).first()
    if group is None:
        ensure_roles(Group, Permission)
        group = Group.objects.get(name=name)
    return group


def is_federation_admin(user) -> bool:
    """A superuser or a member of the federation admins' group (every app asks the same)."""
    return bool(user.is_authenticated and (user.is_superuser or user.groups.filter(name=FEDERATION_ADMINS).exists()))
