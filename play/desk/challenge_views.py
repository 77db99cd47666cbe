"""The challenge games' desk: challenge games belong to no event, so their claims and notices go
to the federation's duty TD (settings.PLAY_DUTY_TD_USERNAME) and to staff, who rule on a claim
here as an event's TD does on his event's desk (rule 7d, 7f, through play.rulings.claim_decide).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from play import rulings, services, state
from play.desk import conflict
from play.events import selectors as event_selectors
from play.forms import ClaimDecisionForm
from play.models import MobileGame
from play.rules import ending


def _may_direct_challenges(user) -> bool:
    return event_selectors.oversees_all(user) or event_selectors.is_duty_td(user)


@login_required
def desk_challenges(request):
    if not _may_direct_challenges(request.user):
        raise PermissionDenied
    return render(request, "play/desk_challenges.html", event_selectors.td_desk(request.user))


@login_required
@require_POST
def desk_challenge_claim(request):
    """A decision on a challenge game's claim. Only the duty TD or staff decide; a refused
    decision is shown on the page with its reason and changes nothing."""
    back = redirect("play:desk_challenges")
    form = ClaimDecisionForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("The decision was not recorded: the form was incomplete."))
        return back
    data = form.cleaned_data
    game = get_object_or_404(MobileGame.objects.select_related("event"), code__iexact=data["game"])
    if game.event_id is not None:
        # An event's game is decided on its event's desk, with its file and an appealable decision.
        return redirect("play:desk_file", game.event_id, game.code)
    if not event_selectors.may_rule(request.user, game):
        reason = conflict.conflict(request.user.pk, [game])
        raise PermissionDenied(conflict.passed_on(reason, conflict.STAFF) if reason else "")
    record = state.find_claim(state.load(game), data["against"], data["ply"])
    if record is None:
        messages.error(request, _("No such claim in game #%(code)s.") % {"code": game.code})
        return back
    if record.status not in (ending.OPEN, ending.PROTESTED):
        already = {
            ending.CONCEDED: _("The claim was already conceded; nothing changed."),
            ending.UPHELD: _("The claim was already upheld; nothing changed."),
            ending.DISMISSED: _("The claim was already dismissed; nothing changed."),
        }
        messages.error(request, already[record.status])
        return back
    upheld = data["decision"] == "upheld"
    try:
        rulings.claim_decide(
            game=game, against=data["against"], ply=data["ply"], upheld=upheld, by=request.user,
            no_further=bool(data["no_further"]) and not upheld, reason=data["reason"],
        )  # fmt: skip
    except (services.PlayError, ValueError) as error:
        messages.error(request, _("The decision was refused: %(reason)s") % {"reason": error})
        return back
    game.refresh_from_db()
    if upheld:
        text = _("Claim upheld in game #%(code)s: the result is %(result)s.")
    else:
        text = _("Claim dismissed in game #%(code)s: play goes on.")
    messages.success(request, text % {"code": game.code, "result": game.result})
    return back
