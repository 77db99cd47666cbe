"""The suite's own processes (pytest-xdist): each worker's Redis databases are its own."""

import os

import pytest

from federation.settings_test import _own_redis_databases


@pytest.fixture
def ci_environment(monkeypatch):
    monkeypatch.setenv("CELERY_BROKER_URL", "redis://127.0.0.1:6379/5")
    monkeypatch.setenv("CACHE_URL", "redis://127.0.0.1:6379/4")
    return monkeypatch


def test_it_leaves_the_first_workers_databases_as_configured(ci_environment):
    _own_redis_databases("gw0")
    assert (os.environ["CELERY_BROKER_URL"], os.environ["CACHE_URL"]) == (
        "redis://127.0.0.1:6379/5",
        "redis://127.0.0.1:6379/4",
    )


def test_it_moves_the_second_worker_two_databases_up(ci_environment):
    _own_redis_databases("gw1")
    assert (os.environ["CELERY_BROKER_URL"], os.environ["CACHE_URL"]) == (
        "redis://127.0.0.1:6379/7",
        "redis://127.0.0.1:6379/6",
    )


def test_it_refuses_a_worker_beyond_redis_sixteen_databases(ci_environment):
    with pytest.raises(RuntimeError, match="would need Redis database 17"):
        _own_redis_databases("gw6")


def test_it_leaves_a_url_without_a_database_number_alone(monkeypatch):
    monkeypatch.setenv("CELERY_BROKER_URL", "memory://")
    monkeypatch.delenv("CACHE_URL", raising=False)
    _own_redis_databases("gw3")
    assert os.environ["CELERY_BROKER_URL"] == "memory://"
    assert "CACHE_URL" not in os.environ
