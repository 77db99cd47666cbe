"""Deciding FIDE-rating import applications: an approval takes effect as a rating decision
(RatingOverride) from its day, so it is a ratings write over the players' application."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import audit
from players.models import FideImportApplication, Player
from players.services import ApplicationError, notify_decision, player_create
from ratings.engines import mchess
from ratings.models import PlayerRating, RatingOverride, RatingRequest
from ratings.services import rating_request


def current_ratings(player: Player) -> dict[str, int]:
    return dict(
        PlayerRating.objects.filter(
            player=player, rating__isnull=False, system__in=["orr", "mchess", "playchess"]
        ).values_list("system", "rating")
    )


def application_decide(
    *, application: FideImportApplication, admin, approve: bool, reason: str = "", replace_existing: bool = False
) -> FideImportApplication:
    """Approve or reject. An approval takes effect on its date: the FIDE rating becomes the ORR rating
    (established), Mchess starts at 10 x FIDE and PlayChess enters with it, in every system where the
    player has no rating yet, and in the others too when the admin chooses to replace them."""
    with transaction.atomic():
        application = FideImportApplication.objects.select_for_update().get(pk=application.pk)
        if application.status != FideImportApplication.Status.PENDING:
            raise ApplicationError(_("This application was decided already."))
        if not approve and not reason.strip():
            raise ApplicationError(_("Say why the application is rejected: the applicant will read it."))
        now = timezone.now()
        before = {"status": application.status}
        application.decided_by, application.decided_at, application.decision_reason = admin, now, reason.strip()
        if not approve:
            application.status = FideImportApplication.Status.REJECTED
            application.save()
            audit.record(
                actor=admin,
                action="fide_application_rejected",
                target=application,
                summary=f"rejected FIDE {application.fide_id} {application.fide_rating} for {application}",
                before=before,
                after={"status": application.status},
                reason=reason,
            )
        else:
            player = application.player or player_create(
                family_name=application.new_family_name,
                given_names=application.new_given_names,
                birth_date=application.new_birth_date,
            )
            holder = Player.objects.filter(fide_id=application.fide_id).exclude(pk=player.pk).first()
            if holder is not None:
                raise ApplicationError(
                    _("FIDE id %(id)s belongs to %(player)s (%(fed)s): merge the two records first.")
                    % {"id": application.fide_id, "player": holder, "fed": holder.federation_id}
                )
            if player.fide_id is None:
                player.fide_id = application.fide_id
                player.save(update_fields=["fide_id", "name_key", "latin_key", "updated_at"])
            existing = current_ratings(player)
            fide = application.fide_rating
            values = {
                "orr": fide if replace_existing or "orr" not in existing else None,
                "mchess": mchess.initial_rating(fide_rating=fide)
                if replace_existing or "mchess" not in existing
                else None,
                "playchess": fide if replace_existing or "playchess" not in existing else None,
            }
            effective = timezone.localdate(now)
            if any(v is not None for v in values.values()):
                RatingOverride.objects.create(
                    player=player, effective=effective, reason=f"FIDE {application.fide_id}: {fide}", **values
                )
                rating_request(reason=RatingRequest.Reason.FIDE_IMPORT, since=effective)
            application.player = player
            application.status = FideImportApplication.Status.APPROVED
            application.save()
            audit.record(
                actor=admin,
                action="fide_application_approved",
                target=application,
                summary=f"approved FIDE {application.fide_id} {fide} for {player} ({player.federation_id})",
                before={"ratings": existing},
                after={"ratings": {k: v for k, v in values.items() if v is not None}, "replace": replace_existing},
                reason=reason,
            )
    notify_decision(application)
    return application
