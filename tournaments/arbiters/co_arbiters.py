"""Writes for a tournament's co-arbiters: named by its chief arbiter or staff, audited."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.models import Tournament


class CoArbiterError(Exception):
    pass


def co_arbiter_add(*, tournament: Tournament, username: str, by) -> object:
    """Name an arbiter co-arbiter of a tournament: he then sees it in his area (audited)."""
    from django.contrib.auth import get_user_model

    from accounts import audit
    from tournaments.arbiters.permissions import is_arbiter

    user = get_user_model().objects.filter(username__iexact=username.strip(), is_active=True).first()
    if user is None or not is_arbiter(user):
        raise CoArbiterError(_("No arbiter has the user name %(name)s.") % {"name": username.strip()})
    if user.pk == tournament.chief_arbiter_id:
        raise CoArbiterError(_("%(name)s is the chief arbiter.") % {"name": user.username})
    with transaction.atomic():
        if tournament.co_arbiters.filter(pk=user.pk).exists():
            raise CoArbiterError(_("%(name)s is a co-arbiter already.") % {"name": user.username})
        tournament.co_arbiters.add(user)
        audit.record(
            actor=by,
            action="co_arbiter_added",
            target=tournament,
            summary=f"{user.username} co-arbiter of {tournament}",
            after={"co_arbiter": user.username},
        )
    return user


def co_arbiter_remove(*, tournament: Tournament, user_id: int, by) -> None:
    from accounts import audit

    with transaction.atomic():
        user = tournament.co_arbiters.filter(pk=user_id).first()
        if user is None:
            raise CoArbiterError(_("That account is not a co-arbiter of this tournament."))
        tournament.co_arbiters.remove(user)
        audit.record(
            actor=by,
            action="co_arbiter_removed",
            target=tournament,
            summary=f"{user.username} no longer co-arbiter of {tournament}",
            before={"co_arbiter": user.username},
        )
