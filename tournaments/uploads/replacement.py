"""Confirming an upload that repeats a tournament the federation holds already (issue #13).

`tournaments.uploads.duplicates` finds the earlier tournament; here the confirmation is refused unless
the arbiter says the upload replaces it and may do so (its chief arbiter or the federation).
The earlier tournament is then withdrawn by the staff correction itself
(`federation.corrections.tournament_withdraw`, which queues the re-rating from its date), in the
transaction that saves the new one, and the replacement is audited. The new tournament is
queued as every confirmed one is, so the history is re-rated from the earlier of the two dates.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from accounts import audit
from tournaments.arbiters.permissions import can_replace_tournament
from tournaments.corrections.services import CorrectionError, tournament_withdraw
from tournaments.models import Tournament, Upload
from tournaments.uploads.duplicates import duplicates_of_preview
from tournaments.uploads.errors import ConfirmError


def replaced_tournament(upload, details, resolved, *, user, replaces):
    """The earlier tournament this upload replaces, or None; refuses a duplicate not declared as one."""
    identities = {number: frozenset({pid} if pid else ()) for number, pid in resolved.items()}
    duplicates = duplicates_of_preview(
        upload.preview,
        name=details.name,
        start_date=details.start_date,
        end_date=details.end_date,
        identities=identities,
    )
    by_id = {d.tournament.pk: d.tournament for d in duplicates}
    if replaces is not None and replaces not in by_id:
        raise ConfirmError(
            [_("This file does not repeat tournament %(id)s: there is nothing to replace.") % {"id": replaces}]
        )
    if replaces is None and duplicates:
        first = duplicates[0]
        message = _(
            "The federation holds this tournament already: %(name)s (%(start)s – %(end)s), "
            "%(found)s of this file's %(games)s games are the same."
        ) % {
            "name": first.tournament.name,
            "start": first.tournament.start_date.isoformat(),
            "end": first.tournament.end_date.isoformat(),
            "found": first.found,
            "games": first.games,
        }
        if any(can_replace_tournament(user, d.tournament) for d in duplicates):
            advice = _("Say that this upload replaces it, or cancel the upload.")
        else:
            advice = _("Only its arbiter or the federation can replace it: ask the federation, or cancel the upload.")
        raise ConfirmError([f"{message} {advice}"])
    if replaces is None:
        return None
    earlier = by_id[replaces]
    if not can_replace_tournament(user, earlier):
        raise ConfirmError(
            [
                _("Only the arbiter of %(name)s or the federation can replace it: ask the federation.")
                % {"name": earlier.name}
            ]
        )
    return earlier


def replace(earlier: Tournament, tournament: Tournament, *, user, upload: Upload) -> None:
    """Withdraw the earlier tournament (the existing correction, which re-rates from its date) and audit it."""
    reason = f"replaced by {tournament} (tournament {tournament.pk}, upload {upload.pk})"
    try:
        tournament_withdraw(tournament=earlier, admin=user, reason=reason)
    except CorrectionError as error:
        raise ConfirmError([str(error)]) from None
    audit.record(
        actor=user,
        action="tournament_replaced",
        target=tournament,
        summary=f"{tournament} replaces {earlier}",
        before={"tournament": earlier.pk, "name": earlier.name, "status": earlier.status},
        after={"tournament": tournament.pk, "upload": upload.pk},
        reason=reason,
    )
