"""Leave: the game page's request (a player of the game, for the event's games) and the TD's
grant or refusal on the desk; play.desk.leave checks and applies both."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from play import selectors as game_selectors
from play.desk import leave as leaves
from play.desk import selectors
from play.desk.forms import LeaveDecisionForm, LeaveForm
from play.desk.services import DeskError
from play.desk.views import too_fast


@login_required
@require_POST
def game_leave(request, code: str):
    game = game_selectors.game_by_code(code)
    colors = game_selectors.colors_of(request.user, game)
    if not colors or game.event_id is None:
        raise PermissionDenied(_("You do not play in this game."))
    # From My games the form says to come back there; only a page of ours is a way back.
    there = request.POST.get("back", "")
    back = redirect(there if there.startswith("/play/") else f"{game.get_absolute_url()}#decisions")
    form = LeaveForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("The leave was not requested: give the first and the last day."))
        return back
    color = form.cleaned_data["color"] or colors[0]
    if color not in colors:
        raise PermissionDenied(_("You do not play this side of this game."))
    if too_fast(request):
        return back
    try:
        leaves.leave_request(
            event=game.event, player=game.player_of(color), first_day=form.cleaned_data["first_day"],
            last_day=form.cleaned_data["last_day"], text=form.cleaned_data["text"],
        )  # fmt: skip
    except DeskError as error:
        messages.error(request, _("The leave was not requested: %(reason)s") % {"reason": error})
    else:
        messages.success(request, _("Your leave request reached the TD."))
    return back


@login_required
@require_POST
def desk_leave(request, event_id: int, pk: int):
    event = selectors.event_of(event_id)
    if not selectors.may_view(request.user, event):
        raise PermissionDenied
    leave = get_object_or_404(event.leaves.select_related("event", "player"), pk=pk)
    form = LeaveDecisionForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Nothing was decided: choose grant or refuse."))
        return redirect("play:desk", event.pk)
    grant = form.cleaned_data["decision"] == "grant"
    try:
        leaves.leave_decide(leave=leave, grant=grant, by=request.user, reason=form.cleaned_data["reason"])
    except DeskError as error:
        messages.error(request, _("Nothing was decided: %(reason)s") % {"reason": error})
    else:
        messages.success(
            request, _("Leave granted: the games are paused and the players told.") if grant else _("Leave refused.")
        )
    return redirect("play:desk", event.pk)
