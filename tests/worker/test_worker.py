"""The rating pipeline with real Celery workers on Redis and PostgreSQL."""

import datetime
import time

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission

from accounts.roles import ARBITERS, ensure_roles
from ratings import services as rating_services
from ratings.models import PlayerRating, RatingChange, RatingRequest
from tests.ratings.scenario import results_snapshot
from tests.tournaments.files import example, trf, trf_player
from tests.worker.conftest import wait_for
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.worker

D = datetime.date


@pytest.fixture
def arbiter():
    ensure_roles(Group, Permission)
    user = get_user_model().objects.create_user("worker-arbiter")
    user.groups.add(Group.objects.get(name=ARBITERS))
    return user


def confirm(arbiter, name, data, start, end, rounds, **extra):
    upload = services.upload_create(user=arbiter, file_name=name, data=data)
    details = services.TournamentDetails(name=name, start_date=start, end_date=end, rounds=rounds, **extra)
    return services.tournament_confirm(upload=upload, user=arbiter, details=details)


def status(tournament_id):
    return Tournament.objects.values_list("status", flat=True).get(pk=tournament_id)


def small_event(seed: int):
    """Six club players, three rounds, results varying with the seed."""
    names = ["Adams,Ann", "Brown,Bob", "Clark,Cid", "Drake,Dan", "Evans,Eve", "Flynn,Fay"]
    pairings = [[(0, 1), (2, 3), (4, 5)], [(0, 2), (1, 4), (3, 5)], [(0, 3), (1, 5), (2, 4)]]
    cells = {i: [] for i in range(6)}
    for rnd, games in enumerate(pairings):
        for board, (a, b) in enumerate(games):
            outcome = (seed + rnd + board) % 3
            code = ("1", "0") if outcome == 0 else ("0", "1") if outcome == 1 else ("=", "=")
            cells[a].append((b + 1, "w", code[0]))
            cells[b].append((a + 1, "b", code[1]))
    lines = [trf_player(i + 1, names[i], birth=f"{2012 + i}/03/0{i + 1}", rounds=cells[i]) for i in range(6)]
    return trf(lines, header=[f"012 Club {seed}"])


def test_it_rates_a_confirmed_upload_in_a_real_worker(worker_factory, arbiter):
    worker_factory()
    tournament = confirm(
        arbiter, "karl-mala-2005.trf", example("karl-mala-2005.trf"), D(2005, 7, 28), D(2005, 7, 31), 7, fide_rated=True
    )
    assert status(tournament.pk) in ("queued", "rated")
    wait_for(lambda: status(tournament.pk) == "rated", message="the worker to rate the tournament")
    changes = RatingChange.objects.filter(tournament=tournament)
    assert set(changes.values_list("system", flat=True)) == {"orr", "mchess", "playchess"}
    assert changes.filter(system="orr").count() == 282  # 283 players, one without a played game
    vasquez = changes.get(system="orr", player__fide_id=3400042)
    assert vasquez.rating_before == 2558 and vasquez.details["category"] == "fide"
    # GCR follows, recomputed by the worker after the run.
    wait_for(lambda: PlayerRating.objects.filter(system="gcr").exists(), message="GCR")


def test_it_recovers_a_worker_killed_whole_mid_run_within_a_minute_of_a_new_one(worker_factory, arbiter):
    first = confirm(arbiter, "club-1.trf", small_event(1), D(2025, 9, 6), D(2025, 9, 6), 3)
    rating_services.rating_run(tournament_id=first.pk)  # rated here, before any worker exists
    RatingRequest.objects.all().delete()  # its request served
    before = results_snapshot()

    # The worker pauses inside its transaction: the window in which it is killed. The broker's own
    # redelivery (the visibility timeout, 70 minutes) plays no part.
    worker = worker_factory(RATING_RUN_PAUSE_SECONDS=20)
    second = confirm(arbiter, "club-2.trf", small_event(2), D(2025, 9, 13), D(2025, 9, 13), 3)
    request = RatingRequest.objects.get(tournament=second)

    def beating():
        request.refresh_from_db()
        return request.state == "running" and request.heartbeat_at > request.started_at

    wait_for(beating, timeout=60, message="the run to start and beat its heartbeat")
    assert request.worker.startswith(worker.queue)
    worker.kill()
    assert results_snapshot() == before  # nothing of the half-done run is visible
    assert status(second.pk) == "queued"

    worker_factory(RATING_RUN_PAUSE_SECONDS=0)
    started = time.monotonic()
    wait_for(lambda: status(second.pk) == "rated", timeout=60, message="the run to complete after the restart")
    print(f"rated {time.monotonic() - started:.1f} s after the new worker was ready")
    request.refresh_from_db()
    assert (request.state, request.attempts) == ("done", 2)
    after = results_snapshot()
    rating_services.rerate_since(since=None)
    assert results_snapshot() == after


def test_it_rates_two_tournaments_confirmed_together_in_rating_order(worker_factory, arbiter):
    worker_factory()
    from django.db import transaction

    with transaction.atomic():
        later = confirm(arbiter, "club-later.trf", small_event(5), D(2025, 10, 4), D(2025, 10, 4), 3)
        earlier = confirm(arbiter, "club-earlier.trf", small_event(6), D(2025, 9, 27), D(2025, 9, 27), 3)
    wait_for(
        lambda: status(later.pk) == "rated" and status(earlier.pk) == "rated",
        message="both tournaments to be rated",
    )
    # The later tournament starts from the ratings after the earlier one, whichever ran first.
    for change in RatingChange.objects.filter(tournament=later, system="orr"):
        previous = RatingChange.objects.get(tournament=earlier, system="orr", player_id=change.player_id)
        assert change.rating_before == previous.rating_after
    together = results_snapshot()
    rating_services.rerate_since(since=None)
    assert results_snapshot() == together
