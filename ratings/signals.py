"""What `ratings` tells the apps above it, which it never imports (they connect in their AppConfig)."""

from django.dispatch import Signal

# Sent by a worker after a rating run, outside its transaction, with `tournament_ids`: the newly
# rated tournaments whose players' followers were not told yet (tournaments mails them).
tournaments_rated = Signal()
