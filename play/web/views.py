"""The game page and its parts, "My games" and the continuous record for staff and the TD.

A player's move box posts like any channel's message: the page checks that the account plays as
the player (players.selectors.plays_as), composes the text (play/web/compose.py) and hands it to
play.services.message_receive with channel "web"; then it redirects (POST/redirect/GET) and the
page shows the machine's replies to him, kept by id in the session.

Live updates: the page polls its live fragment every few seconds with the version it shows; an
unchanged game answers 204 No Content after one small query, so idle polling costs next to
nothing, and the fragment of a game that is no longer open carries no polling trigger, so the
polling stops.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import NoReverseMatch
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from play import selectors, services
from play.models import Color, MobileGame
from play.rules.message import parse_message
from play.web import board as boards
from play.web.compose import compose

SESSION_REPLIES = "play_replies"
POLL_SECONDS = 5
# My games lists many games: a slower poll (the clock on move counts in the page meanwhile).
MY_GAMES_POLL_SECONDS = 20
MAX_TEXT = 500

ACTIONS = {
    # button value -> the command it sends (the rules' words, which every channel reads)
    "resign": "RESIGN",
    "accept_draw": "DRAW",
    "draw_claim": "DRAW CLAIM",
}


class MoveForm(forms.Form):
    text = forms.CharField(label=gettext_lazy("Your move or command"), max_length=MAX_TEXT, required=False)
    draw_offer = forms.BooleanField(label=gettext_lazy("Offer a draw with this move"), required=False)
    color = forms.ChoiceField(choices=Color.choices, required=False)
    action = forms.CharField(required=False)


class ConditionalForm(forms.Form):
    lines = forms.CharField(
        label=gettext_lazy("Conditional lines"),
        max_length=MAX_TEXT,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=gettext_lazy(
            "One line a row: your opponent's next move, your reply, and so on, e.g. 12... Nc6 13. Bb5 13... a6 14. Ba4"
        ),
    )
    color = forms.ChoiceField(choices=Color.choices, required=False)


def _event_url(game: MobileGame) -> str | None:
    """The event's page, when the site has one (its URL is in play/events/urls.py)."""
    if game.event is None:
        return None
    try:
        return game.event.get_absolute_url()
    except NoReverseMatch:
        return None


def _ply(request, view: selectors.GameView) -> int:
    try:
        ply = int(request.GET.get("ply", view.plies))
    except ValueError:
        ply = view.plies
    return max(0, min(ply, view.plies))


def _board_context(view: selectors.GameView, ply: int) -> dict:
    position, lastmove = boards.position_at(view.moves, ply)
    if ply:
        label = _("Position after %(move)s") % {"move": view.value.moves[ply - 1].san}
    else:
        label = _("Starting position")
    return {
        "board_svg": boards.svg(position, lastmove=lastmove, flipped=view.flipped, label=label),
        "board_fen": position.board_fen(),
        "board_label": label,
        "ply": ply,
        "latest": ply == view.plies,
        "prev_ply": max(0, ply - 1),
        "next_ply": min(view.plies, ply + 1),
    }


def _live_context(view: selectors.GameView, ply: int | None = None) -> dict:
    game = view.game
    viewer = view.viewer_colors
    top, bottom = (Color.WHITE, Color.BLACK) if view.flipped else (Color.BLACK, Color.WHITE)
    sides = [
        {"color": color, "label": Color(color).label, "player": game.player_of(color), "clock": view.clocks[color],
         "on_move": view.on_move == color, "mine": color in viewer}
        for color in (top, bottom)
    ]  # fmt: skip
    offer = view.draw_offer
    return {
        "game": game,
        "view": view,
        "sides": sides,
        "version": selectors.version_of(game.updated_at, game.plies),
        "poll_seconds": POLL_SECONDS,
        "may_accept_draw": bool(offer) and any(c != offer for c in viewer),
        # In the live fragment, so it appears when the opponent's move makes a claim possible.
        "may_claim_draw": view.on_move in viewer and view.draw_claimable,
        **_board_context(view, view.plies if ply is None else ply),
    }


def _replies(request, game: MobileGame, colors) -> list:
    stored = request.session.get(SESSION_REPLIES, {})
    ids = stored.pop(game.code, None)
    if ids is None:
        return []
    request.session[SESSION_REPLIES] = stored
    return selectors.replies(ids, colors)


def _play_context(view: selectors.GameView) -> dict:
    """The move box's (play/game_play.html): the move input and "Your move" only for the player
    on move; off move, a waiting line and the commands the rules allow then (rule 5, 6)."""
    colors = view.viewer_colors
    return {
        "playing": bool(colors) and view.game.status == MobileGame.Status.OPEN and not view.value.over,
        "my_turn": view.on_move in colors,
        "both": len(colors) == 2,
        "move_form": MoveForm(initial={"color": view.on_move if view.on_move in colors else (colors or [""])[0]}),
        "opponent_last": view.last_move,
    }


@require_GET
def game_page(request, code: str):
    game = selectors.game_by_code(code)
    view = selectors.game_view(game, user=request.user, now=timezone.now())
    colors = view.viewer_colors
    context = {
        **_live_context(view, _ply(request, view)),
        **_play_context(view),
        "event_url": _event_url(game),
        "replies": _replies(request, game, colors),
        "conditional_form": ConditionalForm(),
        "my_lines": [(c, Color(c).label, view.lines(c)) for c in colors],
        "may_see_record": selectors.may_see_record(request.user, game),
        "outages": selectors.game_outages(game, view.now),
    }
    return render(request, "play/game.html", context)


