"""Reading configuration from the environment, loudly.

django-environ parses URLs well but forgives too much: ``Env.bool("maybe")`` is
quietly False and an unknown database scheme is guessed at. A federation's
rating data must never land in the wrong database because of a typo, so every
helper here raises ``ImproperlyConfigured`` naming the variable and the value.
"""

from __future__ import annotations

import ipaddress
import math
import os
import re
from collections.abc import Mapping
from urllib.parse import urlsplit

import environ
from django.core.exceptions import ImproperlyConfigured

from toolkit.rates import parse_rate

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}
_DATABASE_SCHEMES = {"postgres", "postgresql", "pgsql", "sqlite"}
_BROKER_SCHEMES = {"redis", "rediss", "memory"}


def _raw(name: str, environ_: Mapping[str, str] | None) -> str | None:
    source = os.environ if environ_ is None else environ_
    value = source.get(name)
    if value is None or value.strip() == "":
        return None
    return value.strip()


def env_str(name: str, default: str | None = None, *, environ_=None) -> str | None:
    value = _raw(name, environ_)
    return default if value is None else value


def env_bool(name: str, default: bool, *, environ_=None) -> bool:
    value = _raw(name, environ_)
    if value is None:
        return default
    if value.lower() in _TRUE:
        return True
    if value.lower() in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={value!r} is not a boolean; use one of true/false, yes/no, on/off, 1/0")


def env_int(name: str, default: int, *, minimum: int | None = None, maximum: int | None = None, environ_=None) -> int:
    value = _raw(name, environ_)
    if value is None:
        return default
    try:
        number = int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not a whole number") from None
    if maximum is not None and number > maximum:
        raise ImproperlyConfigured(f"{name}={number} is above the maximum of {maximum}")
    return _at_least(name, number, minimum)


def env_float(name: str, default: float, *, minimum: float | None = None, environ_=None) -> float:
    value = _raw(name, environ_)
    if value is None:
        return default
    try:
        number = float(value)
    except ValueError:
        number = math.nan
    if math.isnan(number) or math.isinf(number):
        raise ImproperlyConfigured(f"{name}={value!r} is not a number")
    return _at_least(name, number, minimum)


def _at_least(name: str, number, minimum):
    if minimum is not None and number < minimum:
        raise ImproperlyConfigured(f"{name}={number} is below the minimum of {minimum}")
    return number


def env_choice(name: str, default: str, choices: tuple[str, ...], *, environ_=None) -> str:
    value = _raw(name, environ_)
    if value is None:
        return default
    if value not in choices:
        raise ImproperlyConfigured(f"{name}={value!r} must be one of {', '.join(choices)}")
    return value


def env_list(name: str, default: list[str], *, environ_=None) -> list[str]:
    value = _raw(name, environ_)
    if value is None:
        return list(default)
    items = [item.strip() for item in value.split(",")]
    if any(not item for item in items):
        raise ImproperlyConfigured(f"{name}={value!r} has an empty item; separate values with single commas")
    return items


def env_database(name: str, default: str, *, environ_=None) -> dict:
    """A Django DATABASES entry from a URL; only PostgreSQL and SQLite are accepted."""
    url = env_str(name, default, environ_=environ_)
    scheme = urlsplit(url).scheme
    if scheme not in _DATABASE_SCHEMES:
        raise ImproperlyConfigured(
            f"{name} has the scheme {scheme!r}; use postgres://user@host:port/name or sqlite:///path"
        )
    config = environ.Env.db_url_config(url)
    if config["ENGINE"] == "django.db.backends.postgresql" and not config.get("NAME"):
        raise ImproperlyConfigured(f"{name}={url!r} names no database")
    return config


def env_broker(name: str, default: str | None, *, environ_=None) -> str | None:
    url = env_str(name, default, environ_=environ_)
    if url is None:
        return None
    scheme = urlsplit(url).scheme
    if scheme not in _BROKER_SCHEMES:
        raise ImproperlyConfigured(f"{name} has the scheme {scheme!r}; use redis://host:port/db")
    return url


