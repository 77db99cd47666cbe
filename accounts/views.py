"""Accounts for players and parents: sign-up confirmed by e-mail, a login that slows guessing
(accounts/throttle.py) and Django's password reset.

A new account is inactive until its owner opens the signed link sent to his address (valid
three days, once: the signed value holds the account's state, which confirming changes).
Sign-up never tells whether an address is registered: the answer is the same page either way
and the address's owner gets a note instead of a second account.
"""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import get_user_model, login
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm, UserCreationForm
from django.contrib.auth.hashers import make_password
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods

from accounts import throttle
from accounts.roles import PLAYERS, role
from toolkit.clients import client_address

# The module's old path: a new salt would void every confirmation link already sent.
SALT = "federation.accounts.confirm"
MAX_AGE = 3 * 24 * 3600
# Mail-sending forms (resend a confirmation, reset a password, the note on a second sign-up):
# at most this many per hour for one address or one account, so nobody can flood a mailbox.
MAILS_PER_ADDRESS = 10
MAILS_PER_TARGET = 3
MAIL_WINDOW = 3600


# --- Confirmation links -----------------------------------------------------------------------


def _state(user) -> str:
    """Changes when the account is confirmed (or logs in, or changes its password): a link made
    before no longer matches, so each link works once."""
    value = f"{user.pk}:{user.is_active}:{user.last_login}:{user.password}"
    return salted_hmac(SALT, value).hexdigest()[:24]


def confirmation_link(user) -> str:
    token = signing.dumps({"user": user.pk, "state": _state(user)}, salt=SALT)
    return f"{settings.SITE_URL}{reverse('confirm', args=[token])}"


def send_confirmation(user) -> None:
    send_mail(
        _("Confirm your account"),
        _("Open this link to confirm your account (valid for three days):\n\n%(link)s")
        % {"link": confirmation_link(user)},
        settings.DEFAULT_FROM_EMAIL,
        [user.email],
    )


def _unconfirmed(queryset):
    """Accounts waiting for their confirmation; an account the staff switched off has logged in
    before and must not be switched on again by a confirmation link."""
    return queryset.filter(is_active=False, last_login__isnull=True)


def _mail_allowed(request, action: str, target: str) -> bool:
    by_address = throttle.allow(f"{action}:address", client_address(request), MAILS_PER_ADDRESS, MAIL_WINDOW)
    return by_address and throttle.allow(f"{action}:target", target, MAILS_PER_TARGET, MAIL_WINDOW)


# --- Sign-up ----------------------------------------------------------------------------------


class SignupForm(UserCreationForm):
    email = forms.EmailField(label=gettext_lazy("E-mail"), help_text=gettext_lazy("We send the confirmation here."))

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")

    def clean_email(self):
        # Whether the address is registered already is never said here: see signup().
        return self.cleaned_data["email"].strip().lower()


def _send_signup_note(request, owner) -> None:
    """Tell the owner of an address that someone tried to sign up with it."""
    if not _mail_allowed(request, "signup-note", owner.email):
        return
    if not owner.is_active and owner.last_login is None:  # see _unconfirmed()
        what_now = _("Your account %(username)s is not confirmed yet. Open this link to confirm it:\n%(link)s") % {
            "username": owner.get_username(),
            "link": confirmation_link(owner),
        }
    else:
        what_now = _(
            "If it was you: you have an account already, %(username)s. Log in here:\n%(login)s\n\n"
            "Forgot the password? Choose a new one here:\n%(reset)s"
        ) % {
            "username": owner.get_username(),
            "login": f"{settings.SITE_URL}{reverse('login')}",
            "reset": f"{settings.SITE_URL}{reverse('password_reset')}",
        }
    send_mail(
        _("Someone tried to sign up with your address"),
        _("Someone tried to create an account on %(site)s with this e-mail address.") % {"site": settings.SITE_NAME}
        + "\n\n"
        + what_now
        + "\n\n"
        + _("If it was not you, ignore this mail: nothing has changed."),
        settings.DEFAULT_FROM_EMAIL,
        [owner.email],
    )


@require_http_methods(["GET", "POST"])
def signup(request):
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        email = form.cleaned_data["email"]
        owner = get_user_model().objects.filter(email__iexact=email).order_by("pk").first()
        if owner is None:
            user = form.save(commit=False)
            user.is_active = False
            user.save()
            send_confirmation(user)
        else:
            # The same work as saving a new account, so the answer's timing tells nothing either.
            make_password(form.cleaned_data["password1"])
            _send_signup_note(request, owner)
        return render(request, "registration/signup_sent.html", {"email": email})
    return render(request, "registration/signup.html", {"form": form})


def confirm(request, token: str):
    User = get_user_model()
    try:
        data = signing.loads(token, salt=SALT, max_age=MAX_AGE)
        user = User.objects.get(pk=data["user"])
    except (signing.BadSignature, KeyError, TypeError, User.DoesNotExist):
        return render(request, "registration/confirm_failed.html", status=400)
    if not constant_time_compare(str(data.get("state", "")), _state(user)):
        if user.is_active:
            return render(request, "registration/confirm_used.html", status=410)
        return render(request, "registration/confirm_failed.html", status=400)
    user.is_active = True
    user.save(update_fields=["is_active"])
    # Every confirmed account holds the player/parent role: apply for FIDE imports, follow players.
    user.groups.add(role(PLAYERS))
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    messages.success(request, _("Your account is confirmed."))
    return redirect("players:applications")


