"""My phones and chats (/play/channels/): the SMS number and Telegram chat of each player the account
plays as, registered with a one-time code (play/channels/linking.py writes), and the daily e-mail digest.

Every form posts to its own address and, on success, redirects back to the page (POST/redirect/GET);
a refused request shows the page again with the reason beside the form that was sent. The Telegram
code is kept in the session only long enough to show it (the database holds its hash).
"""

from __future__ import annotations

import datetime

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from play.channels import digest, linking, linking_selectors
from play.models import Channel, VerificationCode
from players.models import Player
from players.selectors import plays_as

SESSION_TELEGRAM = "play_telegram_codes"


class NumberForm(forms.Form):
    number = forms.CharField(
        label=gettext_lazy("Phone number"),
        max_length=40,
        help_text=gettext_lazy("International form: + and the country code first, e.g. +7 912 345 67 89."),
        widget=forms.TextInput(attrs={"type": "tel", "autocomplete": "tel", "inputmode": "tel"}),
    )


class CodeForm(forms.Form):
    code = forms.CharField(
        label=gettext_lazy("Code from the SMS"),
        max_length=12,
        widget=forms.TextInput(
            attrs={"inputmode": "numeric", "autocomplete": "one-time-code", "pattern": r"[0-9 ]*", "size": 8}
        ),
    )


class LanguageForm(forms.Form):
    language = forms.ChoiceField(
        label=gettext_lazy("Language of my game messages"),
        choices=Player.MessageLanguage.choices,
        widget=forms.RadioSelect,
    )


class DigestForm(forms.Form):
    enabled = forms.BooleanField(label=gettext_lazy("Daily e-mail digest of my games"), required=False)


def _player(request, pk: int) -> Player:
    player = get_object_or_404(Player, pk=pk)
    if not plays_as(request.user, player):
        raise PermissionDenied(_("Your account does not play as this player."))
    return player


def _telegram_codes(request, now: datetime.datetime) -> dict[int, dict]:
    """The Telegram codes made in this session that can still be used, by player."""
    kept = request.session.get(SESSION_TELEGRAM) or {}
    live = VerificationCode.objects.filter(
        pk__in=[entry["id"] for entry in kept.values()], used_at__isnull=True, expires_at__gt=now
    ).values_list("pk", "expires_at")
    expires = dict(live)
    shown = {}
    for player_pk, entry in kept.items():
        if entry["id"] in expires:
            shown[int(player_pk)] = {
                "code": entry["code"],
                "expires_at": expires[entry["id"]],
                "link": linking.telegram_link(entry["code"]),
            }
    if len(shown) != len(kept):
        request.session[SESSION_TELEGRAM] = {str(k): kept[str(k)] for k in shown}
    return shown


