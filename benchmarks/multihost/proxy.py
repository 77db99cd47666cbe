"""A small reverse proxy for the multi-host layout (benchmarks/multihost/layout.py) where nginx is not
installed: it listens on one address and spreads requests over the web servers in turn, as nginx's
`upstream` block does, passing the client's address and scheme as nginx is told to in
docs/operators/multi-host.md (X-Forwarded-For, X-Forwarded-Proto, X-Forwarded-Host). A web server
that refuses the connection is skipped for that request (the next one is tried), as nginx's
`proxy_next_upstream error` does. One line per request on standard output: the web server, the
status, the method and the path, for the layout's report.

    python -m benchmarks.multihost.proxy --listen 127.0.0.10:8080 --backend 127.0.0.2:8000 --backend 127.0.0.3:8000

Not for production: no TLS, no buffering limits, no keep-alive to the web servers.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import itertools
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

HOP_BY_HOP = {
    "connection",
    "keep-alive",
    "proxy-authenticate",
    "proxy-authorization",
    "te",
    "trailers",
    "transfer-encoding",
    "upgrade",
}


def serve(listen: tuple[str, int], backends: list[tuple[str, int]]) -> ThreadingHTTPServer:
    turn = itertools.cycle(range(len(backends)))
    lock = threading.Lock()
    out = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):  # the one line per request is printed by forward()
            pass

        def forward(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else None
            headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP_BY_HOP}
            client = self.client_address[0]
            earlier = self.headers.get("X-Forwarded-For")
            headers["X-Forwarded-For"] = f"{earlier}, {client}" if earlier else client
            headers["X-Forwarded-Proto"] = "http"
            headers["X-Forwarded-Host"] = self.headers.get("Host", "")
            with lock:
                first = next(turn)
            for step in range(len(backends)):
                host, port = backends[(first + step) % len(backends)]
                connection = http.client.HTTPConnection(host, port, timeout=120)
                try:
                    connection.request(self.command, self.path, body=body, headers=headers)
                    response = connection.getresponse()
                    data = response.read()
                except ConnectionRefusedError:
                    connection.close()
                    continue
                except (OSError, http.client.HTTPException):
                    connection.close()
                    self.send_error(502)
                    return
                self.send_response(response.status, response.reason)
                for name, value in response.getheaders():
                    if name.lower() not in HOP_BY_HOP and name.lower() != "content-length":
                        self.send_header(name, value)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
                connection.close()
                with out:
                    print(f"{host}:{port} {response.status} {self.command} {self.path}", flush=True)
                return
            self.send_error(502, "no web server answered")
            with out:
                print(f"- 502 {self.command} {self.path}", flush=True)

        do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = forward

    server = ThreadingHTTPServer(listen, Handler)
    server.daemon_threads = True
    return server


def address(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    return host, int(port)


def smoke() -> int:
    """The proxy in front of one web server that answers and one that refuses: every request is
    answered by the live one, with the forwarded headers nginx would add."""
    seen = []

    class Backend(BaseHTTPRequestHandler):
        def do_GET(self):
            seen.append(self.headers.get("X-Forwarded-For"))
            body = b"ok"
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    live = ThreadingHTTPServer(("127.0.0.1", 0), Backend)
    refused = ThreadingHTTPServer(("127.0.0.1", 0), Backend)
    dead = refused.server_address
    refused.server_close()  # nothing listens there any more
    proxy = serve(("127.0.0.1", 0), [dead, live.server_address])
    for server in (live, proxy):
        threading.Thread(target=server.serve_forever, daemon=True).start()
    statuses = []
    for _ in range(4):
        connection = http.client.HTTPConnection(*proxy.server_address, timeout=10)
        connection.request("GET", "/health/")
        response = connection.getresponse()
        statuses.append((response.status, response.read()))
        connection.close()
    proxy.shutdown()
    live.shutdown()
    print(f"proxy smoke: answers {statuses}, X-Forwarded-For seen by the web server {seen}")
    return 0 if statuses == [(200, b"ok")] * 4 and seen == ["127.0.0.1"] * 4 else 1


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--listen", type=address)
    parser.add_argument("--backend", type=address, action="append")
    parser.add_argument("--smoke", action="store_true", help="in front of a local test server, then exit")
    args = parser.parse_args(argv)
    if args.smoke:
        return smoke()
    if not args.listen or not args.backend:
        parser.error("--listen and at least one --backend are required")
    server = serve(args.listen, args.backend)
    print(f"proxy listening on {args.listen[0]}:{args.listen[1]}", flush=True)
    with contextlib.suppress(KeyboardInterrupt):
        server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
