"""Error pages that look like the site and speak the visitor's language.

Django's own handlers render 400.html, 403.html and 404.html with the request's context, which
suits them. A 500 is different: the database may be what failed, so the page is rendered with a
small context that needs nothing but the settings (no context processors: they read the session
and the user), and if even that fails the visitor gets plain HTML rather than nothing.
"""

from __future__ import annotations

import logging

from django.http import HttpResponseServerError
from django.shortcuts import render
from django.template import loader
from django.utils.translation import get_language

from federation.context_processors import site_name

logger = logging.getLogger(__name__)

PLAIN_500 = (
    "<!DOCTYPE html><html><head><meta charset='utf-8'><title>Server error</title></head>"
    "<body><h1>Server error (500)</h1><p>Something went wrong on our side. Please try again later.</p>"
    "</body></html>"
)


def server_error(request, template_name: str = "500.html"):
    # The name as every other page shows it (the default translated when SITE_NAME is unset).
    context = {"SITE_NAME": site_name(), "LANGUAGE_CODE": get_language()}
    try:
        content = loader.get_template(template_name).render(context)
    except Exception:
        # The page about an error must not become a second one.
        logger.exception("The 500 page could not be rendered; plain HTML sent instead")
        content = PLAIN_500
    return HttpResponseServerError(content)


def csrf_failure(request, reason: str = ""):
    """A form sent without its token (an old tab, blocked cookies): explained in the site's layout."""
    return render(request, "403_csrf.html", {"reason": reason}, status=403)
