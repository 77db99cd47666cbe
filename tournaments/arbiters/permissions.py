"""Who may do what with tournaments. Roles are Django groups (migration 0003)."""

from __future__ import annotations

from accounts.roles import FEDERATION_ADMINS, is_federation_admin

__all__ = ["is_federation_admin"]


def is_arbiter(user) -> bool:
    return bool(user.is_authenticated and user.is_active and user.has_perm("tournaments.add_upload"))


def can_manage_upload(user, upload) -> bool:
    """An arbiter sees and confirms his own uploads only; federation admins see all."""
    if not is_arbiter(user):
        return False
    return upload.uploaded_by_id == user.pk or user.is_superuser or user.groups.filter(name=FEDERATION_ADMINS).exists()


def can_follow_upload(user, upload) -> bool:
    """An upload's progress page: whoever manages the upload, and, once it is a tournament, whoever
    sees that tournament in the arbiter area (its co-arbiters too)."""
    if can_manage_upload(user, upload):
        return True
    return upload.tournament_id is not None and can_see_tournament(user, upload.tournament)


def can_see_tournament(user, tournament) -> bool:
    """The arbiter area shows a tournament to its chief arbiter, its co-arbiters and federation admins."""
    if not (user.is_authenticated and user.is_active):
        return False
    if tournament.chief_arbiter_id == user.pk or is_federation_admin(user):
        return True
    return tournament.co_arbiters.filter(pk=user.pk).exists()


def can_name_co_arbiters(user, tournament) -> bool:
    """The chief arbiter names his co-arbiters; the federation can too."""
    return bool(user.is_authenticated and (tournament.chief_arbiter_id == user.pk or is_federation_admin(user)))


def can_replace_tournament(user, tournament) -> bool:
    """A new upload may replace (withdraw) an earlier tournament only for its chief arbiter or the federation."""
    return bool(user.is_authenticated and (tournament.chief_arbiter_id == user.pk or is_federation_admin(user)))
