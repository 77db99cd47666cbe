import pytest
from hypothesis import settings as hypothesis_settings

# Hypothesis's default 200 ms deadline per example is a timed assertion: on a loaded 2-core CI
# machine it fails correct code (seen on tests/play/rules/test_clock.py). Speed is measured in
# benchmarks/, never asserted in tests.
hypothesis_settings.register_profile("federation", deadline=None)
hypothesis_settings.load_profile("federation")

# The optional tools (Stockfish, Chromium, gettext, PostgreSQL, Redis): the `needs` marker and
# `require()`, one mechanism for every test that needs one.
pytest_plugins = ["tests.optional"]


@pytest.fixture
def personas(db, django_user_model):
    from accounts.roles import PLAYERS, role
    from tests.base import PASSWORD

    player = django_user_model.objects.create_user("parent", "parent@example.org", PASSWORD)
    player.groups.add(role(PLAYERS))
    return {
        "admin": django_user_model.objects.create_superuser("fedadmin", "admin@example.org", PASSWORD),
        "arbiter": django_user_model.objects.create_user("arbiter", "arbiter@example.org", PASSWORD),
        "player": player,
    }


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Each test starts with an empty cache (home page lists, login throttling)."""
    from django.core.cache import cache

    cache.clear()
    yield


@pytest.fixture(autouse=True)
def _site_language():
    """Each test starts in the site's language: a request in Russian leaves Russian active in the
    thread (LocaleMiddleware activates, nothing deactivates), and messages are translated where
    they are turned into words, in whatever test runs next."""
    from django.conf import settings
    from django.utils import translation

    with translation.override(settings.LANGUAGE_CODE):
        yield
