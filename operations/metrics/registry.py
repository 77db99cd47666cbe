"""The counters and histograms of the site, created once per process. With PROMETHEUS_MULTIPROC_DIR
set (before the process starts: prometheus-client reads it at import) every process of the host
(gunicorn's workers, Celery's pool) writes its values to files there, and /metrics adds them up."""

from prometheus_client import Counter, Histogram

REQUESTS = Counter(
    "federation_http_requests",
    "HTTP requests answered, by method, URL pattern name and status.",
    ["method", "route", "status"],
)
REQUEST_SECONDS = Histogram(
    "federation_http_request_duration_seconds", "Time to answer an HTTP request, by method and URL pattern name.",
    ["method", "route"],
)  # fmt: skip
RATING_RUNS = Counter(
    "federation_rating_runs",
    "Rating runs finished, by kind (requests: a worker's run of the pending requests; tournament; since: "
    "a re-rating from a date) and outcome (done, failed).",
    ["kind", "outcome"],
)
RATING_RUN_SECONDS = Histogram(
    "federation_rating_run_duration_seconds",
    "Duration of rating runs, by kind.",
    ["kind"],
    buckets=(0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600),
)
MESSAGES_IN = Counter("federation_messages_in", "Inbound mobile-chess messages, by channel.", ["channel"])
MESSAGES_OUT = Counter(
    "federation_messages_out",
    "Outbound mobile-chess messages tried, by channel and result (sent, failed: given up, retry: a passing "
    "failure, held: over the address's rate limit).",
    ["channel", "result"],
)
CLAIMS = Counter("federation_claims", "Time claims, by event (filed, upheld, dismissed).", ["event"])
