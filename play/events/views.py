"""Mobile events: the public list and event pages (with a live crosstable), PGN downloads and
event creation by a federation admin (the TD works on his desk, play/desk/).

The public pages are not in the page cache: a move changes them, and moves do not bump the
cache's data version. They read a fixed number of queries whatever the event's size.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from play import services
from play.events import pgn
from play.events import selectors as event_selectors
from play.forms import EventForm

# --- public pages --------------------------------------------------------------------------------


def events(request):
    page = Paginator(event_selectors.events_list(), 50).get_page(request.GET.get("page"))
    context = {"page": page, "challenge_open": event_selectors.challenge_games_open()}
    return render(request, "play/events.html", context)


def event(request, code: str):
    context = event_selectors.event_page(event_selectors.event_by_code(code))
    return render(request, "play/event.html", context)


def event_live(request, code: str):
    """The live part of the event page (crosstable, standings, games), polled by htmx while a
    game is in progress; once none is, the answer carries no trigger and the polling stops."""
    context = event_selectors.event_page(event_selectors.event_by_code(code))
    return render(request, "play/event_live.html", context)


# --- PGN -----------------------------------------------------------------------------------------


def _site(request) -> str:
    """The PGN Site tag: the federation's configured site name, else the host the visitor used."""
    return settings.SITE_NAME or request.get_host()


def _attachment(text: str, name: str) -> HttpResponse:
    response = HttpResponse(text, content_type="application/x-chess-pgn; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{pgn.filename(name)}"'
    return response


def game_pgn(request, code: str):
    game = event_selectors.game_for_pgn(code)
    return _attachment(pgn.text([game], site=_site(request)), f"game-{game.code}")


def event_pgn(request, code: str):
    event = event_selectors.event_by_code(code)
    games = event_selectors.event_games_for_pgn(event)
    return _attachment(pgn.text(games, site=_site(request)) if games else "", event.code)


# --- creating an event ---------------------------------------------------------------------------


@login_required
@permission_required("play.add_mobileevent", raise_exception=True)
def event_new(request):
    form = EventForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            created = services.event_create(
                created_by=request.user, players=form.cleaned_data["players"], **form.event_fields()
            )
        except services.PlayError as error:
            form.add_error(None, str(error))
        else:
            messages.success(
                request, _("The event was created with %(games)d games.") % {"games": created.games.count()}
            )
            return redirect(created)
    return render(request, "play/event_new.html", {"form": form})
