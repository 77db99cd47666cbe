"""The desk's pages: the events a user directs or chairs, an event's queue and decisions, a
game's file with the claim buttons, a decision with its appeals, and the game page's appeal.

Reads are for the event's TD, its chairman and federation staff (who see, but do not decide);
every write is checked again by play.desk.services, which refuses with the reason.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from play import selectors as game_selectors
from play import services as play_services
from play.channels import limits
from play.desk import leave as leaves
from play.desk import rulers, selectors, services
from play.desk.forms import AppealForm, AppealRulingForm, ClaimForm, DecisionForm, EnquiryForm, HandledForm
from play.events import selectors as event_selectors
from play.models import MobileGame, Transmission


def too_fast(request) -> bool:
    """True (with the message to the user) when the account's reports from the site are over the
    limit of a phone's messages (play.channels.limits.web_wait): the caller then stores nothing."""
    wait = limits.web_wait(request.user, timezone.now())
    if wait:
        messages.error(request, _("Too many requests: wait %(seconds)s s and send it again.") % {"seconds": wait})
    return bool(wait)


def _viewable(request, event_id: int):
    event = selectors.event_of(event_id)
    if not selectors.may_view(request.user, event):
        raise PermissionDenied
    return event


def _players(event):
    return [entry.player for entry in event.entries.select_related("player").order_by("player__family_name", "pk")]


@login_required
def desk_list(request):
    """The desk's index, the TD's one place: his events, the challenge games for the duty TD and
    staff, and the channel outages (rule 5e) that held up games he directs."""
    events = list(selectors.events_for(request.user))
    challenges = event_selectors.oversees_all(request.user) or event_selectors.is_duty_td(request.user)
    if not events and not challenges:
        raise PermissionDenied
    context = {"events": events, "challenges": challenges, "outages": event_selectors.td_outages(request.user)}
    return render(request, "play/desk_list.html", context)


@login_required
def desk_sanctions(request):
    """The sanction list, for whoever directs or chairs an event, and for staff."""
    if not (selectors.oversees(request.user) or selectors.events_for(request.user).exists()):
        raise PermissionDenied
    return render(request, "play/desk_sanctions.html", {"rows": selectors.sanctions()})


@login_required
def desk_event(request, event_id: int):
    event = _viewable(request, event_id)
    players = _players(event)
    context = {
        "event": event,
        **selectors.queue(event, request.user),
        "form": DecisionForm(players=players),
        "enquiry_form": EnquiryForm(players=players),
        "is_td": request.user.pk == event.td_id,
        "is_chair": request.user.pk == event.appeals_chair_id,
        "outages": event_selectors.event_outages(event),
        "leaves": leaves.requested(event, request.user),
    }
    return render(request, "play/desk_event.html", context)


@login_required
def desk_file(request, event_id: int, code: str):
    event = _viewable(request, event_id)
    context = selectors.game_file(event, code)
    game = context["game"]
    context.update(
        event=event,
        decides=rulers.may_decide(request.user, event, game),
        claims_decides=rulers.may_rule_claims(request.user, event, game),
        passed=rulers.refusal(request.user, event, [game], claims=True),
        form=DecisionForm(
            players=[game.white, game.black],
            initial={"game": game.code, "answers": request.GET.get("answers", "").strip() or None},
        ),
    )
    return render(request, "play/desk_file.html", context)


@login_required
@require_POST
def desk_claim(request, event_id: int, code: str):
    event = _viewable(request, event_id)
    game = get_object_or_404(MobileGame, event=event, code__iexact=code)
    form = ClaimForm(request.POST)
    back = redirect("play:desk_file", event.pk, game.code)
    if not form.is_valid():
        messages.error(request, _("The decision was not recorded: say why, and choose uphold or dismiss."))
        return back
    data = form.cleaned_data
    try:
        decision = services.claim_rule(
            event=event, game=game, against=data["against"], ply=data["ply"], upheld=data["decision"] == "upheld",
            no_further=data["no_further"], by=request.user, text=data["text"],
        )  # fmt: skip
    except (play_services.PlayError, ValueError) as error:
        messages.error(request, _("The decision was refused: %(reason)s") % {"reason": error})
        return back
    game.refresh_from_db()
    messages.success(
        request,
        _("Decision recorded: %(what)s. The result is %(result)s.")
        % {"what": services.describe(decision), "result": game.result},
    )
    return back


