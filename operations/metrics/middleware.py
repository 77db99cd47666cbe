"""Every request counted by method, URL pattern name and status, and timed. Outermost in
MIDDLEWARE, so the time is the whole answer's; the route is the pattern's name
("players:detail"), never the path, so the series stay few."""

from __future__ import annotations

import time

from operations.metrics import registry


class RequestMetricsMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        start = time.perf_counter()
        response = self.get_response(request)
        match = getattr(request, "resolver_match", None)
        route = (match.view_name or match.route) if match is not None else "<unmatched>"
        method = request.method if request.method in _METHODS else "other"
        registry.REQUEST_SECONDS.labels(method, route).observe(time.perf_counter() - start)
        registry.REQUESTS.labels(method, route, str(response.status_code)).inc()
        return response


_METHODS = {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"}