_CACHE_SCHEMES = {"redis", "rediss", "locmem"}


def env_cache(name: str, *, production: bool, environ_=None, timeout: float = 2.0) -> dict:
    """A Django CACHES entry: Redis (shared by every process) or local memory (one process).

    Login throttling, the API's rate limit and cached pages must be counted across every web
    process and worker, so production refuses per-process memory. `timeout` bounds the connect and
    every read: a Redis that hangs (rather than refusing) must fail a request's cache call, which the
    site survives, instead of holding the request, and a gateway's webhook, without end.
    """
    url = env_str(name, None, environ_=environ_)
    if url is None or url == "locmem://":
        if production:
            raise ImproperlyConfigured(f"{name} must be a redis://host:port/db address when DJANGO_ENV=production")
        return {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "federation"}
    parts = urlsplit(url)
    if parts.scheme not in _CACHE_SCHEMES:
        raise ImproperlyConfigured(f"{name} has the scheme {parts.scheme!r}; use redis://host:port/db or locmem://")
    if parts.scheme == "locmem":
        raise ImproperlyConfigured(f"{name}={url!r}: write locmem:// alone, without a host or path")
    try:
        port = parts.port
    except ValueError:
        port = -1
    database = parts.path.lstrip("/")
    if not parts.hostname or port == -1 or (database and not database.isdigit()) or parts.fragment:
        raise ImproperlyConfigured(f"{name}={_masked(url)!r} is not a redis://host:port/db address (db a number)")
    return {
        "BACKEND": "toolkit.rediscache.RedisCache",
        "LOCATION": url,
        "OPTIONS": {"socket_connect_timeout": timeout, "socket_timeout": timeout},
    }


def redis_database(url: str) -> tuple[str, int, int]:
    """(host, port, db) of a redis:// URL, to tell whether two settings share one Redis database."""
    parts = urlsplit(url)
    database = parts.path.lstrip("/")
    return (parts.hostname or "", parts.port or 6379, int(database) if database.isdigit() else 0)


def _masked(url: str) -> str:
    """The URL without its password, fit for an error message that lands in logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    return url.replace(f":{parts.password}@", ":***@", 1)


_HOST_NAME = re.compile(
    r"(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*"
)


def env_host(name: str, default: str, *, environ_=None) -> str:
    """A host name or an IP address (IPv6 without brackets), as `runserver` binds to it."""
    value = env_str(name, default, environ_=environ_)
    try:
        ipaddress.ip_address(value)
    except ValueError:
        if not _HOST_NAME.fullmatch(value):
            raise ImproperlyConfigured(
                f"{name}={value!r} is not a host name or an IP address such as 127.0.0.1 or 0.0.0.0"
            ) from None
    return value


def run_address(host: str, port: int) -> tuple[list[str], str]:
    """The host names `runserver` bound to `host`:`port` answers to, and the site's address for links in
    mail. On every interface (0.0.0.0, ::) any name that reaches the machine, and this machine's own
    address for the links (SITE_URL names the one other machines use)."""
    if host in ("0.0.0.0", "::"):  # noqa: S104 - development only, chosen by the developer
        return ["*"], f"http://127.0.0.1:{port}"
    name = f"[{host}]" if ":" in host else host
    return [name], f"http://{name}:{port}"


_HEADER = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]*")


def env_rate(name: str, default: str, *, environ_=None) -> str:
    """A request rate such as '120/minute' (or 'off'), checked here so a typo stops the site."""
    value = env_str(name, default, environ_=environ_)
    try:
        parse_rate(value)
    except ValueError as error:
        raise ImproperlyConfigured(f"{name}: {error}") from None
    return value


def env_header(name: str, default: str = "", *, environ_=None) -> str:
    """An HTTP header's name (X-Forwarded-For), or empty."""
    value = env_str(name, default, environ_=environ_)
    if value and not _HEADER.fullmatch(value):
        raise ImproperlyConfigured(f"{name}={value!r} is not an HTTP header name such as X-Forwarded-For")
    return value
