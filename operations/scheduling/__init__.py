"""Exactly one scheduler for the whole installation, however many `celery beat` are started."""