class ResendConfirmationForm(forms.Form):
    login = forms.CharField(label=gettext_lazy("User name or e-mail"), max_length=254)


@require_http_methods(["GET", "POST"])
def resend_confirmation(request):
    """Send a new confirmation link; the answer is the same whether such an account exists or not."""
    form = ResendConfirmationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        name = form.cleaned_data["login"].strip()
        if _mail_allowed(request, "resend", name):
            accounts = _unconfirmed(get_user_model().objects.filter(username=name))
            if "@" in name:
                accounts = accounts | _unconfirmed(get_user_model().objects.filter(email__iexact=name))
            for user in accounts.distinct()[:3]:
                send_confirmation(user)
        return render(request, "registration/resend_sent.html")
    return render(request, "registration/resend.html", {"form": form})


# --- Login ------------------------------------------------------------------------------------


def _duration(seconds: int) -> str:
    if seconds < 120:
        return ngettext("%(count)d second", "%(count)d seconds", seconds) % {"count": seconds}
    minutes = -(-seconds // 60)
    return ngettext("%(count)d minute", "%(count)d minutes", minutes) % {"count": minutes}


class ThrottledLoginMixin:
    """Counts failures per account (growing delays) and per client address (throttle.py); an
    unconfirmed account with the right password is told so instead of "wrong password"."""

    unconfirmed_login = ""

    def clean(self):
        username = (self.cleaned_data.get("username") or "").strip()
        if not username or not self.cleaned_data.get("password"):
            return super().clean()  # the missing field says so; nothing was tried
        address = client_address(self.request)
        device = throttle.known_device(self.request.COOKIES.get(throttle.DEVICE_COOKIE), username)
        verdict = throttle.begin(username, address, device)
        if not verdict.allowed:
            if verdict.reason == "address":
                message = _("Too many failed attempts from your network: try again in %(time)s.")
            else:
                message = _("Too many failed attempts for this account: try again in %(time)s, or reset your password.")
            raise ValidationError(message % {"time": _duration(verdict.wait)}, code="throttled")
        try:
            cleaned = super().clean()
        except ValidationError:
            if self._is_unconfirmed(username, self.cleaned_data.get("password") or ""):
                self.unconfirmed_login = username
                raise ValidationError(
                    _("This account is not confirmed yet: open the link we mailed you, or ask for a new one."),
                    code="inactive",
                ) from None
            throttle.record_failure(username, address, device)
            raise
        finally:
            verdict.release()
        throttle.record_success(username, device)
        return cleaned

    @staticmethod
    def _is_unconfirmed(username: str, password: str) -> bool:
        user = _unconfirmed(get_user_model().objects.filter(username=username)).first()
        return user is not None and user.check_password(password)


class ThrottledAuthenticationForm(ThrottledLoginMixin, AuthenticationForm):
    pass


class ThrottledAdminAuthenticationForm(ThrottledLoginMixin, AdminAuthenticationForm):
    """The admin's own login page would otherwise be a way round the throttle."""


class ThrottledLoginView(auth_views.LoginView):
    form_class = ThrottledAuthenticationForm

    def form_valid(self, form):
        response = super().form_valid(form)
        # This browser is now known to the account: strangers' failures will not slow it down.
        response.set_cookie(
            throttle.DEVICE_COOKIE,
            throttle.remember_device(self.request.COOKIES.get(throttle.DEVICE_COOKIE), form.get_user().get_username()),
            max_age=throttle.DEVICE_MAX_AGE,
            secure=settings.SESSION_COOKIE_SECURE,
            httponly=True,
            samesite="Lax",
        )
        return response


# --- Password reset ---------------------------------------------------------------------------


class ThrottledPasswordResetForm(PasswordResetForm):
    """Django's reset form, with links that start with SITE_URL and a limit on the mails sent."""

    request = None

    def get_users(self, email):
        if self.request is not None and not _mail_allowed(self.request, "reset", email):
            return iter(())
        return super().get_users(email)

    def save(self, *args, request=None, **kwargs):
        self.request = request
        kwargs["extra_email_context"] = {
            **(kwargs.get("extra_email_context") or {}),
            "site_url": settings.SITE_URL,
            "site_name": settings.SITE_NAME,
        }
        return super().save(*args, request=request, **kwargs)


class PasswordResetView(auth_views.PasswordResetView):
    form_class = ThrottledPasswordResetForm
    email_template_name = "registration/password_reset_email.txt"
    subject_template_name = "registration/password_reset_subject.txt"


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    def form_valid(self, form):
        # The owner proved he reads the account's mail: the failures strangers piled up go.
        throttle.forget_account(form.user.get_username())
        return super().form_valid(form)
