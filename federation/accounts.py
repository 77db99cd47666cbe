"""Accounts for players and parents: sign-up confirmed by e-mail, and a login that slows guessing.

A new account is inactive until its owner opens the signed link sent to his address (valid
three days). Failed logins are counted per address and per username; after five in fifteen
minutes the login refuses further tries for fifteen minutes, whatever the password.
"""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.contrib.auth.views import LoginView
from django.core import signing
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from tournaments.roles import PLAYERS, role

SALT = "federation.accounts.confirm"
MAX_AGE = 3 * 24 * 3600
FAILURES_ALLOWED = 5
LOCKOUT_SECONDS = 15 * 60


class SignupForm(UserCreationForm):
    email = forms.EmailField(label=gettext_lazy("E-mail"), help_text=gettext_lazy("We send the confirmation here."))

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")

    def clean_email(self):
        email = self.cleaned_data["email"].strip().lower()
        if get_user_model().objects.filter(email__iexact=email).exists():
            raise ValidationError(_("An account with this address exists already."))
        return email


@require_http_methods(["GET", "POST"])
def signup(request):
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save(commit=False)
        user.is_active = False
        user.save()
        token = signing.dumps({"user": user.pk}, salt=SALT)
        link = request.build_absolute_uri(reverse("confirm", args=[token]))
        send_mail(
            _("Confirm your account"),
            _("Open this link to confirm your account (valid for three days):\n\n%(link)s") % {"link": link},
            settings.DEFAULT_FROM_EMAIL,
            [user.email],
        )
        return render(request, "registration/signup_sent.html", {"email": user.email})
    return render(request, "registration/signup.html", {"form": form})


def confirm(request, token: str):
    try:
        data = signing.loads(token, salt=SALT, max_age=MAX_AGE)
        user = get_user_model().objects.get(pk=data["user"])
    except (signing.BadSignature, get_user_model().DoesNotExist):
        return render(request, "registration/confirm_failed.html", status=400)
    if not user.is_active:
        user.is_active = True
        user.save(update_fields=["is_active"])
        # Every confirmed account holds the player/parent role: apply for FIDE imports, follow players.
        user.groups.add(role(PLAYERS))
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    messages.success(request, _("Your account is confirmed."))
    return redirect("players:applications")


def _keys(request, username: str) -> list[str]:
    address = request.META.get("REMOTE_ADDR", "")
    return [f"login-failures:ip:{address}", f"login-failures:user:{username.strip().lower()}"]


class ThrottledAuthenticationForm(AuthenticationForm):
    def clean(self):
        username = self.data.get("username", "")
        keys = _keys(self.request, username)
        if any(cache.get(key, 0) >= FAILURES_ALLOWED for key in keys):
            raise ValidationError(_("Too many failed attempts: try again in 15 minutes."), code="throttled")
        try:
            return super().clean()
        except ValidationError:
            for key in keys:
                cache.add(key, 0, LOCKOUT_SECONDS)
                try:
                    cache.incr(key)
                except ValueError:
                    cache.set(key, 1, LOCKOUT_SECONDS)
            raise


class ThrottledLoginView(LoginView):
    form_class = ThrottledAuthenticationForm
