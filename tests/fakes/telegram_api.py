"""A fake Telegram Bot API on a real socket, for python-telegram-bot to talk to: the methods the
channel uses (POST /bot<token>/getMe, which the client calls when it opens, and
/bot<token>/sendMessage, form-encoded as the client sends them), answering as Telegram does
({"ok": true, "result": ...}). It records every request, and can be told to fail the next N
sendMessage calls with a 5xx (or a 429 with retry_after) first."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from urllib.parse import parse_qs

from tests.fakes.server import FakeServer

BOT = {"id": 7000001, "is_bot": True, "first_name": "Federation", "username": "federation_chess_bot"}


@dataclass
class Request:
    method: str
    path: str
    body: dict
    accepted: bool = False


def _error(status: int, description: str) -> tuple[int, dict]:
    return status, {"ok": False, "error_code": status, "description": description}


@dataclass
class FakeTelegram(FakeServer):
    token: str = "7000001:fake-token"
    fail_status: int = 502

    @property
    def base_url(self) -> str:
        """What TELEGRAM_API_URL is set to: the token follows it."""
        return f"{self.origin}/bot"

    @property
    def sent(self) -> list[dict]:
        """The sendMessage bodies the fake accepted."""
        return [r.body for r in self.requests if r.accepted and r.path.endswith("/sendMessage")]

    def answer(self, path: str, headers, raw: bytes) -> tuple[int, dict]:
        text = raw.decode()
        if headers.get("Content-Type", "").startswith("application/json"):
            body = json.loads(text or "{}")
        else:
            body = {key: values[-1] for key, values in parse_qs(text).items()}
        request = Request("POST", path, body)
        prefix, _, method = path.split("?")[0].rpartition("/")
        failing = self.record(request, may_fail=method == "sendMessage")
        if prefix != f"/bot{self.token}":
            return _error(401, "Unauthorized")
        if method == "getMe":
            request.accepted = True
            return 200, {"ok": True, "result": BOT}
        if method != "sendMessage":
            return _error(404, "Not Found")
        if failing and self.fail_status == 429:
            status, data = _error(429, "Too Many Requests: retry after 3")
            return status, {**data, "parameters": {"retry_after": 3}}
        if failing and self.fail_status == 403:
            return _error(403, "Forbidden: bot was blocked by the user")
        if failing:
            return _error(self.fail_status, "Bad Gateway")
        if not body.get("chat_id") or not body.get("text"):
            return _error(400, "Bad Request: chat_id and text are required")
        request.accepted = True
        message = {
            "message_id": next(self._ids),
            "date": int(time.time()),
            "chat": {"id": int(body["chat_id"]), "type": "private"},
            "from": BOT,
            "text": body["text"],
        }
        return 200, {"ok": True, "result": message}
