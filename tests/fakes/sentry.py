"""A fake Sentry on a real socket: it takes the envelopes sentry-sdk posts to
/api/<project>/envelope/ (gzip or brotli-free plain), and keeps each as a list of (item header, payload)."""

from __future__ import annotations

import gzip
import json

from tests.fakes.server import FakeServer


class FakeSentry(FakeServer):
    def dsn(self, project: int = 1) -> str:
        return self.origin.replace("http://", "http://public0key@") + f"/{project}"

    def answer(self, path: str, headers, raw: bytes) -> tuple[int, dict]:
        if headers.get("Content-Encoding") == "gzip":
            raw = gzip.decompress(raw)
        self.record((path, envelope_items(raw)), may_fail=False)
        return 200, {}

    def events(self) -> list[dict]:
        """The payloads of the error events received so far."""
        return [payload for _, items in self.requests for header, payload in items if header.get("type") == "event"]


def envelope_items(raw: bytes) -> list[tuple[dict, dict]]:
    """An envelope: a header line, then for each item a header line and its payload."""
    lines = raw.split(b"\n")
    items, i = [], 1
    while i + 1 < len(lines):
        header = json.loads(lines[i]) if lines[i].strip() else {}
        try:
            payload = json.loads(lines[i + 1])
        except ValueError:
            payload = {}
        items.append((header, payload))
        i += 2
    return items