@login_required
@require_POST
def desk_decide(request, event_id: int):
    event = _viewable(request, event_id)
    form = DecisionForm(request.POST, players=_players(event))
    back = request.POST.get("back") or ""
    target = redirect(back) if back.startswith("/play/desk/") else redirect("play:desk", event.pk)
    if not form.is_valid():
        problems = "; ".join(f"{form.fields[k].label or k}: {' '.join(v)}" for k, v in form.errors.items())
        messages.error(request, _("The decision was not recorded: %(problems)s") % {"problems": problems})
        return target
    data = form.cleaned_data
    game = None
    if data["game"]:
        game = event.games.select_related("white", "black").filter(code__iexact=data["game"].lstrip("#")).first()
        if game is None:
            messages.error(request, _("No game #%(code)s in this event.") % {"code": data["game"]})
            return target
    player = None
    if data["player"]:
        player = next((p for p in _players(event) if str(p.pk) == data["player"]), None)
    answers = None
    if data["answers"]:
        answers = Transmission.objects.filter(pk=data["answers"], game__event=event, party="td").first()
    try:
        decision = services.decision_make(
            event=event, kind=data["kind"], by=request.user, text=data["text"], game=game, player=player,
            seconds=data["minutes"] * 60 if data["minutes"] else None, all_games=data["all_games"],
            result=data["result"], answers=answers,
        )  # fmt: skip
    except (play_services.PlayError, ValueError) as error:
        messages.error(request, _("The decision was refused: %(reason)s") % {"reason": error})
        return target
    messages.success(request, _("Decision recorded: %(what)s.") % {"what": services.describe(decision)})
    return target


@login_required
@require_POST
def desk_handled(request, event_id: int):
    event = _viewable(request, event_id)
    form = HandledForm(request.POST)
    if form.is_valid():
        row = Transmission.objects.filter(pk=form.cleaned_data["message"], game__event=event).select_related(
            "game__event"
        )
        row = row.first()
        if row is None:
            raise Http404
        try:
            services.mark_handled(message=row, by=request.user, note=form.cleaned_data["note"])
        except services.DeskError as error:
            messages.error(request, _("Not marked: %(reason)s") % {"reason": error})
        else:
            messages.success(request, _("Marked handled."))
    return redirect("play:desk", event.pk)


@login_required
def decision_page(request, pk: int):
    decision = selectors.decision_of(pk)
    if not selectors.may_view(request.user, decision.event):
        raise PermissionDenied
    rows = selectors.appeal_messages(decision)
    for row in rows:  # each appeal's own case: who filed it matters (nobody rules in his own case)
        row.mine = rulers.may_rule_appeals(request.user, decision.event, decision, row)
        row.passed = rulers.refusal(request.user, decision.event, [], decision=decision, message=row)
    context = {
        "decision": decision,
        "event": decision.event,
        "what": services.describe(decision),
        "appeals": rows,
        "file": selectors.game_file(decision.event, decision.game.code) if decision.game_id else None,
    }
    return render(request, "play/desk_decision.html", context)


@login_required
@require_POST
def decision_rule(request, pk: int):
    decision = selectors.decision_of(pk)
    if not selectors.may_view(request.user, decision.event):
        raise PermissionDenied
    form = AppealRulingForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("The ruling was not recorded: give the reasons."))
        return redirect("play:desk_decision", decision.pk)
    row = Transmission.objects.filter(pk=form.cleaned_data["message"]).select_related("game").first()
    if row is None:
        raise Http404
    try:
        appeal = services.appeal_rule(
            decision=decision, message=row, reverse=form.cleaned_data["ruling"] == "reversed",
            reasons=form.cleaned_data["reasons"], by=request.user,
        )  # fmt: skip
    except (play_services.PlayError, ValueError) as error:
        messages.error(request, _("The ruling was refused: %(reason)s") % {"reason": error})
    else:
        if appeal.reversed:
            messages.success(request, _("The decision is reversed. The players were told."))
        else:
            messages.success(request, _("The decision stands. The players were told."))
    return redirect("play:desk_decision", decision.pk)


def _player_text(request, code: str):
    """The game, the side the account plays in it and the form's text (one line, as by SMS)."""
    game = game_selectors.game_by_code(code)
    colors = game_selectors.colors_of(request.user, game)
    form = AppealForm(request.POST)
    if not colors or not form.is_valid() or game.event_id is None:
        raise PermissionDenied(_("You do not play in this game, or the form was empty."))
    color = form.cleaned_data["color"] or colors[0]
    if color not in colors:
        raise PermissionDenied(_("You do not play this side of this game."))
    return game, color, " ".join(form.cleaned_data["text"].split())


@login_required
@require_POST
def game_dispute(request, code: str):
    """The game page's dispute (rule 5d): sent as `DISPUTE text` on the web channel, so it is in
    the record and on the TD's desk as one sent by SMS would be."""
    game, color, text = _player_text(request, code)
    if too_fast(request):
        return redirect(f"{game.get_absolute_url()}#decisions")
    play_services.message_receive(
        channel="web", sender=str(game.player_of(color).federation_id), text="DISPUTE " + text,
        arrival=timezone.now(), game_code=game.code,
    )  # fmt: skip
    messages.success(request, _("Your dispute reached the TD."))
    return redirect(f"{game.get_absolute_url()}#decisions")


