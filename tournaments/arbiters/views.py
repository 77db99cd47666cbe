"""The arbiter's flow: upload a file, check the preview, confirm or cancel."""

from __future__ import annotations

import datetime

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_safe

from players.fide import selectors as fide_selectors
from ratings.notices import tell_if_waiting
from ratings.selectors import tournament_run
from tournaments import selectors, services
from tournaments.arbiters import co_arbiters
from tournaments.arbiters.forms import CoArbiterForm, CoArbiterRemoveForm, ConfirmForm, UploadForm
from tournaments.arbiters.permissions import (
    can_follow_upload,
    can_manage_upload,
    can_name_co_arbiters,
    can_see_tournament,
    is_arbiter,
)
from tournaments.importers import bundles
from tournaments.importers.base import ResultFileError, shown
from tournaments.models import Tournament, Upload
from tournaments.uploads import prediction, worker


def _arbiter_required(request):
    if not is_arbiter(request.user):
        raise PermissionDenied(_("Only arbiters can upload results."))


@login_required
def arbiter_home(request):
    context = {
        "can_upload": is_arbiter(request.user),
        "tournaments": selectors.arbiter_tournaments(user=request.user)[:100],
        "uploads": selectors.arbiter_uploads(user=request.user)[:100],
    }
    return render(request, "tournaments/arbiter_home.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def upload(request):
    _arbiter_required(request)
    form = UploadForm(request.POST or None, request.FILES or None)
    problems = []
    if request.method == "POST" and form.is_valid():
        chosen = [(file.name, file.read()) for file in form.cleaned_data["file"]]
        try:
            file_name, data = bundles.combine(chosen)
            created = worker.upload_start(user=request.user, file_name=file_name, data=data)
        except (services.UploadRefused, ResultFileError) as refused:
            problems = refused.problems
        else:
            return redirect("arbiter:preview", pk=created.pk)
    status = 400 if request.method == "POST" else 200
    return render(request, "tournaments/upload.html", {"form": form, "problems": problems}, status=status)


def _own_upload(request, pk: int) -> Upload:
    upload = get_object_or_404(Upload.objects.select_related("uploaded_by", "tournament"), pk=pk)
    if not can_manage_upload(request.user, upload):
        # Another arbiter's upload does not exist as far as this one can tell.
        raise Http404("No such upload")
    return upload


def _prediction(upload: Upload, form, details) -> dict:
    """What-if: the ratings if confirmed now, with the details the arbiter gave (or the file's)."""
    if details is None:
        initial = {name: form[name].value() for name in ("mchess_weight", "fide_rated")}
        details = services.details_from_file(
            upload.preview["file"], mchess_weight=_int_or_none(initial["mchess_weight"]), fide_rated=False
        )
    return prediction.preview_rows(upload.preview, details)


def _int_or_none(value) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


@login_required
@require_http_methods(["GET", "POST"])
def preview(request, pk: int):
    _arbiter_required(request)
    upload = _own_upload(request, pk)
    if upload.status in (Upload.Status.PARSING, Upload.Status.FAILED):
        return _reading(request, upload)
    if upload.status == Upload.Status.CONFIRMED:
        return redirect("arbiter:upload_progress", pk=upload.pk)  # back after confirming: where it stands
    if upload.status != Upload.Status.PREVIEW:
        messages.info(request, _("This upload was handled already."))
        return redirect("arbiter:home")
    # Duplicates are looked for with the name and dates the arbiter gives, when he gives them (a PGN
    # may have none): the choice to replace is then offered for what the confirmation will check.
    posted = ConfirmForm(request.POST, preview=upload.preview) if request.method == "POST" else None
    details = posted.details() if posted is not None and posted.is_results and posted.is_valid() else None
    duplicates = selectors.preview_duplicates(upload=upload, user=request.user, details=details)
    replaceable = [d.tournament for d in duplicates if d.may_replace]
    form = ConfirmForm(request.POST or None, preview=upload.preview, replaceable=replaceable)
    errors: list[str] = []
    if request.method == "POST" and request.POST.get("action") == "cancel":
        services.upload_cancel(upload=upload)
        messages.success(request, _("The upload was cancelled; nothing was saved."))
        return redirect("arbiter:home")
    if request.method == "POST" and form.is_valid():
        try:
            if form.is_results:
                tournament = services.tournament_confirm(
                    upload=upload,
                    user=request.user,
                    details=form.details(),
                    choices=form.choices(),
                    birth_dates=form.birth_dates(),
                    replaces=form.replaced_tournament(),
                )
                # Only what is done: its rating may be done already (no worker, in a command) or
                # still waiting; the progress page it lands on says which, and follows it.
                games = tournament.games.count()
                messages.success(
                    request,
                    ngettext("%(name)s is saved with %(games)s game.", "%(name)s is saved with %(games)s games.", games)
                    % {"name": tournament.name, "games": games},
                )
                tell_if_waiting(request)
                return redirect("arbiter:upload_progress", pk=upload.pk)
            else:
                players = services.players_register(
                    upload=upload, choices=form.choices(), birth_dates=form.birth_dates()
                )
                messages.success(request, _("%(count)s players are registered.") % {"count": len(players)})
            return redirect("arbiter:home")
        except services.ConfirmError as refused:
            errors = refused.messages
            upload.refresh_from_db()
            form = ConfirmForm(request.POST, preview=upload.preview, replaceable=replaceable)
            form.is_valid()
    # An entrant without a rating in the file whom the FIDE list rates: said per player.
    from_list = (
        fide_selectors.upload_fide_ratings(
            upload.preview, time_control=form["time_control"].value(), on=_date_or_none(form["start_date"].value())
        )
        if form.is_results
        else {}
    )
    for player, *_rest in form.player_fields:
        player["fide_list"] = from_list.get(player["start_number"])
    context = {
        "upload": upload,
        "form": form,
        "errors": errors,
        "duplicates": duplicates,
        "prediction": _prediction(upload, form, details) if form.is_results else None,
        **selectors.preview_context(upload.preview),
    }
    status = 400 if request.method == "POST" else 200
    return render(request, "tournaments/preview.html", context, status=status)


def _reading(request, upload: Upload):
    """A large file a worker is reading (the page follows its progress), or one it refused."""
    if request.method == "POST":
        if request.POST.get("action") == "cancel":
            services.upload_cancel(upload=upload)
            messages.success(request, _("The upload was cancelled; nothing was saved."))
            return redirect("arbiter:home")
        return redirect("arbiter:preview", pk=upload.pk)
    # Stored problems keep their msgid and values: shown in the reader's language.
    problems = [shown(problem) for problem in upload.problems or []]
    return render(request, "tournaments/reading.html", {"upload": upload, "problems": problems})


@login_required
def reading_progress(request, pk: int):
    """The progress of a file being read, polled by the preview page; once read, htmx reloads the page."""
    _arbiter_required(request)
    upload = _own_upload(request, pk)
    if upload.status != Upload.Status.PARSING:
        response = HttpResponse()
        response["HX-Redirect"] = reverse("arbiter:preview", args=[upload.pk])
        return response
    return render(request, "tournaments/reading_progress.html", {"upload": upload})


@login_required
@require_safe
def upload_progress(request, pk: int):
    """A confirmed upload on its way to the public report: queued (and where), being rated, rated,
    published, or failed and why. While something waits, htmx asks again for the part that changes."""
    _arbiter_required(request)
    upload = get_object_or_404(Upload.objects.select_related("uploaded_by", "tournament"), pk=pk)
    if not can_follow_upload(request.user, upload):
        raise Http404("No such upload")  # as another arbiter's preview: it does not exist for him
    if upload.status != Upload.Status.CONFIRMED:
        # Being read, in its preview, refused or a list of players: the preview's page says which.
        return redirect("arbiter:preview", pk=upload.pk)
    part = request.headers.get("HX-Request") == "true"
    context = {"upload": upload, "progress": selectors.upload_progress(upload=upload)}
    response = render(request, f"tournaments/upload_progress{'_state' if part else ''}.html", context)
    patch_vary_headers(response, ["HX-Request"])  # the same address answers the page and its part
    return response


def _visible_tournament(request, pk: int) -> Tournament:
    tournament = get_object_or_404(Tournament.objects.select_related("chief_arbiter"), pk=pk)
    if not can_see_tournament(request.user, tournament):
        # Another arbiter's tournament does not exist in this one's area.
        raise Http404("No such tournament")
    return tournament


@login_required
@require_http_methods(["GET", "POST"])
def tournament(request, pk: int):
    tournament = _visible_tournament(request, pk)
    may_name = can_name_co_arbiters(request.user, tournament)
    form = CoArbiterForm(request.POST or None)
    remove_error = None
    if request.method == "POST":
        if not may_name:
            raise PermissionDenied(_("Only the chief arbiter names co-arbiters."))
        if "remove" in request.POST:
            remove = CoArbiterRemoveForm(request.POST)
            try:
                if not remove.is_valid():
                    raise co_arbiters.CoArbiterError(_("Choose the co-arbiter to remove from the list."))
                user_id = remove.cleaned_data["remove"]
                co_arbiters.co_arbiter_remove(tournament=tournament, user_id=user_id, by=request.user)
            except co_arbiters.CoArbiterError as error:
                remove_error = str(error)
                form = CoArbiterForm()  # the add form was not sent: no errors of its own
            else:
                messages.success(request, _("The co-arbiter is removed."))
                return redirect("arbiter:tournament", pk=tournament.pk)
        elif form.is_valid():
            try:
                user = co_arbiters.co_arbiter_add(
                    tournament=tournament, username=form.cleaned_data["username"], by=request.user
                )
            except co_arbiters.CoArbiterError as error:
                form.add_error("username", str(error))
            else:
                messages.success(request, _("%(name)s is co-arbiter now.") % {"name": user.username})
                return redirect("arbiter:tournament", pk=tournament.pk)
    context = {
        "tournament": tournament,
        "upload": Upload.objects.filter(tournament=tournament).select_related("uploaded_by").first(),
        "co_arbiters": tournament.co_arbiters.order_by("username"),
        "may_name": may_name,
        "form": form,
        "remove_error": remove_error,
        "counts": selectors.tournament_counts(tournament=tournament),
        "run": tournament_run(tournament=tournament),
        "may_retry": request.user.has_perm("tournaments.change_tournament"),
    }
    status = 400 if form.errors or remove_error else 200
    return render(request, "tournaments/arbiter_tournament.html", context, status=status)


@login_required
def tournament_file(request, pk: int):
    """The result file as uploaded: private, for the tournament's arbiters and the federation only."""
    from django.http import FileResponse

    tournament = _visible_tournament(request, pk)
    upload = Upload.objects.filter(tournament=tournament).first()
    if upload is None or not upload.file:
        raise Http404("No file")
    return FileResponse(upload.file.open("rb"), as_attachment=True, filename=upload.original_name)


def _date_or_none(value) -> datetime.date | None:
    """The form's start date as the arbiter left it (a date, an ISO string, or anything he typed)."""
    if isinstance(value, datetime.date):
        return value
    try:
        return datetime.date.fromisoformat(str(value))
    except ValueError:
        return None
