"""/metrics: Prometheus's text format, behind a token (METRICS_TOKEN)."""
