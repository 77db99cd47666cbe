"""Mobile chess with a real Celery worker on Redis and PostgreSQL: the sweeper's task files the
time claim of a game whose flag has fallen, and the worker delivers the notices it wrote."""

import datetime

import pytest
from django.utils import timezone

from play import services, tasks
from play.models import MobileGame, Transmission
from tests.players.factories import PlayerFactory
from tests.worker.conftest import wait_for

pytestmark = pytest.mark.worker


def test_it_files_the_claim_of_a_fallen_flag_and_delivers_the_notices(worker_factory):
    worker = worker_factory()
    white, black = PlayerFactory(), PlayerFactory()
    # Three hours for thirty moves and not one move in five: White's flag fell two hours ago,
    # and the claim's protest window (a day) still runs, so the claim is filed and stays open.
    game = services.game_create(white=white, black=black, start=timezone.now() - datetime.timedelta(hours=5))
    MobileGame.objects.filter(pk=game.pk).update(white_channel="console", black_channel="console")
    assert not Transmission.objects.exists()

    tasks.sweep_games.delay()

    def claimed():
        game.refresh_from_db()
        return (
            game.termination == "pending claim"
            and Transmission.objects.filter(game=game, kind="claim", party="td").exists()
        )

    wait_for(claimed, timeout=60, message="the worker's sweep to file the claim")
    assert (game.status, game.result, game.on_move) == ("open", "*", "white")
    claim = Transmission.objects.get(game=game, kind="claim", party="white")
    assert claim.at < timezone.now() - datetime.timedelta(hours=1)  # filed at s + N, not when swept
    outbound = Transmission.objects.filter(game=game, direction="out")
    wait_for(
        lambda: not outbound.exclude(delivery="sent").exists(),
        timeout=60,
        message="play.tasks.deliver to send every notice",
    )
    assert outbound.count() == 2 and all(row.delivered_at for row in outbound)
    # White's notice was sent by the worker's task; the TD's is on his list (the web channel),
    # delivered by being written.
    assert {(row.party, row.channel, row.attempts) for row in outbound} == {("white", "console", 1), ("td", "web", 0)}
    # White's notice went out on the console channel: the worker printed it.
    wait_for(lambda: claim.text in worker.log.read_text(errors="replace"), timeout=10, message="the printed notice")
