"""The site's URLs plus views that fail on purpose, for the error-page tests."""

from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.urls import path

from federation.urls import handler500, urlpatterns

__all__ = ["handler500", "urlpatterns"]


def refuse(request):
    raise PermissionDenied


def garble(request):
    raise SuspiciousOperation("a request that makes no sense")


def crash(request):
    raise RuntimeError("something broke")


urlpatterns = [
    *urlpatterns,
    path("test-errors/403/", refuse),
    path("test-errors/400/", garble),
    path("test-errors/500/", crash),
]
