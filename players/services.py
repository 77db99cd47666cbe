"""Writes for players. Every new player gets his federation id here; FIDE-rating import
applications and requests to link an account to a player are submitted and decided here."""

from __future__ import annotations

import datetime
import logging

from django.conf import settings
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import audit
from players.models import FideImportApplication, Follow, Player, PlayerLink, Sequence

logger = logging.getLogger(__name__)

FEDERATION_ID_SEQUENCE = "federation_id"
# Federation ids are visible on cards and lists: start at a round number so they all have the same width.
FIRST_FEDERATION_ID = 100001


def allocate_federation_ids(count: int) -> range:
    """Reserve `count` consecutive federation ids; concurrent callers get disjoint blocks."""
    if count < 1:
        raise ValueError("count must be at least 1")
    with transaction.atomic():
        sequence, _ = Sequence.objects.select_for_update().get_or_create(
            name=FEDERATION_ID_SEQUENCE, defaults={"next_value": FIRST_FEDERATION_ID}
        )
        start = sequence.next_value
        sequence.next_value = start + count
        sequence.save(update_fields=["next_value"])
    return range(start, start + count)


def player_create(
    *,
    family_name: str,
    given_names: str = "",
    birth_date: datetime.date | None = None,
    birth_precision: str | None = None,
    **fields,
) -> Player:
    """Create a player with a fresh federation id. A birth date without a precision is a full date."""
    if birth_precision is None:
        birth_precision = Player.BirthPrecision.DAY if birth_date else Player.BirthPrecision.UNKNOWN
    player = Player(
        family_name=family_name.strip(),
        given_names=given_names.strip(),
        birth_date=birth_date,
        birth_precision=birth_precision,
        **fields,
    )
    player.full_clean(exclude=["federation_id", "name_key", "latin_key"], validate_unique=False)
    with transaction.atomic():
        player.federation_id = allocate_federation_ids(1)[0]
        player.save()
    return player


def players_bulk_create(players: list[Player], *, batch_size: int = 2000) -> list[Player]:
    """Insert many unsaved players at once (history imports, synthetic federations)."""
    if not players:
        return []
    with transaction.atomic():
        for player, federation_id in zip(players, allocate_federation_ids(len(players)), strict=True):
            player.federation_id = federation_id
            player.normalise()
        return Player.objects.bulk_create(players, batch_size=batch_size)


class ApplicationError(Exception):
    """The application cannot be submitted or decided as asked; nothing was changed."""


def application_submit(
    *,
    applicant,
    fide_id: int,
    fide_rating: int,
    rating_list_month: datetime.date,
    player: Player | None = None,
    new_family_name: str = "",
    new_given_names: str = "",
    new_birth_date: datetime.date | None = None,
    evidence_file=None,
    evidence_url: str = "",
) -> FideImportApplication:
    if player is None and not new_family_name.strip():
        raise ApplicationError(_("Choose the player, or give the new player's name."))
    pending = FideImportApplication.objects.filter(fide_id=fide_id, status=FideImportApplication.Status.PENDING)
    if pending.exists():
        raise ApplicationError(_("An application for this FIDE id is already waiting for review."))
    application = FideImportApplication(
        applicant=applicant,
        player=player,
        new_family_name=new_family_name.strip(),
        new_given_names=new_given_names.strip(),
        new_birth_date=new_birth_date,
        fide_id=fide_id,
        fide_rating=fide_rating,
        rating_list_month=rating_list_month.replace(day=1),
        evidence_url=evidence_url,
    )
    if evidence_file is not None:
        application.evidence_file.save(evidence_file.name, evidence_file, save=False)
    application.save()
    return application


def notify_decision(application: FideImportApplication) -> None:
    """Mail the applicant the decision on his application, with its reason."""
    status = application.get_status_display()
    body = _("Your application to import FIDE rating %(rating)s (FIDE id %(id)s) was %(status)s.") % {
        "rating": application.fide_rating,
        "id": application.fide_id,
        "status": status,
    }
    subject = _("FIDE rating import: %(status)s") % {"status": status}
    _mail_decision(application.applicant, subject, body, application.decision_reason)


def _mail_decision(user, subject: str, body: str, reason: str) -> None:
    """Tell an applicant the staff's decision, with its reason (no address, no mail)."""
    if not user.email:
        return
    if reason:
        body += "\n\n" + _("Reason: %(reason)s") % {"reason": reason}
    send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [user.email], fail_silently=True)


def player_follow(*, user, player: Player, notify: bool = True) -> Follow:
    """Follow a player (idempotent: following twice changes only the e-mail choice)."""
    follow, _created = Follow.objects.update_or_create(user=user, player=player, defaults={"notify": notify})
    return follow


def player_unfollow(*, user, player: Player) -> None:
    Follow.objects.filter(user=user, player=player).delete()


class LinkError(Exception):
    """The link cannot be requested, decided or revoked as asked; nothing was changed."""


