"""Accounts: the login throttle, sign-up that reveals nothing, single-use confirmation links,
unconfirmed accounts, the password reset and the make_arbiter command."""

import json
import os
import re
import subprocess
import sys
from io import StringIO
from pathlib import Path
from unittest import mock

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.management import CommandError, call_command
from django.test import Client, RequestFactory, override_settings
from django.urls import reverse

from accounts import throttle
from accounts.roles import ARBITERS
from tests.base import PASSWORD, BaseTestCase
from toolkit.clients import client_address

ROOT = Path(__file__).resolve().parents[2]
STRANGER = "203.0.113.66"
OWNER = "198.51.100.7"


def page(response, *variable):
    """The page's text without what legitimately differs: the given strings and CSRF tokens."""
    text = response.content.decode()
    for value in variable:
        text = text.replace(value, "VALUE")
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", text)


class Clock:
    """The throttle's clock, moved by hand: no test sleeps."""

    def __init__(self):
        self.now = 1_800_000_000.0

    def __call__(self):
        return self.now

    def advance(self, seconds):
        self.now += seconds


class ThrottleTestCase(BaseTestCase):
    def setUp(self):
        self.clock = Clock()
        patcher = mock.patch("accounts.throttle._now", self.clock)
        patcher.start()
        self.addCleanup(patcher.stop)

    def try_login(self, username, password, address=STRANGER, client=None):
        return (client or self.client).post(
            reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address
        )

    def fail(self, username, times, address=STRANGER, wait_between=True):
        for _ in range(times):
            verdict = throttle.begin(username, address)
            if wait_between and not verdict.allowed:
                self.clock.advance(verdict.wait)
            verdict.release()
            response = self.try_login(username, "wrong password", address)
            assert response.status_code == 200

    def test_it_grows_the_delay_after_five_failures_up_to_fifteen_minutes(self):
        assert [throttle.delay_after(n) for n in range(4, 10)] == [0, 1, 2, 4, 8, 16]
        assert throttle.delay_after(15) == 900
        assert throttle.delay_after(60) == 900
        self.fail("arbiter", 4)
        assert self.try_login("arbiter", PASSWORD).status_code == 302
        self.client.logout()
        self.fail("arbiter", 7)
        # 7 failures in a row: the next try waits 4 s before the password is even checked.
        response = self.try_login("arbiter", PASSWORD)
        self.assertContains(response, "Too many failed attempts for this account: try again in 4 seconds")
        assert "_auth_user_id" not in self.client.session
        self.clock.advance(4)
        assert self.try_login("arbiter", PASSWORD).status_code == 302

    def test_it_never_locks_the_admin_for_good(self):
        # Strangers from many addresses try the admin's name all day long.
        for number in range(40):
            self.fail("fedadmin", 1, address=f"203.0.113.{number}")
        verdict = throttle.begin("fedadmin", "192.0.2.1")
        assert 0 < verdict.wait <= 15 * 60
        # The delay ends; the owner's right password is checked and accepted.
        self.clock.advance(verdict.wait)
        assert self.try_login("fedadmin", PASSWORD, address=OWNER).status_code == 302

    def test_it_lets_the_owner_in_from_a_known_browser_during_an_attack(self):
        owner = Client()
        assert self.try_login("fedadmin", PASSWORD, address=OWNER, client=owner).status_code == 302
        owner.post(reverse("logout"))
        self.fail("fedadmin", 20)
        # A stranger is delayed; the browser that logged in before is not.
        self.assertContains(self.try_login("fedadmin", PASSWORD), "Too many failed attempts")
        assert self.try_login("fedadmin", PASSWORD, address=OWNER, client=owner).status_code == 302

    def test_it_keeps_a_known_browser_to_its_own_account(self):
        browser = Client()
        assert self.try_login("parent", PASSWORD, client=browser).status_code == 302
        browser.post(reverse("logout"))
        self.fail("arbiter", 10)
        response = self.try_login("arbiter", PASSWORD, client=browser)
        self.assertContains(response, "Too many failed attempts for this account")

    def test_it_limits_one_address_across_accounts_but_not_the_others(self):
        for number in range(throttle.ADDRESS_FAILURES):
            self.try_login(f"someone{number}", "wrong password")
        # The spraying address is stopped, even for an account it has not tried...
        response = self.try_login("parent", PASSWORD)
        self.assertContains(response, "Too many failed attempts from your network: try again in 60 minutes")
        # ...while another address logs in to a different account at once.
        assert self.try_login("parent", PASSWORD, address=OWNER, client=Client()).status_code == 302

    def test_it_counts_the_address_the_trusted_proxy_reports(self):
        with override_settings(TRUSTED_PROXY_HEADER="X-Forwarded-For"):
            for number in range(throttle.ADDRESS_FAILURES):
                self.client.post(
                    reverse("login"),
                    {"username": f"someone{number}", "password": "wrong"},
                    REMOTE_ADDR="10.0.0.1",
                    HTTP_X_FORWARDED_FOR=f"1.2.3.4, {STRANGER}",
                )
            # Everyone comes through the same proxy: another client behind it is not stopped.
            response = Client().post(
                reverse("login"),
                {"username": "parent", "password": PASSWORD},
                REMOTE_ADDR="10.0.0.1",
                HTTP_X_FORWARDED_FOR=OWNER,
            )
        assert response.status_code == 302

    def test_it_throttles_the_admin_login_page_too(self):
        for _ in range(7):
            self.clock.advance(throttle.MAX_DELAY)
            self.client.post(
                reverse("admin:login"), {"username": "fedadmin", "password": "wrong"}, REMOTE_ADDR=STRANGER
            )
        response = self.client.post(
            reverse("admin:login"), {"username": "fedadmin", "password": PASSWORD}, REMOTE_ADDR=STRANGER
        )
        self.assertContains(response, "Too many failed attempts for this account")
        assert "_auth_user_id" not in self.client.session

    def test_it_checks_one_try_at_a_time_while_an_account_is_delayed(self):
        self.fail("arbiter", 5)
        self.clock.advance(1)
        first = throttle.begin("arbiter", STRANGER)
        second = throttle.begin("arbiter", OWNER)
        assert first.allowed
        assert not second.allowed
        first.release()
        assert throttle.begin("arbiter", OWNER).allowed

    def test_it_lets_a_delayed_account_reset_its_password(self):
        self.fail("arbiter", 12)
        assert throttle.begin("arbiter", OWNER).wait > 60
        with override_settings(SITE_URL="https://ratings.example.org"):
            response = self.client.post(reverse("password_reset"), {"email": "arbiter@example.org"}, follow=True)
        self.assertContains(response, "Check your mail")
        link = re.search(r"(\S+/accounts/password/reset/\S+/)", mail.outbox[-1].body).group(1)
        assert link.startswith("https://ratings.example.org/accounts/password/reset/")
        response = self.client.get(link.removeprefix("https://ratings.example.org"), follow=True)
        new_password = "a brand new chess password"
        response = self.client.post(
            response.redirect_chain[-1][0], {"new_password1": new_password, "new_password2": new_password}, follow=True
        )
        self.assertContains(response, "Your password is changed")
        # The strangers' failures went with the reset: the owner logs in at once.
        assert self.try_login("arbiter", new_password, address=OWNER).status_code == 302


