"""A fake Twilio REST API on a real socket, for twilio-python to talk to: the parts the channel
uses, under /2010-04-01/Accounts/<AccountSid>, with HTTP Basic auth of the account SID and auth
token as Twilio checks it.

- POST .../Messages.json (form-encoded To, From, Body, StatusCallback): 201 and the message
  resource with a new SM... SID, status "queued". Twilio's own refusals, in its error JSON
  ({"code", "message", "more_info", "status"}): 400 code 21211 for a To that is not an E.164
  number, 400 code 21606 for a From that is not the account's number, 400 code 21602 without a
  Body, 401 code 20003 for wrong credentials. It can be told to fail the next N sends with 500.
- GET .../<AccountSid>.json: the account resource (status "active" unless told otherwise).
- GET .../Messages.json (To, From, PageSize): the messages it made, newest first, as Twilio lists
  them. It can be told to make the next N messages and lose the answer (the connection closes
  with none), as when the answer times out after Twilio took the message.

Every request is recorded."""

from __future__ import annotations

import base64
import datetime
import re
from dataclasses import dataclass, field
from email.utils import format_datetime
from urllib.parse import parse_qs, urlsplit

from tests.fakes.server import FakeServer

API_VERSION = "2010-04-01"
E164 = re.compile(r"\+[1-9]\d{1,14}")


@dataclass
class Request:
    method: str
    path: str
    headers: dict
    body: dict
    accepted: bool = False


def _error(status: int, code: int, message: str) -> tuple[int, dict]:
    return status, {
        "code": code,
        "message": message,
        "more_info": f"https://www.twilio.com/docs/errors/{code}",
        "status": status,
    }


@dataclass
class FakeTwilio(FakeServer):
    account_sid: str = "AC" + "0123456789abcdef" * 2
    auth_token: str = "fake-auth-token-0123456789abcdef"
    number: str = "+15005550006"
    friendly_name: str = "Chess federation"
    account_status: str = "active"
    fail_status: int = 500
    lose_answers: int = 0  # the next N messages are made, and their answers lost
    made: list = field(default_factory=list)  # the message resources made, oldest first

    @property
    def url(self) -> str:
        """What TWILIO_API_URL is set to, in place of https://api.twilio.com."""
        return self.origin

    @property
    def sent(self) -> list[dict]:
        """The form bodies of the messages the fake accepted."""
        return [r.body for r in self.requests if r.accepted]

    def _authorised(self, headers) -> bool:
        expected = "Basic " + base64.b64encode(f"{self.account_sid}:{self.auth_token}".encode()).decode()
        return headers.get("Authorization") == expected

    def answer(self, path: str, headers, raw: bytes) -> tuple[int, dict]:
        body = {key: values[-1] for key, values in parse_qs(raw.decode(), keep_blank_values=True).items()}
        request = Request("POST", path, dict(headers), body)
        failing = self.record(request)
        if not self._authorised(headers):
            return _error(401, 20003, "Authenticate")
        if path.split("?")[0] != f"/{API_VERSION}/Accounts/{self.account_sid}/Messages.json":
            return _error(404, 20404, f"The requested resource {path} was not found")
        if failing:
            return _error(self.fail_status, 20500, "Internal Server Error")
        to, sender, text = body.get("To", ""), body.get("From", ""), body.get("Body", "")
        if not E164.fullmatch(to):
            return _error(400, 21211, f"Invalid 'To' Phone Number: {to}")
        if sender != self.number:
            return _error(
                400,
                21606,
                f"The 'From' phone number provided ({sender}) is not a valid message-capable Twilio phone number",
            )
        if not text:
            return _error(400, 21602, "Message body is required.")
        request.accepted = True
        sid = f"SM{next(self._ids):032x}"
        now = format_datetime(datetime.datetime.now(datetime.UTC), usegmt=True)
        resource = {
            "account_sid": self.account_sid,
            "api_version": API_VERSION,
            "body": text,
            "date_created": now,
            "date_sent": None,
            "date_updated": now,
            "direction": "outbound-api",
            "error_code": None,
            "error_message": None,
            "from": sender,
            "messaging_service_sid": None,
            "num_media": "0",
            "num_segments": "1",
            "price": None,
            "price_unit": "USD",
            "sid": sid,
            "status": "queued",
            "subresource_uris": {"media": f"/{API_VERSION}/Accounts/{self.account_sid}/Messages/{sid}/Media.json"},
            "to": to,
            "uri": f"/{API_VERSION}/Accounts/{self.account_sid}/Messages/{sid}.json",
        }
        with self._lock:
            self.made.append(resource)
            lost = self.lose_answers > 0
            if lost:
                self.lose_answers -= 1
        return (None, {}) if lost else (201, resource)

    def answer_get(self, path: str, headers) -> tuple[int, dict]:
        self.record(Request("GET", path, dict(headers), {}), may_fail=False)
        if not self._authorised(headers):
            return _error(401, 20003, "Authenticate")
        messages = f"/{API_VERSION}/Accounts/{self.account_sid}/Messages.json"
        if path.split("?")[0] == messages:
            query = {key: values[-1] for key, values in parse_qs(urlsplit(path).query).items()}
            size = int(query.get("PageSize", 50))
            with self._lock:
                found = [
                    m
                    for m in reversed(self.made)
                    if m["to"] == query.get("To", m["to"]) and m["from"] == query.get("From", m["from"])
                ][:size]
            return 200, {
                "messages": found,
                "end": max(len(found) - 1, 0),
                "first_page_uri": f"{messages}?PageSize={size}&Page=0",
                "next_page_uri": None,
                "page": 0,
                "page_size": size,
                "previous_page_uri": None,
                "start": 0,
                "uri": path,
            }
        if path.split("?")[0] != f"/{API_VERSION}/Accounts/{self.account_sid}.json":
            return _error(404, 20404, f"The requested resource {path} was not found")
        return 200, {
            "auth_token": self.auth_token,
            "date_created": "Tue, 03 Nov 2026 10:00:00 +0000",
            "date_updated": "Tue, 03 Nov 2026 10:00:00 +0000",
            "friendly_name": self.friendly_name,
            "owner_account_sid": self.account_sid,
            "sid": self.account_sid,
            "status": self.account_status,
            "subresource_uris": {"messages": f"/{API_VERSION}/Accounts/{self.account_sid}/Messages.json"},
            "type": "Full",
            "uri": f"/{API_VERSION}/Accounts/{self.account_sid}.json",
        }
