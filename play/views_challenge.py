"""Challenge games on the web: offer one, answer one, withdraw one (play/challenges.py writes)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from play import challenges
from play.models import DEFAULT_CONTROL, Challenge
from play.rules import clock
from players.models import Player
from players.selectors import linked_players


class ChallengeForm(forms.Form):
    challenger = forms.ModelChoiceField(label=gettext_lazy("You play as"), queryset=Player.objects.none())
    opponent_id = forms.IntegerField(
        label=gettext_lazy("Opponent's federation id"), help_text=gettext_lazy("Find it in the rating lists.")
    )
    side = forms.ChoiceField(label=gettext_lazy("You play"), choices=Challenge.Side.choices)
    control = forms.CharField(
        label=gettext_lazy("Time control"),
        initial=DEFAULT_CONTROL,
        help_text=gettext_lazy(
            "Seconds / moves + seconds / moves: 10800/30+1200/10 is 3 h for 30 moves, then 20 min per 10 moves."
        ),
    )
    norm = forms.IntegerField(label=gettext_lazy("Transmission norm, seconds"), initial=60, min_value=0, max_value=3600)
    note = forms.CharField(label=gettext_lazy("Message to the opponent"), max_length=300, required=False)

    def __init__(self, *args, players, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["challenger"].queryset = Player.objects.filter(pk__in=[p.pk for p in players])
        if len(players) == 1:
            self.fields["challenger"].initial = players[0].pk

    def clean(self):
        data = super().clean()
        number = data.get("opponent_id")
        if number is not None:
            data["opponent"] = Player.objects.filter(federation_id=number, merged_into__isnull=True).first()
            if data["opponent"] is None:
                self.add_error("opponent_id", _("No player has this federation id."))
        if data.get("control"):
            try:
                clock.TimeControl.parse(data["control"], norm=data.get("norm") or 0)
            except ValueError as error:
                self.add_error("control", str(error))
        return data


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
            form.add_error(None, _(str(error)))
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
        messages.error(request, _(str(error)))
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
        messages.error(request, _(str(error)))
    else:
        messages.info(request, _("Challenge withdrawn."))
    return redirect("play:challenges")