def _page(request, *, bound: dict | None = None, status: int = 200):
    """The page; `bound` holds the form sent with its errors, as {(player pk, "number"): form}."""
    now = timezone.now()
    bound = bound or {}
    codes = _telegram_codes(request, now)
    rows = []
    for row in linking_selectors.player_channels(request.user, now):
        pk = row.player.pk
        rows.append(
            {
                "channels": row,
                "number_form": bound.get((pk, "number")) or NumberForm(auto_id=f"id_%s_{pk}"),
                "code_form": bound.get((pk, "code")) or CodeForm(auto_id=f"id_%s_{pk}"),
                "telegram_code": codes.get(pk),
                "telegram_error": bound.get((pk, "telegram")),
                "language_form": LanguageForm(initial={"language": row.player.message_language}, auto_id=f"id_%s_{pk}"),
            }
        )
    context = {
        "rows": rows,
        "digest_form": DigestForm(initial={"enabled": linking_selectors.digest_enabled(request.user)}),
        "has_email": bool(request.user.email),
        "bot_username": settings.TELEGRAM_BOT_USERNAME,
        "ttl_minutes": int(linking.CODE_TTL.total_seconds() // 60),
        "federation_language": dict(settings.LANGUAGES).get(settings.PLAY_MESSAGE_LANGUAGE, ""),
    }
    return render(request, "play/channels.html", context, status=status)


def _back(player: Player):
    return redirect(f"{_url()}#player-{player.pk}")


def _url() -> str:
    return reverse("play:channels")


@login_required
@require_GET
def channels_page(request):
    return _page(request)


@login_required
@require_POST
def sms_request(request, pk: int):
    player = _player(request, pk)
    form = NumberForm(request.POST, auto_id=f"id_%s_{pk}")
    if form.is_valid():
        try:
            row = linking.sms_code_request(user=request.user, player=player, number=form.cleaned_data["number"])
        except linking.LinkError as error:
            form.add_error("number", str(error))
        else:
            messages.success(
                request, _("A code was sent by SMS to %(number)s. Type it below.") % {"number": row.address}
            )
            return _back(player)
    return _page(request, bound={(pk, "number"): form}, status=400)


@login_required
@require_POST
def sms_confirm(request, pk: int):
    player = _player(request, pk)
    form = CodeForm(request.POST, auto_id=f"id_%s_{pk}")
    if form.is_valid():
        try:
            address = linking.sms_code_confirm(user=request.user, player=player, code=form.cleaned_data["code"])
        except linking.LinkError as error:
            form.add_error("code", str(error))
        else:
            messages.success(
                request,
                _("%(number)s is now the verified SMS number of %(player)s.")
                % {"number": address.address, "player": player.full_name},
            )
            return _back(player)
    return _page(request, bound={(pk, "code"): form}, status=400)


@login_required
@require_POST
def telegram_code(request, pk: int):
    player = _player(request, pk)
    try:
        made = linking.telegram_code_create(user=request.user, player=player)
    except linking.LinkError as error:
        return _page(request, bound={(pk, "telegram"): str(error)}, status=400)
    kept = request.session.get(SESSION_TELEGRAM) or {}
    kept[str(pk)] = {"id": made.row.pk, "code": made.code}
    request.session[SESSION_TELEGRAM] = kept
    return _back(player)


@login_required
@require_POST
def address_remove(request, pk: int, channel: str):
    player = _player(request, pk)
    if channel not in (Channel.SMS, Channel.TELEGRAM):
        raise PermissionDenied(_("Only an SMS number or a Telegram chat can be removed."))
    try:
        linking.address_remove(user=request.user, player=player, channel=channel)
    except linking.LinkError as error:
        messages.error(request, str(error))
    else:
        removed = (
            _("The SMS number of %(player)s is removed.")
            if channel == Channel.SMS
            else _("The Telegram chat of %(player)s is removed.")
        )
        messages.info(request, removed % {"player": player.full_name})
    return _back(player)


@login_required
@require_POST
def language_choice(request, pk: int):
    player = _player(request, pk)
    form = LanguageForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose one of the languages offered."))
        return _back(player)
    linking.message_language_set(user=request.user, player=player, language=form.cleaned_data["language"])
    messages.success(
        request,
        _("The game messages of %(player)s will be in: %(language)s.")
        % {"player": player.full_name, "language": Player.MessageLanguage(player.message_language).label},
    )
    return _back(player)


@login_required
@require_POST
def digest_choice(request):
    form = DigestForm(request.POST)
    form.is_valid()  # a boolean field: anything but "on" is off
    enabled = bool(form.cleaned_data.get("enabled"))
    digest.digest_set(user=request.user, enabled=enabled)
    if enabled and not request.user.email:
        messages.warning(request, _("Your account has no e-mail address: the digest cannot be sent until it has one."))
    elif enabled:
        messages.success(request, _("You will get the daily digest of your games by e-mail."))
    else:
        messages.info(request, _("The daily digest is off."))
    return redirect(f"{_url()}#digest")
