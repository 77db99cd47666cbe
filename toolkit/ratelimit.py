"""Per-client rate limits for the public JSON API (fixed windows counted in Django's cache).

A window is `period` seconds long; each client (its address: an IPv6 client by its /64, which
one household or machine holds whole) may make `limit` requests in it. The counters live in
Django's cache, so with Redis as the cache every process of the site shares them.
"""

from __future__ import annotations

import ipaddress
import math
import time
from functools import wraps

from django.conf import settings
from django.core.cache import cache
from django.http import JsonResponse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from federation.clients import client_address
from federation.env import parse_rate

PERIOD_NAMES = {
    1: pgettext_lazy("requests per", "second"),
    60: pgettext_lazy("requests per", "minute"),
    3600: pgettext_lazy("requests per", "hour"),
    86400: pgettext_lazy("requests per", "day"),
}


def api_rate() -> tuple[int, int] | None:
    """(requests, seconds) of settings.API_RATE_LIMIT, or None when the limit is off."""
    return parse_rate(settings.API_RATE_LIMIT)


def describe_rate() -> dict | None:
    """The limit as the API page states it."""
    rate = api_rate()
    if rate is None:
        return None
    return {"limit": rate[0], "period": PERIOD_NAMES[rate[1]]}


def _client_key(request) -> str:
    address = client_address(request)
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if parsed.version == 6:
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed)


def _count(key: str, period: int) -> int:
    """One more request in the window `key`: the count so far, this one included."""
    cache.add(key, 0, timeout=period + 1)
    try:
        return cache.incr(key)
    except ValueError:  # the window's key expired between add() and incr()
        cache.set(key, 1, timeout=period + 1)
        return 1


def rate_limited(view):
    """Answer 429 (JSON, with Retry-After) past the API's rate limit; tell the limit on every answer."""

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        rate = api_rate()
        if rate is None:
            return view(request, *args, **kwargs)
        limit, period = rate
        now = time.time()
        window = int(now // period)
        count = _count(f"api-rate:{period}:{window}:{_client_key(request)}", period)
        retry_after = max(1, math.ceil((window + 1) * period - now))
        if count > limit:
            message = _("Too many requests: at most %(limit)s a %(period)s. Try again in %(seconds)s s.") % {
                "limit": limit,
                "period": PERIOD_NAMES[period],
                "seconds": retry_after,
            }
            response = JsonResponse(
                {"error": message, "retry_after": retry_after}, status=429, json_dumps_params={"ensure_ascii": False}
            )
            response["Retry-After"] = str(retry_after)
            response["Access-Control-Allow-Origin"] = "*"
        else:
            response = view(request, *args, **kwargs)
        response["X-RateLimit-Limit"] = str(limit)
        response["X-RateLimit-Remaining"] = str(max(0, limit - count))
        response["X-RateLimit-Reset"] = str(retry_after)
        return response

    return wrapped
