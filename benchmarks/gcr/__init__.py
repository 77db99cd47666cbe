"""Benchmarks of GCR computed on request (the GCR filter page and /api/gcr/)."""
