"""What `ratings` tells the apps above it, which it never imports (they connect in their AppConfig)."""

import time
from contextlib import contextmanager

from django.dispatch import Signal

# Sent by a worker after a rating run, outside its transaction, with `tournament_ids`: the newly
# rated tournaments whose players' followers were not told yet (tournaments mails them).
tournaments_rated = Signal()

# Sent after every rating run (a worker's run of the pending requests, a tournament's run, a re-rating
# from a date), with `kind` ("requests", "tournament", "since"), `outcome` ("done", "failed") and
# `seconds`. operations counts them for /metrics.
rating_run_finished = Signal()


@contextmanager
def run_timed(kind: str):
    """Time the block as one rating run and tell `rating_run_finished` how it ended."""
    start = time.monotonic()
    outcome = "failed"
    try:
        yield
        outcome = "done"
    finally:
        rating_run_finished.send_robust(sender=kind, kind=kind, outcome=outcome, seconds=time.monotonic() - start)
