"""The clients of the multi-host layout (benchmarks/multihost/layout.py), as they meet the site through its
proxy: an arbiter in a browser (log in, upload, confirm the preview as the page fills it in) and a
phone's SMS gateway posting signed webhooks."""

from __future__ import annotations

import datetime
import hashlib
import hmac
import json
import time
import uuid
from html.parser import HTMLParser

KEY = "multihost-webhook-signing-key"


def wait(predicate, timeout: float, what: str, every: float = 0.1):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(every)
    raise RuntimeError(f"timed out after {timeout:.0f} s waiting for {what}")


# --- an arbiter in a browser, through the proxy --------------------------------------------------


class FormFields(HTMLParser):
    """The fields a browser would send with the form `form_id`, as the page fills them in."""

    def __init__(self, form_id: str):
        super().__init__()
        self.form_id, self.inside, self.fields = form_id, False, {}
        self._select: str | None = None
        self._chosen = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.inside = a.get("id") == self.form_id
        if not self.inside:
            return
        if tag == "input" and a.get("name") and a.get("type") not in ("submit", "button", "file"):
            if a.get("type") in ("checkbox", "radio") and "checked" not in a:
                return
            self.fields[a["name"]] = a.get("value") or ("on" if a.get("type") == "checkbox" else "")
        elif tag == "select":
            self._select, self._chosen = a.get("name"), False
        elif tag == "option" and self._select and (not self._chosen or "selected" in a):
            self.fields[self._select] = a.get("value", "")
            self._chosen = self._chosen or "selected" in a

    def handle_endtag(self, tag):
        if tag == "form":
            self.inside = False
        elif tag == "select":
            self._select = None


def form(html: str, form_id: str | None = None) -> dict:
    parser = FormFields(form_id)
    if form_id is None:  # the page's first form
        parser.inside = True
    parser.feed(html)
    return parser.fields


class Arbiter:
    def __init__(self, base: str, username: str, password: str):
        import requests

        self.base = base
        self.session = requests.Session()
        page = self.session.get(f"{base}/accounts/login/", timeout=30)
        token = form(page.text)["csrfmiddlewaretoken"]
        answer = self.session.post(
            f"{base}/accounts/login/",
            data={"username": username, "password": password, "csrfmiddlewaretoken": token},
            timeout=30,
        )
        if "sessionid" not in self.session.cookies:
            raise RuntimeError(f"the arbiter could not log in through the proxy ({answer.status_code})")

    def upload(self, name: str, data: bytes) -> int:
        """Upload a file, confirm its preview as it is filled in; the tournament's id."""
        page = self.session.get(f"{self.base}/arbiter/upload/", timeout=30)
        token = form(page.text)["csrfmiddlewaretoken"]
        answer = self.session.post(
            f"{self.base}/arbiter/upload/",
            data={"csrfmiddlewaretoken": token},
            files={"file": (name, data, "application/octet-stream")},
            timeout=120,
        )
        preview = answer.url
        if "/arbiter/uploads/" not in preview:
            raise RuntimeError(f"the upload was refused ({answer.status_code}): {answer.text[-2000:]}")
        page = wait(
            lambda: (p := self.session.get(preview, timeout=30)) and 'id="confirm-form"' in p.text and p,
            120,
            "the preview",
            every=0.5,
        )
        fields = {**form(page.text, "confirm-form"), "action": "confirm"}
        answer = self.session.post(preview, data=fields, timeout=120)
        if answer.url == preview:
            raise RuntimeError(f"the confirmation was refused ({answer.status_code}): {answer.text[-3000:]}")
        from tournaments.models import Upload

        return Upload.objects.get(pk=int(preview.rstrip("/").rsplit("/", 1)[1])).tournament_id


def make_arbiter() -> tuple[str, str]:
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group, Permission

    from accounts.roles import ARBITERS, ensure_roles

    ensure_roles(Group, Permission)
    username, password = f"multihost-{uuid.uuid4().hex[:6]}", uuid.uuid4().hex
    user = get_user_model().objects.create_user(username=username, password=password, email=f"{username}@example.org")
    user.groups.add(Group.objects.get(name=ARBITERS))
    return username, password


# --- a phone's gateway ---


def sms_post(base: str, phone: str, text: str, number: int):
    import requests

    moment = datetime.datetime.now(datetime.UTC) - datetime.timedelta(seconds=2)
    payload = {
        "messageId": f"mh-{number}-{uuid.uuid4().hex[:6]}",
        "message": text,
        "phoneNumber": phone,
        "simNumber": 1,
        "receivedAt": moment.isoformat(timespec="milliseconds"),
    }
    body = json.dumps({"deviceId": "mh", "event": "sms:received", "id": f"evt-{number}", "payload": payload}).encode()
    timestamp = str(int(time.time()))
    signature = hmac.new(KEY.encode(), body + timestamp.encode(), hashlib.sha256).hexdigest()
    headers = {"Content-Type": "application/json", "X-Signature": signature, "X-Timestamp": timestamp}
    return requests.post(f"{base}/play/hooks/sms/", data=body, headers=headers, timeout=30)
