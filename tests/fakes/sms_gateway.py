"""A fake "SMS Gateway for Android" REST API on a real socket, for the real client to talk to:
the part the client's `send` uses (POST <base>/messages with Basic auth), answering as the
gateway does (202 and the message's state). It records every request, and can be told to fail
the next N sends with a 5xx first."""

from __future__ import annotations

import base64
import itertools
import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

BASE_PATH = "/3rdparty/v1"


@dataclass
class Request:
    method: str
    path: str
    headers: dict
    body: dict | None
    accepted: bool = False


@dataclass
class FakeGateway:
    user: str = "gw-user"
    password: str = "gw-secret"
    requests: list[Request] = field(default_factory=list)
    fail_next: int = 0
    fail_status: int = 503
    _ids: itertools.count = field(default_factory=lambda: itertools.count(1))
    _server: ThreadingHTTPServer | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}{BASE_PATH}"

    @property
    def sent(self) -> list[dict]:
        """The bodies of the sends the gateway accepted."""
        return [r.body for r in self.requests if r.accepted]

    def start(self) -> FakeGateway:
        gateway = self

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

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw) if raw else None
                except ValueError:
                    body = None
                request = Request("POST", self.path, dict(self.headers), body)
                with gateway._lock:
                    gateway.requests.append(request)
                    failing = gateway.fail_next > 0
                    if failing:
                        gateway.fail_next -= 1
                expected = "Basic " + base64.b64encode(f"{gateway.user}:{gateway.password}".encode()).decode()
                if self.headers.get("Authorization") != expected:
                    return self._answer(401, {"message": "unauthorized"})
                if self.path.split("?")[0] != f"{BASE_PATH}/messages":
                    return self._answer(404, {"message": "not found"})
                if failing:
                    return self._answer(gateway.fail_status, {"message": "device offline"})
                if not body or not body.get("phoneNumbers") or not (body.get("textMessage") or {}).get("text"):
                    return self._answer(400, {"message": "phoneNumbers and textMessage.text are required"})
                request.accepted = True
                message_id = f"gw-msg-{next(gateway._ids)}"
                return self._answer(
                    202,
                    {
                        "id": message_id,
                        "state": "Pending",
                        "recipients": [{"phoneNumber": n, "state": "Pending"} for n in body["phoneNumbers"]],
                        "isHashed": False,
                        "isEncrypted": False,
                    },
                )

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
