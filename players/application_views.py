"""FIDE-rating import applications: applying and following one's own (the federation's review,
which sets ratings, is ratings/application_views.py)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from players import services
from players.forms import ApplicationForm
from players.models import FideImportApplication


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
