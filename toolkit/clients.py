"""Who is asking: the client's address, the same way for every part of the site that counts
requests per client (the API's rate limit, login throttling)."""

from __future__ import annotations

import ipaddress

from django.conf import settings


def client_address(request) -> str:
    """The client's IP address.

    Behind a reverse proxy, settings.TRUSTED_PROXY_HEADER names the header in which the proxy
    passes it. X-Forwarded-For is a list that anyone upstream may have started: the last entry
    is the one our proxy added, the only one to trust. A missing or malformed header falls back
    to REMOTE_ADDR (the proxy's own address) rather than to whatever the client wrote.
    """
    header = settings.TRUSTED_PROXY_HEADER
    if header:
        value = request.META.get("HTTP_" + header.upper().replace("-", "_"), "")
        address = _address(value.rsplit(",", 1)[-1])
        if address:
            return address
    return _address(request.META.get("REMOTE_ADDR", "")) or "unknown"


def _address(text: str) -> str | None:
    try:
        return str(ipaddress.ip_address(text.strip()))
    except ValueError:
        return None
