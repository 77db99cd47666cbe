"""The federation's review of FIDE-rating import applications: an approval sets ratings, so the
review lives with the ratings (players keeps the applying and the applicant's own list)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import permission_required
from django.db.models import Q
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts.models import AuditEntry
from players.fide.selectors import application_checks
from players.forms import DecisionForm
from players.models import FideImportApplication, Player
from players.services import ApplicationError
from ratings import applications
from ratings.notices import tell_if_waiting
from ratings.selectors import player_page

REVIEW_PERMISSION = "players.change_fideimportapplication"


@permission_required(REVIEW_PERMISSION, raise_exception=True)
def review_queue(request):
    pending = (
        FideImportApplication.objects.filter(status=FideImportApplication.Status.PENDING)
        .select_related("player", "applicant")
        .order_by("created_at")
    )
    decided = (
        FideImportApplication.objects.exclude(status=FideImportApplication.Status.PENDING)
        .select_related("player", "applicant", "decided_by")
        .order_by("-decided_at")[:50]
    )
    return render(request, "players/review_queue.html", {"pending": pending, "decided": decided})


@permission_required(REVIEW_PERMISSION, raise_exception=True)
@require_http_methods(["GET", "POST"])
def review(request, pk: int):
    application = get_object_or_404(FideImportApplication.objects.select_related("player", "applicant"), pk=pk)
    form = DecisionForm(request.POST or None)
    if request.method == "POST" and application.status == FideImportApplication.Status.PENDING and form.is_valid():
        data = form.cleaned_data
        try:
            applications.application_decide(
                application=application,
                admin=request.user,
                approve=data["decision"] == "approve",
                reason=data["reason"],
                replace_existing=data["replace_existing"],
            )
        except ApplicationError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, _("The decision is recorded and the applicant informed."))
            tell_if_waiting(request)
            return redirect("players:review_queue")
    player = application.player
    same_fide = Player.objects.filter(Q(fide_id=application.fide_id)).exclude(pk=getattr(player, "pk", None))
    others = FideImportApplication.objects.filter(fide_id=application.fide_id).exclude(pk=application.pk)
    context = {
        "application": application,
        "form": form,
        "player_data": player_page(player=player) if player else None,
        "existing": applications.current_ratings(player) if player else {},
        "same_fide": same_fide,
        "other_applications": others.select_related("player"),
        "fide_list": application_checks(application),
        "history": AuditEntry.objects.filter(object_type="players.FideImportApplication", object_id=str(pk)),
    }
    return render(request, "players/review.html", context, status=400 if form.errors else 200)
