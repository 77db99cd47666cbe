"""Gunicorn's settings for `make serve` (production), from the environment.

    gunicorn -c federation/gunicorn.conf.py federation.wsgi

Defaults are for a small machine (2 cores) behind a reverse proxy on the same host. Django renders
pages in Python while holding the GIL, so processes give the parallelism and a few threads per
process cover the waits on PostgreSQL and Redis. Measured with `make bench-load`
(docs/developers/benchmarks.md).
"""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from federation.env import env_bool, env_choice, env_int, env_str
from operations import logs

cores = os.cpu_count() or 1

# Where the reverse proxy sends requests: a local port (or unix:/run/federation.sock).
bind = [env_str("GUNICORN_BIND", "127.0.0.1:8000")]
# WEB_CONCURRENCY is the name Heroku-style hosts and gunicorn itself use for the process count.
workers = env_int("WEB_CONCURRENCY", 2 * cores, minimum=1)
worker_class = "gthread"
threads = env_int("GUNICORN_THREADS", 4, minimum=1)
# A request that takes longer than this is stuck: its worker is restarted. Downloads of a whole
# list and tournament reports take well under a second; uploads are read in the request.
timeout = env_int("GUNICORN_TIMEOUT", 60, minimum=1)
graceful_timeout = env_int("GUNICORN_GRACEFUL_TIMEOUT", 30, minimum=1)
keepalive = env_int("GUNICORN_KEEPALIVE", 5, minimum=0)
# Workers are replaced after this many requests (with jitter, not all at once): a slow leak in a
# long-lived process never grows without bound. 0 turns it off.
max_requests = env_int("GUNICORN_MAX_REQUESTS", 5000, minimum=0)
max_requests_jitter = max_requests // 10
# Django is loaded once before forking: less memory, and a broken setting stops the server at once
# instead of every worker failing in turn. Database connections are opened per worker, later.
preload_app = env_bool("GUNICORN_PRELOAD", True)
# Access log to standard output (the service manager keeps it); GUNICORN_ACCESS_LOG=off for none.
_access = env_str("GUNICORN_ACCESS_LOG", "-")
accesslog = None if _access.lower() in ("off", "none", "false", "0") else _access
access_log_format = '%(h)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s %(M)sms "%(f)s" "%(a)s"'
errorlog = "-"
loglevel = env_str("GUNICORN_LOG_LEVEL", "info")
# The proxy's address, whose X-Forwarded-* headers gunicorn believes (FORWARDED_ALLOW_IPS, read by
# gunicorn itself, overrides it); the proxy runs on this host by default.
forwarded_allow_ips = env_str("FORWARDED_ALLOW_IPS", "127.0.0.1,::1")
# Gunicorn's run-time control socket (GUNICORN_CONTROL_SOCKET=/run/federation/gunicorn.ctl to have
# one). Off by default: its default path is one per user's home, which two servers on one host (a
# benchmark beside the site) would fight over.
_control = env_str("GUNICORN_CONTROL_SOCKET", "off")
control_socket_disable = _control.lower() in ("off", "none", "false", "0")
if not control_socket_disable:
    control_socket = _control
# LOG_FORMAT=json: gunicorn's own error and access logs as JSON lines too, like Django's (operations/logs.py).
if env_choice("LOG_FORMAT", "plain", ("plain", "json")) == "json":
    logconfig_dict = logs.gunicorn_config(loglevel)

# PROMETHEUS_MULTIPROC_DIR: each worker writes its metrics to files there; a worker that exits
# takes its live gauges with it (its counters stay counted).
_metrics_dir = env_str("PROMETHEUS_MULTIPROC_DIR", "")


def child_exit(server, worker):
    if _metrics_dir:
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid, _metrics_dir)
