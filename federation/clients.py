"""Who is asking: the client's address, also behind a reverse proxy.

Behind a proxy every connection comes from the proxy itself, so counting by REMOTE_ADDR would
treat the whole world as one client. The proxy appends the address it saw to a header
(settings.TRUSTED_PROXY_HEADER, e.g. X-Forwarded-For); only the right-most entry is its own
work: anything to the left came from the client and can be forged.
"""

from __future__ import annotations

from django.conf import settings


def client_address(request) -> str:
    header = getattr(settings, "TRUSTED_PROXY_HEADER", "")
    if header:
        value = request.META.get("HTTP_" + header.upper().replace("-", "_"), "")
        entries = [entry.strip() for entry in value.split(",") if entry.strip()]
        if entries:
            return entries[-1]
    return request.META.get("REMOTE_ADDR", "")