@pytest.mark.parametrize("backend", ["file", pytest.param("configured", marks=pytest.mark.needs("redis"))])
def test_it_counts_failures_across_processes_in_the_shared_cache(backend, tmp_path):
    """Another process (another web worker) records the failures; this one sees the delay: in files,
    and in the configured cache, Redis (a local-memory cache is no shared cache)."""
    caches = settings.CACHES
    if backend == "file":
        caches = {
            "default": {"BACKEND": "django.core.cache.backends.filebased.FileBasedCache", "LOCATION": str(tmp_path)}
        }
    code = (
        "import json, sys, django; django.setup();"
        "from django.test import override_settings;"
        "from accounts import throttle;"
        "ctx = override_settings(CACHES=json.loads(sys.argv[1])); ctx.enable();"
        "[throttle.record_failure('arbiter', '203.0.113.5') for _ in range(8)]"
    )
    env = {"DJANGO_SETTINGS_MODULE": "federation.settings_test"}
    result = subprocess.run(  # noqa: S603
        [sys.executable, "-c", code, json.dumps(caches)],
        cwd=ROOT,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    with override_settings(CACHES=caches):
        verdict = throttle.begin("arbiter", "192.0.2.44")
        assert verdict.reason == "account"
        assert 0 < verdict.wait <= 8
        assert throttle.begin("parent", "192.0.2.44").allowed


class ClientAddressTestCase(BaseTestCase):
    def test_it_takes_the_connection_address_without_a_proxy(self):
        request = RequestFactory().get("/", REMOTE_ADDR="192.0.2.1", HTTP_X_FORWARDED_FOR="6.6.6.6")
        assert client_address(request) == "192.0.2.1"

    @override_settings(TRUSTED_PROXY_HEADER="X-Forwarded-For")
    def test_it_takes_the_address_the_proxy_appended(self):
        request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="6.6.6.6, 192.0.2.9")
        assert client_address(request) == "192.0.2.9"
        assert client_address(RequestFactory().get("/", REMOTE_ADDR="10.0.0.1")) == "10.0.0.1"


