"""The site's settings for the load benchmark: the real ones, with the shared Redis cache.

In production the cache is Redis (CACHE_URL), shared by every gunicorn worker and Celery process.
Where the settings do not configure one (a process-local memory cache), the benchmark gives them
BENCH_CACHE_URL, so its numbers are those of the production set-up.
"""

import os

from federation.settings import *  # noqa: F403

# Django's default, when the settings name none, is the process-local memory cache.
_backend = globals().get("CACHES", {}).get("default", {}).get("BACKEND", "locmem")
_bench_cache = os.environ.get("BENCH_CACHE_URL", "redis://127.0.0.1:6379/13")
if _bench_cache.startswith("file://"):
    # The smoke run's (tests/benchmarks/test_smoke.py): files every process shares, no Redis of anyone's.
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": _bench_cache.removeprefix("file://"),
        }
    }
elif "locmem" in _backend.lower() or "dummy" in _backend.lower():
    CACHES = {
        "default": {
            "BACKEND": "toolkit.rediscache.RedisCache",
            "LOCATION": _bench_cache,
        }
    }
