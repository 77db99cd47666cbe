"""The page cache's writers in the web processes: a successful write of staff or arbiters bumps it
(toolkit/pagecache.py keeps the pages; the roles that write public data are named here)."""

from __future__ import annotations

from accounts.roles import ARBITERS, FEDERATION_ADMINS
from toolkit.pagecache import bump_on_commit


def _writes_public_data(user) -> bool:
    if not user.is_authenticated:
        return False
    if user.is_staff or user.is_superuser:
        return True
    return user.groups.filter(name__in=(ARBITERS, FEDERATION_ADMINS)).exists()


class BumpOnWriteMiddleware:
    """Staff and arbiters change public data through many forms (the admin, corrections, uploads):
    any write of theirs that succeeds makes the stored pages out of date. Visitors' own writes (a
    failed login, a follow) change nothing public and do not empty the cache."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if request.method not in ("GET", "HEAD", "OPTIONS", "TRACE") and response.status_code < 400:
            user = getattr(request, "user", None)
            if user is not None and _writes_public_data(user):
                bump_on_commit()
        return response
