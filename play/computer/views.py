"""Computer opponents on the web: "Play the computer" (choose a level, a colour and a time control;
the game starts at once) and the Computers page (each level's rating, games and score)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from play.computer import selectors, services
from play.computer.forms import ComputerGameForm
from players.selectors import linked_players


@login_required
@require_http_methods(["GET", "POST"])
def play_computer(request):
    players = linked_players(request.user)
    form = ComputerGameForm(request.POST or None, players=players)
    missing = services.engine_missing_message()
    if request.method == "POST" and players and form.is_valid():
        data = form.cleaned_data
        try:
            game = services.computer_game_create(
                user=request.user, player=data["player"], level=data["level"], side=data["side"],
                control=data["control"], norm=data["norm"],
            )  # fmt: skip
        except services.ComputerError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, _("Your game against the computer has started."))
            return redirect(game)
    ratings = {row.level.pk: row.rating for row in selectors.levels_offered()}
    rows = [(choice, ratings.get(int(str(choice.data["value"])))) for choice in form["level"]]
    context = {"form": form, "players": players, "missing": missing, "rows": rows}
    return render(request, "play/computer.html", context, status=400 if form.errors else 200)


def computers(request):
    return render(request, "play/computers.html", {"rows": selectors.computers_table()})
