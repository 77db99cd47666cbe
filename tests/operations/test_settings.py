"""The operations settings stop the site loudly on a bad value, naming the variable."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.operations.conftest import ROOT, process_env


def start(**env) -> subprocess.CompletedProcess:
    code = "import django; django.setup(); from django.conf import settings as s; print(s.LOG_FORMAT)"
    return subprocess.run(  # noqa: S603 - our own interpreter and code
        [sys.executable, "-c", code], cwd=ROOT, env=process_env(**env), capture_output=True, text=True, check=False
    )


@pytest.mark.parametrize(
    ("env", "named"),
    [
        ({"LOG_FORMAT": "xml"}, "LOG_FORMAT='xml' must be one of plain, json"),
        ({"METRICS_TOKEN": "short"}, "METRICS_TOKEN must be at least 16 characters"),
        ({"PROMETHEUS_MULTIPROC_DIR": "/no/such/folder"}, "PROMETHEUS_MULTIPROC_DIR='/no/such/folder' is not a folder"),
        ({"HEALTH_BEAT_MAX_AGE": "30"}, "HEALTH_BEAT_MAX_AGE=30 is below the minimum of 61"),
        ({"HEALTH_QUEUE_MAX_AGE": "soon"}, "HEALTH_QUEUE_MAX_AGE='soon' is not a whole number"),
        ({"SENTRY_DSN": "not a dsn"}, "SENTRY_DSN is not a Sentry DSN"),
        (
            {"SENTRY_DSN": "https://key@sentry.example.org/1", "SENTRY_SAMPLE_RATE": "2"},
            "SENTRY_SAMPLE_RATE=2.0 must be",
        ),
    ],
)
def test_it_refuses_a_bad_value(env, named):
    result = start(**env)
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr and named in result.stderr


def test_it_starts_with_the_operators_settings(tmp_path):
    result = start(
        LOG_FORMAT="json", METRICS_TOKEN="a-long-enough-token", PROMETHEUS_MULTIPROC_DIR=tmp_path,
        SENTRY_DSN="https://key@sentry.example.org/1", SENTRY_SAMPLE_RATE="0.5",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "json"


def test_it_answers_health_and_metrics_over_plain_http_in_production():
    """A load balancer and Prometheus ask each web server directly, without TLS: no redirect there."""
    code = (
        "import django; django.setup(); from django.test import Client; c = Client(); "
        "print(c.get('/health/web/').status_code, c.get('/metrics').status_code, c.get('/').status_code)"
    )
    env = process_env(
        DJANGO_ENV="production", SECRET_KEY="p9!x2Lk#Qw7zR4tY8uI0oPa5sD6fG3hJ1kLzXcVbNm-QwErTyUiOp",
        ALLOWED_HOSTS="testserver", SITE_URL="https://ratings.example.org",
        DATABASE_URL="postgres://postgres@127.0.0.1:1/none", CELERY_BROKER_URL="redis://127.0.0.1:1/0",
        CACHE_URL="redis://127.0.0.1:1/1", EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
        METRICS_TOKEN="a-long-enough-token",
    )  # fmt: skip
    result = subprocess.run(  # noqa: S603 - our own interpreter and code
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    # Nothing runs behind these addresses: the health check fails (503) rather than redirecting.
    assert result.stdout.split()[-3:] == ["503", "401", "301"]
