"""Linking accounts to players: an account asks, staff confirm or reject, either may end a link."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from players import selectors, services
from players.forms import LinkDecisionForm, LinkRequestForm
from players.models import PlayerLink

REVIEW_PERMISSION = "players.change_playerlink"


@login_required
@permission_required("players.add_playerlink", raise_exception=True)
@require_http_methods(["GET", "POST"])
def link_request(request):
    initial = {"federation_id": request.GET.get("player")} if request.GET.get("player") else None
    form = LinkRequestForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            services.link_request(
                user=request.user,
                relation=data["relation"],
                player=data["player"],
                new_family_name=data.get("new_family_name", ""),
                new_given_names=data.get("new_given_names", ""),
                new_birth_date=data.get("new_birth_date"),
                evidence=data.get("evidence", ""),
            )
        except services.LinkError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, _("Your request is sent; you will get an e-mail when it is decided."))
            return redirect("players:my_links")
    return render(request, "players/link_request.html", {"form": form}, status=400 if form.errors else 200)


@login_required
def my_links(request):
    return render(request, "players/my_links.html", {"links": selectors.links_of(user=request.user)})


@login_required
@require_POST
def link_revoke(request, pk: int):
    link = get_object_or_404(PlayerLink.objects.select_related("player", "user"), pk=pk)
    if not services.may_revoke_link(user=request.user, link=link):
        raise Http404  # another account's link is not even shown to exist
    try:
        services.link_revoke(link=link, actor=request.user, reason=request.POST.get("reason", ""))
    except services.LinkError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("The link is ended."))
    if link.user_id == request.user.pk:
        return redirect("players:my_links")
    return redirect(link.player) if link.player_id else redirect("players:link_queue")


@permission_required(REVIEW_PERMISSION, raise_exception=True)
def link_queue(request):
    return render(
        request, "players/link_queue.html", {"pending": selectors.pending_links(), "form": LinkDecisionForm()}
    )


@permission_required(REVIEW_PERMISSION, raise_exception=True)
@require_POST
def link_decide(request, pk: int):
    link = get_object_or_404(PlayerLink, pk=pk)
    form = LinkDecisionForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, error)
        return redirect("players:link_queue")
    try:
        services.link_decide(
            link=link,
            admin=request.user,
            confirm=form.cleaned_data["decision"] == "confirm",
            reason=form.cleaned_data["reason"],
        )
    except services.LinkError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("The decision is recorded and the account holder informed."))
    return redirect("players:link_queue")
