"""Mobile events: the public list and event pages (with a live crosstable), PGN downloads, event
creation by a federation admin, and the TD's list of claims and notices with his decisions.

The public pages are not in the page cache: a move changes them, and moves do not bump the
cache's data version. They read a fixed number of queries whatever the event's size.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from play import event_selectors, pgn, services, state
from play.forms import ClaimDecisionForm, EventForm
from play.models import MobileGame
from play.rules import ending

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


# --- the TD's list -------------------------------------------------------------------------------


@login_required
def td(request):
    if not event_selectors.directs_any(request.user):
        raise PermissionDenied
    context = {
        **event_selectors.td_desk(request.user),
        "outages": event_selectors.td_outages(request.user),
        "oversees_all": event_selectors.oversees_all(request.user),
    }
    return render(request, "play/td_list.html", context)


@login_required
@require_POST
def td_decide(request):
    """The TD's decision on a claim. Only the game's TD (the duty TD for a challenge game) or staff
    may decide; a refused decision is shown on the list with its reason."""
    form = ClaimDecisionForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("The decision was not recorded: the form was incomplete."))
        return redirect("play:td")
    data = form.cleaned_data
    game = get_object_or_404(MobileGame.objects.select_related("event"), code__iexact=data["game"])
    if not event_selectors.may_rule(request.user, game):
        raise PermissionDenied
    record = state.find_claim(state.load(game), data["against"], data["ply"])
    if record is None:
        messages.error(request, _("No such claim in game #%(code)s.") % {"code": game.code})
        return redirect("play:td")
    if record.status not in (ending.OPEN, ending.PROTESTED):
        messages.error(
            request, _("The claim was already %(status)s; nothing changed.") % {"status": _status_word(record.status)}
        )
        return redirect("play:td")
    upheld = data["decision"] == "upheld"
    try:
        services.claim_decide(
            game=game,
            against=data["against"],
            ply=data["ply"],
            upheld=upheld,
            by=request.user,
            no_further=bool(data["no_further"]) and not upheld,
            reason=data["reason"],
        )
    except (services.PlayError, ValueError) as error:
        messages.error(request, _("The decision was refused: %(reason)s") % {"reason": error})
        return redirect("play:td")
    game.refresh_from_db()
    if upheld:
        text = _("Claim upheld in game #%(code)s: the result is %(result)s.")
    else:
        text = _("Claim dismissed in game #%(code)s: play goes on.")
    messages.success(request, text % {"code": game.code, "result": game.result})
    return redirect("play:td")


def _status_word(status: str) -> str:
    words = {
        ending.CONCEDED: _("conceded"),
        ending.UPHELD: _("upheld"),
        ending.DISMISSED: _("dismissed"),
    }
    return words.get(status, status)
