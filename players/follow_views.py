"""Following players: a parent follows his children, a coach his pupils."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.shortcuts import redirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from players import selectors, services
from players.models import Follow


@login_required
@permission_required("players.add_follow", raise_exception=True)
@require_POST
def follow(request, federation_id: int):
    player = selectors.player_by_federation_id(federation_id)
    if player.merged_into_id:
        player = player.merged_into
    action = request.POST.get("action", "follow")
    if action == "unfollow":
        services.player_unfollow(user=request.user, player=player)
        messages.success(request, _("You no longer follow %(player)s.") % {"player": player.full_name})
    else:
        exists = Follow.objects.filter(user=request.user, player=player).exists()
        if not exists and Follow.objects.filter(user=request.user).count() >= selectors.MAX_FOLLOWS:
            messages.error(
                request, _("You follow %(count)s players, the most an account can.") % {"count": selectors.MAX_FOLLOWS}
            )
        else:
            notify = request.POST.get("notify", "on") == "on"
            services.player_follow(user=request.user, player=player, notify=notify)
            if action == "follow" and not exists:
                messages.success(request, _("You follow %(player)s.") % {"player": player.full_name})
            else:
                messages.success(request, _("Saved."))
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = player.get_absolute_url()
    return redirect(target)
