"""The JSON API's rate limit per client (settings.API_RATE_LIMIT), counted by the site's one
limiter (toolkit/ratelimit.py, a sliding window). When the cache cannot be reached the error passes
through (a 500), as before the limiter was shared: the API never served past a limit it could not count."""

from __future__ import annotations

import ipaddress
from functools import wraps

from django.conf import settings
from django.http import JsonResponse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from toolkit.clients import client_address
from toolkit.ratelimit import hit
from toolkit.rates import parse_rate

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
    """A client by its address; an IPv6 client by its /64, which one household or machine holds whole."""
    address = client_address(request)
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if parsed.version == 6:
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed)


def rate_limited(view):
    """Answer 429 (JSON, with Retry-After) past the API's rate limit; tell the limit on every answer
    (X-RateLimit-Reset: the seconds until the current window closes, or the wait when refused)."""

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        rate = api_rate()
        if rate is None:
            return view(request, *args, **kwargs)
        limit, period = rate
        decision = hit(f"api:{_client_key(request)}", limit, period)
        if not decision.allowed:
            message = _("Too many requests: at most %(limit)s a %(period)s. Try again in %(seconds)s s.") % {
                "limit": limit,
                "period": PERIOD_NAMES[period],
                "seconds": decision.retry_after,
            }
            response = JsonResponse(
                {"error": message, "retry_after": decision.retry_after},
                status=429,
                json_dumps_params={"ensure_ascii": False},
            )
            response["Retry-After"] = str(decision.retry_after)
            response["Access-Control-Allow-Origin"] = "*"
        else:
            response = view(request, *args, **kwargs)
        response["X-RateLimit-Limit"] = str(limit)
        response["X-RateLimit-Remaining"] = str(decision.remaining)
        response["X-RateLimit-Reset"] = str(decision.retry_after or decision.reset)
        return response

    return wrapped
