"""The federation admins' corrections, each behind its permission, each audited."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import permission_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from accounts.models import AuditEntry
from players.models import Player
from ratings import services as rating_services
from ratings.notices import tell_if_waiting
from tournaments.corrections import services as corrections
from tournaments.importers.dates import parse_date
from tournaments.models import Game, Tournament

REASON = forms.CharField(label=gettext_lazy("Reason (kept in the audit log)"), widget=forms.Textarea(attrs={"rows": 2}))


class ReasonForm(forms.Form):
    reason = REASON


class GameForm(forms.Form):
    result = forms.ChoiceField(label=gettext_lazy("Result"), choices=Game.Result.choices)
    kind = forms.ChoiceField(label=gettext_lazy("Kind"), choices=Game.Kind.choices)
    reason = REASON


class MergeForm(forms.Form):
    keep = forms.IntegerField(label=gettext_lazy("Federation id of the record to keep"))
    duplicate = forms.IntegerField(label=gettext_lazy("Federation id of the duplicate"))
    reason = REASON

    def clean(self):
        data = super().clean()
        for field in ("keep", "duplicate"):
            if data.get(field) is not None:
                player = Player.objects.filter(federation_id=data[field]).first()
                if player is None:
                    self.add_error(field, _("No player has this federation id."))
                data[f"{field}_player"] = player
        return data


class BirthDateForm(forms.Form):
    birth_date = forms.CharField(
        label=gettext_lazy("Birth date"),
        required=False,
        help_text=gettext_lazy("A year (2014), a date (2014-05-17), or empty."),
    )
    reason = forms.CharField(
        label=gettext_lazy("Reason (kept in the audit log)"), required=False, widget=forms.Textarea(attrs={"rows": 2})
    )

    def clean_birth_date(self):
        text = self.cleaned_data["birth_date"].strip()
        if not text:
            return (None, "unknown")
        date, precision = parse_date(text)
        if precision == "unknown":
            raise forms.ValidationError(_("Write a year (2014) or a date (2014-05-17)."))
        return (date, precision)


@permission_required("tournaments.change_tournament", raise_exception=True)
@require_http_methods(["GET", "POST"])
def tournament_withdraw(request, pk: int):
    tournament = get_object_or_404(Tournament, pk=pk)
    form = ReasonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            corrections.tournament_withdraw(
                tournament=tournament, admin=request.user, reason=form.cleaned_data["reason"]
            )
        except corrections.CorrectionError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, _("The tournament is withdrawn; the later tournaments are being re-rated."))
            tell_if_waiting(request)
            return redirect("tournaments:list")
    context = {"form": form, "title": _("Withdraw %(name)s") % {"name": tournament}, "object": tournament}
    return render(request, "staff/form.html", context, status=400 if form.errors else 200)


@permission_required("tournaments.change_game", raise_exception=True)
@require_http_methods(["GET", "POST"])
def game_correct(request, pk: int):
    game = get_object_or_404(Game.objects.select_related("tournament", "white", "black"), pk=pk)
    form = GameForm(request.POST or None, initial={"result": game.result, "kind": game.kind})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            corrections.game_correct(
                game=game, admin=request.user, result=data["result"], kind=data["kind"], reason=data["reason"]
            )
        except (corrections.CorrectionError, forms.ValidationError) as error:
            form.add_error(None, str(error))
        else:
            messages.success(
                request, _("The result is corrected; the tournament and the later ones are being re-rated.")
            )
            tell_if_waiting(request)
            return redirect(game.tournament.get_absolute_url())
    title = _("Round %(round)s of %(tournament)s: %(game)s") % {
        "round": game.round,
        "tournament": game.tournament.name,
        "game": game,
    }
    return render(
        request, "staff/form.html", {"form": form, "title": title, "object": game}, status=400 if form.errors else 200
    )


@permission_required("players.change_player", raise_exception=True)
@require_http_methods(["GET", "POST"])
def players_merge(request):
    form = MergeForm(request.POST or None)
    preview = None
    if request.method == "POST" and form.is_valid():
        keep, duplicate = form.cleaned_data["keep_player"], form.cleaned_data["duplicate_player"]
        if request.POST.get("confirm"):
            try:
                corrections.players_merge(
                    keep=keep, duplicate=duplicate, admin=request.user, reason=form.cleaned_data["reason"]
                )
            except corrections.CorrectionError as error:
                form.add_error(None, str(error))
            else:
                messages.success(request, _("The records are merged; their ratings are being recomputed."))
                tell_if_waiting(request)
                return redirect(keep.get_absolute_url())
        else:
            preview = {
                "keep": keep,
                "duplicate": duplicate,
                "tournaments": Tournament.objects.filter(participants__player=duplicate).order_by("end_date"),
            }
    context = {"form": form, "title": _("Merge two player records"), "preview": preview}
    return render(request, "staff/merge.html", context, status=400 if form.errors else 200)


@permission_required("players.change_player", raise_exception=True)
@require_http_methods(["GET", "POST"])
def birth_date_edit(request, federation_id: int):
    player = get_object_or_404(Player, federation_id=federation_id)
    initial = {"birth_date": player.birth_display}
    form = BirthDateForm(request.POST or None, initial=initial)
    differences = None
    if request.method == "POST" and form.is_valid():
        birth_date, precision = form.cleaned_data["birth_date"]
        if request.POST.get("confirm"):
            if not form.cleaned_data["reason"].strip():
                form.add_error("reason", _("Say why the birth date changes."))
            else:
                corrections.birth_date_edit(
                    player=player,
                    birth_date=birth_date,
                    precision=precision,
                    admin=request.user,
                    reason=form.cleaned_data["reason"],
                )
                messages.success(request, _("The birth date is changed; the tournaments concerned are being re-rated."))
                tell_if_waiting(request)
                return redirect(player.get_absolute_url())
        else:
            differences = corrections.preview_birth_date(player=player, birth_date=birth_date, precision=precision)
    context = {
        "form": form,
        "player": player,
        "differences": differences,
        "title": _("Birth date of %(name)s") % {"name": player},
    }
    return render(request, "staff/birth_date.html", context, status=400 if form.errors else 200)


@permission_required("accounts.view_auditentry", raise_exception=True)
def audit_log(request):
    entries = AuditEntry.objects.select_related("actor")[:300]
    return render(request, "staff/audit.html", {"entries": entries})


@permission_required("players.change_fideimportapplication", raise_exception=True)
def evidence(request, pk: int):
    """An application's evidence file, for those who review applications only."""
    from django.http import FileResponse, Http404

    from players.models import FideImportApplication

    application = get_object_or_404(FideImportApplication, pk=pk)
    if not application.evidence_file:
        raise Http404("No evidence file")
    name = application.evidence_file.name.rsplit("/", 1)[-1]
    return FileResponse(application.evidence_file.open("rb"), as_attachment=True, filename=name)


@permission_required("tournaments.change_tournament", raise_exception=True)
@require_http_methods(["POST"])
def rating_retry(request, pk: int):
    """Queue a failed rating run again (the tournament's own, or a re-rating that reaches it)."""
    tournament = get_object_or_404(Tournament, pk=pk)
    if rating_services.retry_request(tournament=tournament, admin=request.user):
        messages.success(request, _("The rating run is queued again."))
        tell_if_waiting(request)
    else:
        messages.info(request, _("No failed rating run to retry."))
    return redirect("arbiter:tournament", pk=tournament.pk)
