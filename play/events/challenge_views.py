"""Challenge games on the web: offer one, answer one, withdraw one (play/events/challenges.py writes)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from play.events import challenges
from play.forms import ChallengeForm
from play.models import Challenge
from players.selectors import linked_players


@login_required
@require_http_methods(["GET", "POST"])
def challenge_list(request):
    players = linked_players(request.user)
    form = ChallengeForm(request.POST or None, players=players, initial={"opponent_id": request.GET.get("opponent")})
    if request.method == "POST" and players and form.is_valid():
        data = form.cleaned_data
        try:
            challenges.challenge_offer(
                user=request.user, challenger=data["challenger"], opponent=data["opponent"], side=data["side"],
                control=data["control"], norm=data["norm"], note=data["note"],
            )  # fmt: skip
        except challenges.ChallengeError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, _("Your challenge is sent; the game starts when your opponent accepts it."))
            return redirect("play:challenges")
    mine = {p.pk for p in players}
    rows = [(c, c.opponent_id in mine, c.challenger_id in mine) for c in challenges.challenges_of(players)]
    return render(request, "play/challenges.html", {"form": form, "players": players, "rows": rows})


@login_required
@require_POST
def challenge_answer(request, pk: int):
    challenge = get_object_or_404(Challenge, pk=pk)
    accept = request.POST.get("answer") == "accept"
    try:
        challenge = challenges.challenge_answer(user=request.user, challenge=challenge, accept=accept)
    except challenges.ChallengeError as error:
        messages.error(request, str(error))
        return redirect("play:challenges")
    if challenge.game is not None:
        messages.success(request, _("Challenge accepted: the game has started."))
        return redirect(challenge.game)
    messages.info(request, _("Challenge declined."))
    return redirect("play:challenges")


@login_required
@require_POST
def challenge_withdraw(request, pk: int):
    challenge = get_object_or_404(Challenge, pk=pk)
    try:
        challenges.challenge_withdraw(user=request.user, challenge=challenge)
    except challenges.ChallengeError as error:
        messages.error(request, str(error))
    else:
        messages.info(request, _("Challenge withdrawn."))
    return redirect("play:challenges")
