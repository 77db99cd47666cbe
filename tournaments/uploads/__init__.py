"""Uploads beyond the services' preview and confirmation: large files read by a worker
(`worker`), the tournament the federation holds already (`duplicates`), and the confirmation that
replaces it (`replacement`)."""
