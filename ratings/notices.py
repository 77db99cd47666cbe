"""What a page says after a change that needs a re-rating, when the rating queue could not be reached."""

from __future__ import annotations

from django.contrib import messages
from django.utils.translation import gettext as _

from ratings.selectors import requests_waiting


def tell_if_waiting(request) -> bool:
    """Add the "the run waits" notice when a rating request could not be sent (the broker is down)."""
    if not requests_waiting():
        return False
    messages.warning(
        request,
        _(
            "The rating queue cannot be reached just now: the change is saved and its rating run waits "
            "for a worker. It starts by itself as soon as the queue is back."
        ),
    )
    return True