def link_request(
    *,
    user,
    relation: str,
    player: Player | None = None,
    new_family_name: str = "",
    new_given_names: str = "",
    new_birth_date: datetime.date | None = None,
    evidence: str = "",
) -> PlayerLink:
    """An account asks to play as `player` (his own record or his child's), or as a new member whom
    staff create on confirmation, like the new player of a FIDE-import application."""
    if relation not in PlayerLink.Relation.values:
        raise LinkError(_("Say whether the player is you or your child."))
    if player is None and not new_family_name.strip():
        raise LinkError(_("Choose the player, or give the new player's name."))
    if player is None and new_birth_date is None:
        raise LinkError(_("A new player needs his birth date: ORR uses ages."))
    if player is not None:
        if player.merged_into_id:
            player = player.merged_into
        if player.is_computer:
            raise LinkError(_("A computer program is not linked to an account."))
        live = PlayerLink.objects.filter(
            player=player, status__in=[PlayerLink.Status.PENDING, PlayerLink.Status.CONFIRMED]
        )
        if live.filter(user=user).exists():
            raise LinkError(_("You have asked for this player already."))
        if (
            relation == PlayerLink.Relation.SELF
            and live.filter(relation=PlayerLink.Relation.SELF, status=PlayerLink.Status.CONFIRMED).exists()
        ):
            raise LinkError(_("This player's record is linked to another account: write to the federation."))
    if (
        relation == PlayerLink.Relation.SELF
        and PlayerLink.objects.filter(
            user=user, relation=PlayerLink.Relation.SELF, status=PlayerLink.Status.CONFIRMED
        ).exists()
    ):
        raise LinkError(_("Your account is linked to your own record already."))
    link = PlayerLink(
        user=user,
        relation=relation,
        player=player,
        new_family_name="" if player else new_family_name.strip(),
        new_given_names="" if player else new_given_names.strip(),
        new_birth_date=None if player else new_birth_date,
        evidence=evidence.strip(),
    )
    try:
        with transaction.atomic():
            link.save()
    except IntegrityError as error:  # a second request at the same moment
        raise LinkError(_("You have asked for this player already.")) from error
    return link


def link_decide(*, link: PlayerLink, admin, confirm: bool, reason: str = "") -> PlayerLink:
    """Confirm or reject a pending link; a confirmed new member is created now. Audited in the same
    transaction; the database's constraints (one own account per player) have the last word."""
    with transaction.atomic():
        link = PlayerLink.objects.select_for_update().get(pk=link.pk)
        if link.status != PlayerLink.Status.PENDING:
            raise LinkError(_("This request was decided already."))
        if not confirm and not reason.strip():
            raise LinkError(_("Say why the request is rejected: the account holder will read it."))
        link.decided_by, link.decided_at, link.reason = admin, timezone.now(), reason.strip()
        if confirm:
            # The record may have been merged into another since the request: the link goes to the survivor.
            while link.player_id and link.player.merged_into_id:
                link.player = link.player.merged_into
            created = link.player_id is None
            if created:
                link.player = player_create(
                    family_name=link.new_family_name, given_names=link.new_given_names, birth_date=link.new_birth_date
                )
            link.status = PlayerLink.Status.CONFIRMED
            try:
                with transaction.atomic():
                    link.save()
            except IntegrityError as error:
                raise LinkError(
                    _("This player's record, or this account, is linked as one's own already: revoke that link first.")
                ) from error
            summary = f"linked {link.user} to {link.player} ({link.player.federation_id}) as {link.relation}"
            action = "player_link_confirmed"
        else:
            created = False
            link.status = PlayerLink.Status.REJECTED
            link.save()
            summary = f"rejected the link of {link.user} to {link.player_label} as {link.relation}"
            action = "player_link_rejected"
        audit.record(
            actor=admin,
            action=action,
            target=link,
            summary=summary,
            before={"status": PlayerLink.Status.PENDING},
            after={"status": link.status, "player": getattr(link.player, "federation_id", None), "created": created},
            reason=link.reason,
        )
    _link_notify(link)
    return link


def may_revoke_link(*, user, link: PlayerLink) -> bool:
    return link.user_id == user.pk or user.has_perm("players.change_playerlink")


def link_revoke(*, link: PlayerLink, actor, reason: str = "") -> PlayerLink:
    """End a confirmed link or withdraw a pending request: the account holder for his own, or staff."""
    if not may_revoke_link(user=actor, link=link):
        raise LinkError(_("Only the account holder or the federation's staff may end this link."))
    with transaction.atomic():
        link = PlayerLink.objects.select_for_update().get(pk=link.pk)
        if link.status not in (PlayerLink.Status.PENDING, PlayerLink.Status.CONFIRMED):
            raise LinkError(_("This link has ended already."))
        before = link.status
        link.status, link.revoked_by, link.revoked_at = PlayerLink.Status.REVOKED, actor, timezone.now()
        if reason.strip():
            link.reason = reason.strip()
        link.save()
        audit.record(
            actor=actor,
            action="player_link_revoked",
            target=link,
            summary=f"ended the link of {link.user} to {link.player_label} ({before})",
            before={"status": before},
            after={"status": link.status},
            reason=reason.strip(),
        )
    return link


def _link_notify(link: PlayerLink) -> None:
    status = link.get_status_display()
    body = _("Your request to be linked to %(player)s was %(status)s.") % {
        "player": link.player_label,
        "status": status,
    }
    _mail_decision(link.user, _("Player link: %(status)s") % {"status": status}, body, link.reason)
