"""The multi-host layout (docs/operators/multi-host.md), reduced: two gunicorn web servers on
127.0.0.2 and 127.0.0.3 behind the proxy on 127.0.0.10, the ratings worker and a beat as host 4,
the messages worker and the standby beat as host 5, each its own process group, PostgreSQL and
Redis shared (the test's database and broker). Through the proxy an arbiter uploads a tournament
that the ratings worker rates, two phones play a game by SMS (the fake gateway receives every
reply from the messages worker), then host 4 is killed in the middle of a rating run: host 5's beat
takes the scheduler lock, host 4 comes back and the run is rated, nothing lost.
benchmarks/multihost/layout.py runs the full version (`make multihost`). Needs PostgreSQL and Redis.
About a minute."""

from __future__ import annotations

import os

import pytest
from django.db import connection

from benchmarks.multihost.layout import Layout, run
from federation.celery import app
from play.models import Transmission
from ratings.models import RatingRequest
from tests.fakes.sms_gateway import FakeGateway
from tests.optional import require


@pytest.fixture
def services_url(transactional_db):
    require("postgresql", "redis")
    db = connection.settings_dict
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgres://{db['USER']}{password}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def test_it_runs_the_layout_with_a_rating_run_a_mobile_game_and_a_killed_worker_host(services_url, tmp_path, settings):
    # The arbiter's password is hashed here and checked by the web servers (the real settings).
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]
    gateway = FakeGateway().start()
    env = {
        **os.environ,
        "DATABASE_URL": services_url,
        "DATABASE_CONN_MAX_AGE": "0",
        "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
        "PLAY_SMS_BACKEND": "play.channels.sms.SmsGateway",
        "SMS_GATEWAY_URL": gateway.url,
        "SMS_GATEWAY_USER": gateway.user,
        "SMS_GATEWAY_PASSWORD": gateway.password,
        "MEDIA_ROOT": str(tmp_path / "media"),  # shared by every host, as a network share would be
        "PRIVATE_ROOT": str(tmp_path / "private"),
    }
    layout = Layout(env, tmp_path / "logs", reduced=True)
    # This process plays the parts of the site that are not the hosts' (the game's creation): its
    # tasks go where the hosts' would.
    previous = (app.conf.task_always_eager, app.conf.task_default_queue, app.conf.task_routes)
    app.conf.task_always_eager = False
    app.conf.task_default_queue = layout.queues["default"]
    app.conf.task_routes = {
        **settings.CELERY_TASK_ROUTES,
        "ratings.tasks.*": {"queue": layout.queues["ratings"]},
        "play.tasks.*": {"queue": layout.queues["messages"]},
    }
    try:
        report = run(layout, gateway, players=300, rounds=9, kill_players=600)
    except Exception:
        for log in sorted((tmp_path / "logs").glob("*.log")):
            print(f"--- {log.name}\n{log.read_text(errors='replace')[-3000:]}")
        raise
    finally:
        layout.stop()
        gateway.stop()
        app.conf.task_always_eager, app.conf.task_default_queue, app.conf.task_routes = previous
        with app.connection_for_write() as conn:
            for queue in layout.queues.values():
                conn.default_channel.queue_delete(queue)

    print(report)  # shown when an assertion below fails
    host4, host5 = layout.worker_names["ratings4"], layout.worker_names["messages5"]
    # The rating run: uploaded and confirmed through the proxy, rated by the ratings pool.
    assert report["rating"]["worker"] == host4
    # The mobile game: mate in five plies; every reply sent by the messages pool reached the gateway.
    game = report["game"]
    assert (game["plies"], game["result"]) == (5, "1-0 (checkmate)")
    assert not Transmission.objects.filter(direction="out").exclude(delivery="sent").exists()
    assert len(gateway.sent) == game["outbound"] >= 10
    assert "play.tasks.deliver" in layout.part(host5.replace("@", "-")).text()
    # The killed host: the standby beat took the lock within its TTL (and a tick, on a busy machine), the run was
    # rated again by host 4 once back, and no request is left waiting or failed.
    kill = report["kill"]
    assert kill["takeover"] <= 2 * layout.lock_seconds
    assert kill["rated_by"] == host4
    assert [row["state"] for row in kill["requests"]] == ["done"]
    assert kill["requests"][0]["attempts"] >= 2
    assert not RatingRequest.objects.exclude(state="done").exists()
    # Both web servers answered through the proxy.
    assert set(report["spread"]) == {"web1", "web2"} and min(report["spread"].values()) >= 3
