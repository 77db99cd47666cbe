"""A fake "SMS Gateway for Android" REST API on a real socket, for the real client to talk to:
the parts the client's `send` and `health_check` use (POST <base>/messages and GET <base>/health,
with Basic auth), answering as the gateway does (202 and the message's state; the health report).
It records every request, and can be told to fail the next N requests with a 5xx first, or to
take the next N messages and lose the answer (the connection closes with none).

A send may carry the sender's own message id ("id", at most 36 characters); the gateway keeps the
ids it took and answers a repeat with 409 and "Message with the same ID already exists" (the
app's ConflictException, answered by its local server's POST /messages), sending nothing."""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass, field

from tests.fakes.server import FakeServer

BASE_PATH = "/3rdparty/v1"


@dataclass
class Request:
    method: str
    path: str
    headers: dict
    body: dict | None
    accepted: bool = False


@dataclass
class FakeGateway(FakeServer):
    user: str = "gw-user"
    password: str = "gw-secret"
    fail_status: int = 503

    @property
    def url(self) -> str:
        return f"{self.origin}{BASE_PATH}"

    @property
    def sent(self) -> list[dict]:
        """The bodies of the sends the gateway accepted."""
        return [r.body for r in self.requests if r.accepted and r.method == "POST"]

    health: str = "pass"  # what GET /health reports while the gateway answers at all
    lose_answers: int = 0  # the next N messages are taken, and their answers lost
    ids: set = field(default_factory=set)  # the message ids taken so far

    def _authorized(self, headers) -> bool:
        expected = "Basic " + base64.b64encode(f"{self.user}:{self.password}".encode()).decode()
        return headers.get("Authorization") == expected

    def answer_get(self, path: str, headers) -> tuple[int, dict]:
        request = Request("GET", path, dict(headers), None)
        failing = self.record(request)
        if not self._authorized(headers):
            return 401, {"message": "unauthorized"}
        if path.split("?")[0] != f"{BASE_PATH}/health":
            return 404, {"message": "not found"}
        if failing:
            return self.fail_status, {"message": "device offline"}
        request.accepted = True
        check = {"status": self.health, "description": "Connection status", "observedValue": 0}
        return 200, {"status": self.health, "version": "1.40.0", "releaseId": 1, "checks": {"connection:status": check}}

    def answer(self, path: str, headers, raw: bytes) -> tuple[int, dict]:
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        request = Request("POST", path, dict(headers), body)
        failing = self.record(request)
        if not self._authorized(headers):
            return 401, {"message": "unauthorized"}
        if path.split("?")[0] != f"{BASE_PATH}/messages":
            return 404, {"message": "not found"}
        if failing:
            return self.fail_status, {"message": "device offline"}
        if not body or not body.get("phoneNumbers") or not (body.get("textMessage") or {}).get("text"):
            return 400, {"message": "phoneNumbers and textMessage.text are required"}
        given = body.get("id")
        if given is not None and (not isinstance(given, str) or len(given) > 36):
            return 400, {"message": "id must be a string of at most 36 characters"}
        with self._lock:
            if given is not None and given in self.ids:
                return 409, {"message": "Message with the same ID already exists"}
            message_id = given or f"gw-msg-{next(self._ids)}"
            self.ids.add(message_id)
            lost = self.lose_answers > 0
            if lost:
                self.lose_answers -= 1
        request.accepted = True
        if lost:
            return None, {}
        return 202, {
            "id": message_id,
            "state": "Pending",
            "recipients": [{"phoneNumber": n, "state": "Pending"} for n in body["phoneNumbers"]],
            "isHashed": False,
            "isEncrypted": False,
        }