class SignupTestCase(BaseTestCase):
    def signup(self, username, email):
        return self.client.post(
            reverse("signup"),
            {"username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD},
            REMOTE_ADDR=STRANGER,
        )

    def test_it_answers_a_registered_address_like_a_new_one(self):
        new = self.signup("mother", "mother@example.org")
        registered = self.signup("stranger", "Parent@Example.org")
        assert new.status_code == registered.status_code == 200
        assert page(new, "mother@example.org") == page(registered, "parent@example.org")
        assert not get_user_model().objects.filter(username="stranger").exists()
        # The owner of the address hears of it, with the way back into his account.
        note = mail.outbox[-1]
        assert note.to == ["parent@example.org"]
        assert "Someone tried to create an account" in note.body
        assert "parent" in note.body
        assert f"{settings.SITE_URL}{reverse('password_reset')}" in note.body

    def test_it_sends_an_unconfirmed_owner_a_new_link(self):
        self.signup("mother", "mother@example.org")
        self.signup("mother2", "mother@example.org")
        assert "/accounts/confirm/" in mail.outbox[-1].body
        assert "not confirmed yet" in mail.outbox[-1].body

    def test_it_still_says_a_user_name_is_taken(self):
        response = self.signup("parent", "new@example.org")
        self.assertContains(response, "A user with that username already exists.")
        assert not mail.outbox

    def test_it_confirms_with_a_link_only_once(self):
        self.signup("mother", "mother@example.org")
        link = re.search(r"https?://[^/\s]+(/accounts/confirm/\S+/)", mail.outbox[-1].body).group(1)
        self.assertContains(self.client.get(link, follow=True), "Your account is confirmed.")
        self.client.logout()
        response = self.client.get(link)
        self.assertContains(response, "This link was used already", status_code=410)
        assert "_auth_user_id" not in self.client.session

    @override_settings(SITE_URL="https://ratings.example.org")
    def test_it_starts_the_confirmation_link_with_the_site_url(self):
        self.signup("mother", "mother@example.org")
        assert "https://ratings.example.org/accounts/confirm/" in mail.outbox[-1].body

    def test_it_refuses_a_link_of_an_account_the_staff_switched_off(self):
        self.signup("mother", "mother@example.org")
        link = re.search(r"https?://[^/\s]+(/accounts/confirm/\S+/)", mail.outbox[-1].body).group(1)
        self.client.get(link)
        get_user_model().objects.filter(username="mother").update(is_active=False)
        self.client.logout()
        assert self.client.get(link).status_code == 400
        assert not get_user_model().objects.get(username="mother").is_active


class UnconfirmedAccountTestCase(BaseTestCase):
    def setUp(self):
        self.waiting = get_user_model().objects.create_user("waiting", "waiting@example.org", PASSWORD)
        self.waiting.is_active = False
        self.waiting.save()

    def test_it_tells_an_unconfirmed_account_and_offers_a_new_link(self):
        response = self.client.post(reverse("login"), {"username": "waiting", "password": PASSWORD})
        self.assertContains(response, "This account is not confirmed yet")
        self.assertContains(response, f'action="{reverse("resend_confirmation")}"')
        response = self.client.post(reverse("resend_confirmation"), {"login": "waiting"})
        self.assertContains(response, "If an account waiting for its confirmation has this user name")
        assert mail.outbox[-1].to == ["waiting@example.org"]
        link = re.search(r"https?://[^/\s]+(/accounts/confirm/\S+/)", mail.outbox[-1].body).group(1)
        self.assertContains(self.client.get(link, follow=True), "Your account is confirmed.")

    def test_it_says_nothing_of_the_account_to_a_wrong_password(self):
        response = self.client.post(reverse("login"), {"username": "waiting", "password": "wrong"})
        self.assertNotContains(response, "not confirmed")
        self.assertContains(response, "Please enter a correct username and password")

    def test_it_answers_the_resend_the_same_whether_the_account_exists_or_not(self):
        known = self.client.post(reverse("resend_confirmation"), {"login": "waiting@example.org"})
        unknown = self.client.post(reverse("resend_confirmation"), {"login": "nobody@example.org"})
        active = self.client.post(reverse("resend_confirmation"), {"login": "parent"})
        assert known.status_code == unknown.status_code == active.status_code == 200
        assert page(known) == page(unknown) == page(active)
        assert [message.to for message in mail.outbox] == [["waiting@example.org"]]

    def test_it_limits_the_confirmation_mails(self):
        for _ in range(5):
            response = self.client.post(reverse("resend_confirmation"), {"login": "waiting"})
            assert response.status_code == 200
        assert len(mail.outbox) == 3


class PasswordResetTestCase(BaseTestCase):
    def test_it_links_the_reset_from_the_login_page_in_both_languages(self):
        self.assertContains(self.client.get(reverse("login")), reverse("password_reset"))
        response = self.client.get(reverse("password_reset"), HTTP_ACCEPT_LANGUAGE="ru")
        self.assertContains(response, "Забыли пароль?")
        self.assertContains(response, 'class="brand"')

    def test_it_answers_an_unknown_address_like_a_known_one(self):
        known = self.client.post(reverse("password_reset"), {"email": "parent@example.org"})
        unknown = self.client.post(reverse("password_reset"), {"email": "nobody@example.org"})
        assert known.status_code == unknown.status_code == 302
        assert known["Location"] == unknown["Location"]
        assert [message.to for message in mail.outbox] == [["parent@example.org"]]

    def test_it_limits_the_reset_mails_for_one_address(self):
        for _ in range(5):
            self.client.post(reverse("password_reset"), {"email": "parent@example.org"})
        assert len(mail.outbox) == 3


class MakeArbiterTestCase(BaseTestCase):
    def test_it_creates_an_arbiter_with_a_password_shown_once(self):
        out = StringIO()
        call_command("make_arbiter", "judge", "--email", "Judge@Example.org", stdout=out)
        password = re.search(r"password: (\S+)", out.getvalue()).group(1)
        judge = get_user_model().objects.get(username="judge")
        assert judge.email == "judge@example.org"
        assert judge.is_active
        assert judge.groups.filter(name=ARBITERS).exists()
        assert password not in judge.password
        assert self.client.login(username="judge", password=password)
        assert self.client.get(reverse("arbiter:home")).status_code == 200

    def test_it_promotes_an_existing_account_and_keeps_its_password(self):
        out = StringIO()
        call_command("make_arbiter", "parent", stdout=out)
        assert "now an arbiter" in out.getvalue()
        assert "password:" not in out.getvalue()
        assert self.player_user.groups.filter(name=ARBITERS).exists()
        assert self.client.login(username="parent", password=PASSWORD)

    def test_it_refuses_a_bad_address_and_changes_nothing(self):
        with pytest.raises(CommandError, match="not an e-mail address"):
            call_command("make_arbiter", "judge", "--email", "judge-at-example", stdout=StringIO())
        assert not get_user_model().objects.filter(username="judge").exists()
