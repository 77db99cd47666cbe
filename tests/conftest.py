import pytest


@pytest.fixture
def personas(db, django_user_model):
    from tests.base import PASSWORD
    from tournaments.roles import PLAYERS, role

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
