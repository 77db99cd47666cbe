"""FIDE-rating import applications: applying, following, and the federation's review."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.db.models import Q
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from federation.models import AuditEntry
from players import services
from players.forms import ApplicationForm, DecisionForm
from players.models import FideImportApplication, Player
from ratings.notices import tell_if_waiting

REVIEW_PERMISSION = "players.change_fideimportapplication"


@login_required
@permission_required("players.add_fideimportapplication", raise_exception=True)
@require_http_methods(["GET", "POST"])
def apply(request):
    initial = {"federation_id": request.GET.get("player")} if request.GET.get("player") else None
    form = ApplicationForm(request.POST or None, request.FILES or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            services.application_submit(
                applicant=request.user,
                player=data["player"],
                new_family_name=data.get("new_family_name", ""),
                new_given_names=data.get("new_given_names", ""),
                new_birth_date=data.get("new_birth_date"),
                fide_id=data["fide_id"],
                fide_rating=data["fide_rating"],
                rating_list_month=data["rating_list_month"],
                evidence_file=data.get("evidence_file"),
                evidence_url=data.get("evidence_url", ""),
            )
        except services.ApplicationError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, _("Your application is sent; you will get an e-mail when it is decided."))
            return redirect("players:applications")
    return render(request, "players/apply.html", {"form": form}, status=400 if form.errors else 200)


@login_required
def my_applications(request):
    applications = FideImportApplication.objects.filter(applicant=request.user).select_related("player")
    return render(request, "players/applications.html", {"applications": applications})


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
    from ratings.selectors import player_page

    application = get_object_or_404(FideImportApplication.objects.select_related("player", "applicant"), pk=pk)
    form = DecisionForm(request.POST or None)
    if request.method == "POST" and application.status == FideImportApplication.Status.PENDING and form.is_valid():
        data = form.cleaned_data
        try:
            services.application_decide(
                application=application,
                admin=request.user,
                approve=data["decision"] == "approve",
                reason=data["reason"],
                replace_existing=data["replace_existing"],
            )
        except services.ApplicationError as error:
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
        "existing": services.current_ratings(player) if player else {},
        "same_fide": same_fide,
        "other_applications": others.select_related("player"),
        "history": AuditEntry.objects.filter(object_type="players.FideImportApplication", object_id=str(pk)),
    }
    return render(request, "players/review.html", context, status=400 if form.errors else 200)
