"""The phone simulator (DEBUG only, staff only): two simulated phones side by side, one for each
player of a game, exchanging messages through the console channel, so a developer can play a
game by messages without a gateway. Sending is `message_receive(channel="console", sender=<the
player's federation id>)`, as `manage.py play_send` would; each phone shows what its player sent
and received on the console and the web (play.selectors.simulator_messages), refreshed by htmx.

Its URLs are included only when DEBUG is on (play/urls.py), and every view answers 404 when DEBUG
is off, so a settings change without a restart exposes nothing either.
"""

from __future__ import annotations

import functools

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from play import selectors, services
from play.demo import ACCOUNTS
from play.models import Color
from players.models import Player
from players.selectors import linked_players

POLL_SECONDS = 2
MAX_TEXT = 500


def debug_staff_only(view):
    """404 without DEBUG (before anything else: not even a login page); then staff only."""

    @login_required
    def staff_only(request, *args, **kwargs):
        if not request.user.is_staff:
            raise PermissionDenied
        return view(request, *args, **kwargs)

    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        if not settings.DEBUG:
            raise Http404("the phone simulator exists only with DEBUG on")
        return staff_only(request, *args, **kwargs)

    return wrapper


class SendForm(forms.Form):
    text = forms.CharField(label=gettext_lazy("Message"), max_length=MAX_TEXT, strip=True)


class PracticeForm(forms.Form):
    white = forms.IntegerField(label=gettext_lazy("White (federation id)"), min_value=1)
    black = forms.IntegerField(label=gettext_lazy("Black (federation id)"), min_value=1)

    def clean(self):
        data = super().clean()
        found = {}
        for color in ("white", "black"):
            if data.get(color) is None:
                continue
            player = Player.objects.filter(federation_id=data[color]).first()
            if player is None:
                self.add_error(color, _("No player has the federation id %(id)s.") % {"id": data[color]})
            found[color] = player
        if found.get("white") and found.get("black") and found["white"].pk == found["black"].pk:
            raise forms.ValidationError(_("A player cannot play himself."))
        data.update(found)
        return data


def _demo_pair() -> dict:
    """The two demo accounts' players (`make run` loads them), as the practice form's defaults."""
    users = get_user_model().objects.filter(username__in=ACCOUNTS).order_by("username")
    ids = [players[0].federation_id for players in (linked_players(user) for user in users) if players]
    return dict(zip(("white", "black"), ids, strict=False)) if len(ids) == 2 else {}


def _phone(game, color: str) -> dict:
    player = game.player_of(color)
    return {
        "color": color,
        "player": player,
        "rows": selectors.simulator_messages(game, color),
        "form": SendForm(auto_id=f"{color}-%s"),
    }


@debug_staff_only
@require_GET
def simulator(request):
    code = request.GET.get("game", "").strip()
    game = selectors.game_by_code(code) if code else None
    context = {
        "games": selectors.simulator_games(),
        "game": game,
        "phones": [_phone(game, color) for color in (Color.WHITE, Color.BLACK)] if game else [],
        "practice": PracticeForm(initial=_demo_pair()),
        "poll_seconds": POLL_SECONDS,
    }
    return render(request, "play/simulator.html", context)


@debug_staff_only
@require_POST
def practice(request):
    form = PracticeForm(request.POST)
    if not form.is_valid():
        context = {"games": selectors.simulator_games(), "game": None, "phones": [], "practice": form}
        return render(request, "play/simulator.html", context, status=400)
    try:
        game = services.game_create(
            white=form.cleaned_data["white"], black=form.cleaned_data["black"], start=timezone.now()
        )
    except services.PlayError as error:
        messages.error(request, str(error))
        return redirect("play:simulator")
    return redirect(f"{reverse('play:simulator')}?game={game.code}")


@debug_staff_only
@require_GET
def phone(request, code: str, color: str):
    game = selectors.game_by_code(code)
    if color not in Color.values:
        raise Http404
    return render(request, "play/simulator_messages.html", {"game": game, "phone": _phone(game, color)})


@debug_staff_only
@require_POST
def send(request, code: str, color: str):
    """One message typed on a phone: the player of that colour sends it by the console channel,
    tagged with the game's code unless it carries a tag of its own."""
    game = selectors.game_by_code(code)
    if color not in Color.values:
        raise Http404
    form = SendForm(request.POST, auto_id=f"{color}-%s")
    status = 200
    if form.is_valid():
        services.message_receive(
            channel="console",
            sender=str(game.player_of(color).federation_id),
            text=form.cleaned_data["text"],
            arrival=timezone.now(),
            game_code=game.code,
        )
    else:
        status = 400
    if not request.headers.get("HX-Request"):
        if status != 200:
            messages.error(request, _("Type a message first."))
        return redirect(f"{reverse('play:simulator')}?game={game.code}")
    phone = _phone(game, color)
    phone["form"] = form if status != 200 else phone["form"]
    return render(request, "play/simulator_messages.html", {"game": game, "phone": phone}, status=status)
