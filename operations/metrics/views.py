"""/metrics: the counters of every process of this host and the backlog read now, for Prometheus.
Off (404) while METRICS_TOKEN is unset; 401 without `Authorization: Bearer <METRICS_TOKEN>`."""

from __future__ import annotations

import hmac

from django.conf import settings
from django.http import Http404, HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, generate_latest

from operations.metrics.collectors import BacklogCollector


def _authorised(request) -> bool:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(token.strip().encode(), settings.METRICS_TOKEN.encode())


@never_cache
@require_http_methods(["GET"])
def metrics(request):
    if not settings.METRICS_TOKEN:
        raise Http404
    if not _authorised(request):
        response = HttpResponse("a bearer token is needed\n", status=401, content_type="text/plain")
        response["WWW-Authenticate"] = 'Bearer realm="metrics"'
        return response
    backlog = CollectorRegistry(auto_describe=False)
    backlog.register(BacklogCollector())
    if settings.PROMETHEUS_MULTIPROC_DIR:
        from prometheus_client import multiprocess

        counted = CollectorRegistry()
        multiprocess.MultiProcessCollector(counted, path=settings.PROMETHEUS_MULTIPROC_DIR)
    else:
        counted = REGISTRY
    return HttpResponse(generate_latest(counted) + generate_latest(backlog), content_type=CONTENT_TYPE_LATEST)
