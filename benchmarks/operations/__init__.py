"""Benchmarks of running the site: backups and restores, the FIDE list import."""
