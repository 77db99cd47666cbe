"""Benchmarks of running the site: a newcomer's set-up, backups and restores, the FIDE list import."""