@require_GET
def game_live(request, code: str):
    """The changing parts of the page. `?v=` is the version the page shows: when the game has not
    changed since, 204 and nothing else (one query); an ETag serves clients that poll without it."""
    found = selectors.game_version(code)
    if found is None:
        raise Http404
    version, _open = found
    etag = f'"{version}"'
    if request.GET.get("v") == version:
        return HttpResponse(status=204)
    if etag in [tag.strip() for tag in request.headers.get("If-None-Match", "").split(",")]:
        response = HttpResponse(status=304)
        response["ETag"] = etag
        return response
    game = selectors.game_by_code(code)
    view = selectors.game_view(game, user=request.user, now=timezone.now())
    context = {**_live_context(view), **_play_context(view), "oob": True}
    # The page says (`turn`) whether its move box is the one for the player on move; it is swapped
    # only when the turn has changed since, so a move being typed is not wiped by a poll.
    shown = request.GET.get("turn")
    context["turn_changed"] = shown is not None and shown != ("1" if context["my_turn"] else "0")
    response = render(request, "play/game_live.html", context)
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    return response


@require_GET
def game_board(request, code: str):
    """The board after any ply with the replay buttons (htmx swaps it into the page)."""
    game = selectors.game_by_code(code)
    view = selectors.game_view(game, user=request.user, now=timezone.now())
    return render(
        request, "play/game_board.html", {"game": game, "view": view, **_board_context(view, _ply(request, view))}
    )


def _acting_color(request, game: MobileGame, wanted: str | None) -> str:
    """The colour the account acts as: the one asked for, if he plays it; his only one otherwise.
    Anything else (another's game, the opponent's side) is refused before anything is stored."""
    colors = selectors.colors_of(request.user, game)
    if wanted:
        if wanted not in colors:
            raise PermissionDenied(_("You do not play this side of this game."))
        return wanted
    if len(colors) == 1:
        return colors[0]
    if not colors:
        raise PermissionDenied(_("You do not play in this game."))
    raise PermissionDenied(_("Choose the side you play."))


def _deliver(request, game: MobileGame, color: str, text: str) -> bool:
    """Send the text as the player of `color`; True when the machine replied to him (the page then
    opens at its reply, which a phone must see first: a referral means the move was not played)."""
    tag = parse_message(text).game
    if tag and tag.upper() != game.code.upper():
        messages.error(request, _("This page sends to game #%(code)s only.") % {"code": game.code})
        return False
    receipt = services.message_receive(
        channel="web",
        sender=str(game.player_of(color).federation_id),
        text=text,
        arrival=timezone.now(),
        game_code=game.code,
    )
    mine = [reply.pk for reply in receipt.replies if reply.party == color]
    stored = request.session.get(SESSION_REPLIES, {})
    stored[game.code] = mine
    request.session[SESSION_REPLIES] = stored
    return bool(mine)


@login_required
@require_POST
def game_send(request, code: str):
    """The move box and the game's buttons: a move in any notation, RESIGN, DRAW, DRAW CLAIM."""
    game = selectors.game_by_code(code)
    form = MoveForm(request.POST)
    if not form.is_valid():
        raise PermissionDenied(_("The form was not filled in correctly."))
    color = _acting_color(request, game, form.cleaned_data["color"] or None)
    if game.status == MobileGame.Status.ANNULLED:
        raise PermissionDenied(_("This game was annulled."))
    action = form.cleaned_data["action"]
    # The row stays locked from reading the moves to storing the message, so the repetition the
    # page writes is the one the message is judged against: no move of the opponent between.
    with transaction.atomic():
        if action in ACTIONS:
            text = ACTIONS[action]
        else:
            moves = selectors.moves_for_update(game)
            text = compose(form.cleaned_data["text"], moves, color, draw_offer=form.cleaned_data["draw_offer"])
        replied = _deliver(request, game, color, text) if text else False
    if not text:
        messages.error(request, _("Type your move first."))
        return redirect(f"{game.get_absolute_url()}#play")
    return redirect(f"{game.get_absolute_url()}#{'replies' if replied else 'play'}")


@login_required
@require_POST
def game_conditional(request, code: str):
    """Conditional lines: sent as one `IF` message, lines separated by ';' (as by SMS)."""
    game = selectors.game_by_code(code)
    form = ConditionalForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Write at least one line."))
        return redirect(f"{game.get_absolute_url()}#conditional")
    color = _acting_color(request, game, form.cleaned_data["color"] or None)
    if game.status == MobileGame.Status.ANNULLED:
        raise PermissionDenied(_("This game was annulled."))
    lines = [" ".join(line.split()) for line in form.cleaned_data["lines"].replace(";", "\n").splitlines()]
    lines = [line.removeprefix("IF ").removeprefix("if ") for line in lines if line]
    replied = _deliver(request, game, color, "IF " + "; ".join(lines))
    return redirect(f"{game.get_absolute_url()}#{'replies' if replied else 'conditional'}")


@login_required
@require_GET
def game_record(request, code: str):
    """The whole continuous record, addresses included: staff and the event's TD only."""
    game = selectors.game_by_code(code)
    if not selectors.may_see_record(request.user, game):
        raise PermissionDenied(_("The continuous record is for the federation's staff and the game's TD."))
    return render(request, "play/game_record.html", {"game": game, "rows": selectors.continuous_record(game)})


@login_required
@require_GET
def my_games(request):
    context = {**selectors.my_games(request.user, now=timezone.now()), "poll_seconds": MY_GAMES_POLL_SECONDS}
    return render(request, "play/my_games.html", context)


@login_required
@require_GET
def my_games_live(request):
    """The open games of My games, polled by the page: the clocks from the server's figures."""
    context = {**selectors.my_games(request.user, now=timezone.now()), "poll_seconds": MY_GAMES_POLL_SECONDS}
    return render(request, "play/my_games_live.html", context)
