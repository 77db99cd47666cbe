"""Benchmarks of the arbiter's flow on the site (upload, confirmation, the progress page)."""
