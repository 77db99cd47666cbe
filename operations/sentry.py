"""Error reports to Sentry (or a server speaking its protocol, such as GlitchTip) when SENTRY_DSN is
set: unhandled errors of views and Celery tasks, with the environment and release they happened in.
federation/settings.py calls `setup` once per process (web, workers and beat read the same
settings). No personal data is sent: no cookies, no user's e-mail or address, no request bodies."""

from __future__ import annotations

from django.core.exceptions import ImproperlyConfigured


def setup(*, dsn: str, environment: str, release: str | None, sample_rate: float, traces_sample_rate: float) -> None:
    import sentry_sdk
    from sentry_sdk.integrations.celery import CeleryIntegration
    from sentry_sdk.integrations.django import DjangoIntegration
    from sentry_sdk.utils import BadDsn

    for name, rate in (("SENTRY_SAMPLE_RATE", sample_rate), ("SENTRY_TRACES_SAMPLE_RATE", traces_sample_rate)):
        if not 0 <= rate <= 1:
            raise ImproperlyConfigured(f"{name}={rate} must be between 0 and 1")
    try:
        sentry_sdk.init(
            dsn=dsn,
            environment=environment,
            release=release,
            sample_rate=sample_rate,
            traces_sample_rate=traces_sample_rate,
            send_default_pii=False,
            max_request_body_size="never",
            integrations=[DjangoIntegration(), CeleryIntegration()],
        )
    except BadDsn as error:
        raise ImproperlyConfigured(f"SENTRY_DSN is not a Sentry DSN (https://key@host/project): {error}") from None
