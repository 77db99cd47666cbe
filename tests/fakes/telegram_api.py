"""A fake Telegram Bot API on a real socket, for python-telegram-bot to talk to: the methods the
channel uses (POST /bot<token>/getMe, which the client calls when it opens, and
/bot<token>/sendMessage, form-encoded as the client sends them), answering as Telegram does
({"ok": true, "result": ...}). It records every request, and can be told to fail the next N
sendMessage calls with a 5xx (or a 429 with retry_after) first."""

from __future__ import annotations

import itertools
import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs

BOT = {"id": 7000001, "is_bot": True, "first_name": "Federation", "username": "federation_chess_bot"}


@dataclass
class Request:
    method: str
    path: str
    body: dict
    accepted: bool = False


@dataclass
class FakeTelegram:
    token: str = "7000001:fake-token"
    requests: list[Request] = field(default_factory=list)
    fail_next: int = 0
    fail_status: int = 502
    _ids: itertools.count = field(default_factory=lambda: itertools.count(1))
    _server: ThreadingHTTPServer | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def base_url(self) -> str:
        """What TELEGRAM_API_URL is set to: the token follows it."""
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/bot"

    @property
    def sent(self) -> list[dict]:
        """The sendMessage bodies the fake accepted."""
        return [r.body for r in self.requests if r.accepted and r.path.endswith("/sendMessage")]

    def start(self) -> FakeTelegram:
        api = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # quiet test output
                pass

            def _answer(self, status: int, data: dict) -> None:
                raw = json.dumps(data).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def _error(self, status: int, description: str) -> None:
                self._answer(status, {"ok": False, "error_code": status, "description": description})

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length).decode()
                if self.headers.get("Content-Type", "").startswith("application/json"):
                    body = json.loads(raw or "{}")
                else:
                    body = {key: values[-1] for key, values in parse_qs(raw).items()}
                request = Request("POST", self.path, body)
                prefix, _, method = self.path.split("?")[0].rpartition("/")
                with api._lock:
                    api.requests.append(request)
                    failing = method == "sendMessage" and api.fail_next > 0
                    if failing:
                        api.fail_next -= 1
                if prefix != f"/bot{api.token}":
                    return self._error(401, "Unauthorized")
                if method == "getMe":
                    request.accepted = True
                    return self._answer(200, {"ok": True, "result": BOT})
                if method != "sendMessage":
                    return self._error(404, "Not Found")
                if failing and api.fail_status == 429:
                    data = {"ok": False, "error_code": 429, "description": "Too Many Requests: retry after 3"}
                    return self._answer(429, {**data, "parameters": {"retry_after": 3}})
                if failing:
                    return self._error(api.fail_status, "Bad Gateway")
                if not body.get("chat_id") or not body.get("text"):
                    return self._error(400, "Bad Request: chat_id and text are required")
                request.accepted = True
                chat_id = int(body["chat_id"])
                message = {
                    "message_id": next(api._ids),
                    "date": int(time.time()),
                    "chat": {"id": chat_id, "type": "private"},
                    "from": BOT,
                    "text": body["text"],
                }
                return self._answer(200, {"ok": True, "result": message})

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
