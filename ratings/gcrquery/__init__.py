"""GCR over any filter of games, computed on request: the GCR document's own page and /api/gcr/."""
