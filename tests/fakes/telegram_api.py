"""A fake Telegram Bot API on a real socket, for python-telegram-bot to talk to: the methods the
channel, the update handler and `manage.py play_telegram` use, answering as Telegram does
({"ok": true, "result": ...}, or {"ok": false, "error_code", "description"}):

- getMe; sendMessage (form-encoded, as the client sends it; reply_markup is a JSON string; a text
  over 4,096 UTF-16 code units refused, as Telegram does);
  sendPhoto (multipart/form-data with the picture as a file part);
- answerCallbackQuery (a second answer to the same query is refused, as Telegram does);
  editMessageReplyMarkup (of a message this fake sent);
- setWebhook (an https URL only), deleteWebhook, getWebhookInfo;
- getUpdates from `updates`, the queue tests fill (refused with 409 while a webhook is set, as
  Telegram does; an offset confirms, and so drops, every update before it).

It records every request, and can be told to fail the next N sends (sendMessage, sendPhoto) with
a 5xx (or a 429 with retry_after, or a 403) first."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from email.parser import BytesParser
from email.policy import HTTP
from urllib.parse import parse_qs

from tests.fakes.server import FakeServer

BOT = {"id": 7000001, "is_bot": True, "first_name": "Federation", "username": "federation_chess_bot"}
SENDS = ("sendMessage", "sendPhoto")
# Fields the client JSON-encodes inside a form (python-telegram-bot sends every non-string so).
JSON_FIELDS = ("reply_markup", "allowed_updates", "drop_pending_updates", "offset", "limit", "timeout", "show_alert")


@dataclass
class Request:
    method: str
    path: str
    body: dict
    accepted: bool = False

    @property
    def api_method(self) -> str:
        return self.path.split("?")[0].rpartition("/")[2]


def _error(status: int, description: str) -> tuple[int, dict]:
    return status, {"ok": False, "error_code": status, "description": description}


def _ok(result) -> tuple[int, dict]:
    return 200, {"ok": True, "result": result}


def _multipart(content_type: str, raw: bytes) -> dict:
    """The fields of a multipart/form-data body: text as str, a file part as bytes."""
    message = BytesParser(policy=HTTP).parsebytes(f"Content-Type: {content_type}\r\n\r\n".encode() + raw)
    body = {}
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        payload = part.get_payload(decode=True)
        body[name] = payload if part.get_filename() else payload.decode()
    return body


@dataclass
class FakeTelegram(FakeServer):
    token: str = "7000001:fake-token"
    fail_status: int = 502
    updates: list = field(default_factory=list)  # what getUpdates hands out, oldest first
    webhook: dict = field(default_factory=dict)  # setWebhook's parameters while one is set
    messages: dict = field(default_factory=dict)  # message_id -> message, of what the bot sent
    answered: set = field(default_factory=set)  # callback query ids already answered

    @property
    def base_url(self) -> str:
        """What TELEGRAM_API_URL is set to: the token follows it."""
        return f"{self.origin}/bot"

    @property
    def sent(self) -> list[dict]:
        """The sendMessage bodies the fake accepted."""
        return self.calls("sendMessage")

    @property
    def photos(self) -> list[dict]:
        """The sendPhoto bodies the fake accepted (the picture as bytes under "photo")."""
        return self.calls("sendPhoto")

    def calls(self, method: str, *, accepted_only: bool = True) -> list[dict]:
        return [r.body for r in self.requests if r.api_method == method and (r.accepted or not accepted_only)]

    def answer(self, path: str, headers, raw: bytes) -> tuple[int, dict]:
        content_type = headers.get("Content-Type", "")
        if content_type.startswith("multipart/form-data"):
            body = _multipart(content_type, raw)
        elif content_type.startswith("application/json"):
            body = json.loads(raw.decode() or "{}")
        else:
            body = {key: values[-1] for key, values in parse_qs(raw.decode()).items()}
        for key in JSON_FIELDS:
            if isinstance(body.get(key), str):
                body[key] = json.loads(body[key])
        request = Request("POST", path, body)
        prefix, _, method = path.split("?")[0].rpartition("/")
        failing = self.record(request, may_fail=method in SENDS)
        if prefix != f"/bot{self.token}":
            return _error(401, "Unauthorized")
        handler = getattr(self, f"_{method}", None)
        if handler is None:
            return _error(404, "Not Found")
        if failing:
            return self._failure()
        status, data = handler(body)
        request.accepted = status == 200
        return status, data

    def _failure(self) -> tuple[int, dict]:
        if self.fail_status == 429:
            status, data = _error(429, "Too Many Requests: retry after 3")
            return status, {**data, "parameters": {"retry_after": 3}}
        if self.fail_status == 403:
            return _error(403, "Forbidden: bot was blocked by the user")
        return _error(self.fail_status, "Bad Gateway")

    def _message(self, body: dict, **content) -> dict:
        message = {
            "message_id": next(self._ids),
            "date": int(time.time()),
            "chat": {"id": int(body["chat_id"]), "type": "private"},
            "from": BOT,
            **content,
        }
        if body.get("reply_markup"):
            message["reply_markup"] = body["reply_markup"]
        with self._lock:
            self.messages[message["message_id"]] = message
        return message

    # --- the methods -------------------------------------------------------------------------

    def _getMe(self, body):
        return _ok(BOT)

    def _sendMessage(self, body):
        if not body.get("chat_id") or not body.get("text"):
            return _error(400, "Bad Request: chat_id and text are required")
        if len(body["text"].encode("utf-16-le")) // 2 > 4096:  # Telegram counts UTF-16 code units
            return _error(400, "Bad Request: message is too long")
        return _ok(self._message(body, text=body["text"]))

    def _sendPhoto(self, body):
        photo = body.get("photo")
        if not body.get("chat_id") or not isinstance(photo, bytes) or not photo:
            return _error(400, "Bad Request: chat_id and an uploaded photo are required")
        if len(body.get("caption", "")) > 1024:
            return _error(400, "Bad Request: message caption is too long")
        size = {"file_id": f"photo-{len(self.photos) + 1}", "file_unique_id": "p", "width": 1, "height": 1}
        content = {"photo": [size]}
        if body.get("caption"):
            content["caption"] = body["caption"]
        return _ok(self._message(body, **content))

    def _answerCallbackQuery(self, body):
        query = body.get("callback_query_id")
        if not query:
            return _error(400, "Bad Request: callback_query_id is required")
        with self._lock:
            if query in self.answered:
                return _error(400, "Bad Request: query is too old and response timeout expired or query ID is invalid")
            self.answered.add(query)
        return _ok(True)

    def _editMessageReplyMarkup(self, body):
        message = self.messages.get(int(body.get("message_id") or 0))
        if message is None or str(message["chat"]["id"]) != str(body.get("chat_id")):
            return _error(400, "Bad Request: message to edit not found")
        message = {**message, "reply_markup": body.get("reply_markup") or {"inline_keyboard": []}}
        self.messages[message["message_id"]] = message
        return _ok(message)

    def _setWebhook(self, body):
        url = body.get("url", "")
        if not url.startswith("https://"):
            return _error(400, "Bad Request: bad webhook: An HTTPS URL must be provided for webhook")
        if body.get("drop_pending_updates"):
            self.updates.clear()
        self.webhook = dict(body)
        return _ok(True)

    def _deleteWebhook(self, body):
        if body.get("drop_pending_updates"):
            self.updates.clear()
        self.webhook = {}
        return _ok(True)

    def _getWebhookInfo(self, body):
        info = {"url": self.webhook.get("url", ""), "has_custom_certificate": False}
        info["pending_update_count"] = len(self.updates)
        if self.webhook.get("allowed_updates"):
            info["allowed_updates"] = self.webhook["allowed_updates"]
        return _ok(info)

    def _getUpdates(self, body):
        if self.webhook:
            return _error(409, "Conflict: can't use getUpdates method while webhook is active")
        offset = int(body.get("offset") or 0)
        with self._lock:
            if offset:
                self.updates[:] = [u for u in self.updates if u["update_id"] >= offset]
            batch = self.updates[: int(body.get("limit") or 100)]
        return _ok(batch)
