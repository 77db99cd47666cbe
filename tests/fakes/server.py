"""A fake HTTP API on a real socket, for a real client library to talk to in tests: a threaded
server on a free local port that hands every POST to the fake's `answer` (and every GET to its
`answer_get`, which refuses unless the fake speaks GET) and writes back its JSON. It records
requests and can be told to fail the next N of them; an answer of status None closes the
connection without one (an answer lost on the way). The SMS gateway, Telegram and Twilio fakes
differ only in what they answer."""

from __future__ import annotations

import itertools
import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class FakeServer:
    requests: list = field(default_factory=list)
    fail_next: int = 0
    _ids: itertools.count = field(default_factory=lambda: itertools.count(1))
    _server: ThreadingHTTPServer | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def origin(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def record(self, request, *, may_fail: bool = True) -> bool:
        """Keep the request; True when it is to fail (one of the next N told to)."""
        with self._lock:
            self.requests.append(request)
            failing = may_fail and self.fail_next > 0
            if failing:
                self.fail_next -= 1
        return failing

    def answer(self, path: str, headers, raw: bytes) -> tuple[int, dict]:
        raise NotImplementedError

    def answer_get(self, path: str, headers) -> tuple[int, dict]:
        return 405, {"message": "method not allowed"}

    def start(self):
        fake = self

        class Handler(BaseHTTPRequestHandler):
            # Keep-alive, as the real APIs: a client that reuses its connection is served on it.
            # Without TCP_NODELAY the body, written after the headers, would wait for the client's
            # delayed ACK (40 ms) on a kept-alive connection.
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True

            def log_message(self, *args):  # quiet test output
                pass

            def do_POST(self):
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                self.reply(*fake.answer(self.path, self.headers, raw))

            def do_GET(self):
                self.reply(*fake.answer_get(self.path, self.headers))

            def reply(self, status: int | None, data: dict):
                if status is None:  # the answer is lost: the connection closes with none
                    self.close_connection = True
                    return
                body = json.dumps(data).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