@login_required
@require_POST
def game_appeal(request, code: str):
    """The game page's appeal: sent as an `APPEAL text` message on the web channel, as it would
    come by SMS, so every appeal is in the game's record. Refused when no decision on the game
    (or on him in all his games) is still open to appeal."""
    game, color, text = _player_text(request, code)
    if too_fast(request):
        return redirect(f"{game.get_absolute_url()}#decisions")
    now = timezone.now()
    if not selectors.appealable(game, game.player_of(color), now):
        messages.error(request, _("No decision on this game can be appealed any more (one day after it reached you)."))
        return redirect(f"{game.get_absolute_url()}#decisions")
    with transaction.atomic():
        play_services.message_receive(
            channel="web", sender=str(game.player_of(color).federation_id),
            text="APPEAL " + text, arrival=now, game_code=game.code,
        )  # fmt: skip
    messages.success(request, _("Your appeal reached the Appeals Commission chairman."))
    return redirect(f"{game.get_absolute_url()}#decisions")


def _withdrawal_input(data, event):
    """The player, mode, adjudicated results and reason of a withdrawal form (GET or POST)."""
    player = next((p for p in _players(event) if str(p.pk) == data.get("player", "")), None)
    results = {}
    for key, value in data.items():
        if key.startswith("result_") and key[7:].isdigit() and value:
            results[int(key[7:])] = value
    return player, data.get("mode", ""), results, data.get("text", "")


@login_required
def desk_withdraw(request, event_id: int):
    """Withdrawal (rule 8): the TD picks the player and what happens to his games, sees what the
    crosstable and each affected player's Mchess rating would become, then confirms."""
    event = _viewable(request, event_id)
    if not rulers.may_decide(request.user, event):
        raise PermissionDenied
    source = request.POST if request.method == "POST" else request.GET
    player, mode, results, text = _withdrawal_input(source, event)
    context = {"event": event, "players": _players(event), "player": player, "mode": mode, "results": results,
               "text": text, "modes": services.WITHDRAWAL_MODES}  # fmt: skip
    if player is not None:
        context["games"] = [
            {"game": g, "unfinished": g.status == MobileGame.Status.OPEN, "given": results.get(g.pk, "")}
            for g in services.player_games(event, player)
        ]
    if player is not None and mode:
        try:
            plan = services.withdrawal_plan(event, player, mode, results)
        except services.DeskError as error:
            context["problem"] = str(error)
        else:
            context["preview"] = selectors.withdrawal_preview(event, plan)
            context["plan"] = plan
            if request.method == "POST":
                try:
                    decision = services.withdraw(
                        event=event, player=player, mode=mode, by=request.user, text=text, results=results
                    )
                except (play_services.PlayError, ValueError) as error:
                    context["problem"] = str(error)
                else:
                    messages.success(request, _("Decision recorded: %(what)s.") % {"what": services.describe(decision)})
                    return redirect("play:desk_decision", decision.pk)
    return render(request, "play/desk_withdraw.html", context)


@login_required
@require_POST
def desk_enquiry(request, event_id: int):
    """The TD sends a player a question with a deadline (rule 5b)."""
    event = _viewable(request, event_id)
    form = EnquiryForm(request.POST, players=_players(event))
    if not form.is_valid():
        problems = "; ".join(f"{form.fields[k].label or k}: {' '.join(v)}" for k, v in form.errors.items())
        messages.error(request, _("The enquiry was not sent: %(problems)s") % {"problems": problems})
        return redirect("play:desk", event.pk)
    if too_fast(request):  # each enquiry goes to a player's phone
        return redirect("play:desk", event.pk)
    player = next(p for p in _players(event) if str(p.pk) == form.cleaned_data["player"])
    deadline = form.cleaned_data["deadline"]
    try:
        services.enquiry_send(
            event=event, player=player, text=form.cleaned_data["text"], deadline=deadline, by=request.user
        )
    except services.DeskError as error:
        messages.error(request, _("The enquiry was not sent: %(problems)s") % {"problems": error})
    else:
        messages.success(request, _("The enquiry was sent."))
    return redirect("play:desk", event.pk)


@login_required
@require_POST
def desk_enquiry_close(request, event_id: int, pk: int):
    event = _viewable(request, event_id)
    enquiry = get_object_or_404(event.enquiries.select_related("event", "game"), pk=pk)
    try:
        services.enquiry_close(enquiry=enquiry, by=request.user)
    except services.DeskError as error:
        messages.error(request, _("Not closed: %(reason)s") % {"reason": error})
    return redirect("play:desk", event.pk)
