"""/health/ and /health/web/: JSON, 200 when every part is well, 503 naming the failing ones.
No session, no CSRF (GET and HEAD only), never cached."""

from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from operations.health import checks


def _answer(report: dict) -> JsonResponse:
    response = JsonResponse(report, status=200 if report["status"] == checks.OK else 503)
    # A monitor asks every few seconds: the failing parts are logged once each, as warnings
    # (checks.py), not as one error a probe (Django's log of a 5xx, which Sentry would report).
    response._has_been_logged = True
    return response


@never_cache
@require_http_methods(["GET", "HEAD"])
def health(request):
    return _answer(checks.report())


@never_cache
@require_http_methods(["GET", "HEAD"])
def health_web(request):
    return _answer(checks.report(web_only=True))
