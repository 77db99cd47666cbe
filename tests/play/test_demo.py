"""The mobile-chess demo of `make run` (play/demo.py): a finished all-play-all with every game
ended as the rules end them, games in progress around the 80 % reminder, a challenge game and two
accounts that can log in and play, all through the real services."""

import datetime
import io

import pytest
from django.utils import timezone

from play import demo, state
from play.models import MobileEvent, MobileGame, Transmission
from players.models import PlayerLink
from players.selectors import plays_as
from ratings.models import RatingRequest
from tests.players.factories import PlayerFactory


@pytest.fixture
def loaded(django_capture_on_commit_callbacks):
    players = PlayerFactory.create_batch(6)
    out = io.StringIO()
    with django_capture_on_commit_callbacks(execute=True):
        made = demo.load(stdout=out, players=players)
    return made, out.getvalue(), players


@pytest.mark.django_db
def test_it_loads_a_finished_all_play_all_with_every_game_ended(loaded):
    _, out, _ = loaded
    now = timezone.now()
    event = MobileEvent.objects.get(code=demo.FINISHED_CODE)
    games = list(event.games.all())
    assert len(games) == 15  # six players, every pair once
    assert event.entries.count() == 6 and event.start < now - datetime.timedelta(days=30)
    assert all(g.status == "finished" and g.result in ("1-0", "0-1", "1/2-1/2") for g in games)
    assert all(g.finished_at is not None and g.finished_at < now for g in games)
    endings = {g.termination for g in games}
    assert {"checkmate", "resignation", "draw agreed", "repetition", "time"} <= endings
    # The silent player's claim was filed by the sweeper and conceded when its window closed.
    timed = next(g for g in games if g.termination == "time")
    claim = state.load(timed).claims[0]
    assert claim.status == "conceded" and claim.decided == claim.claim.protest_deadline == timed.finished_at
    kinds = set(timed.transmissions.filter(direction="out").values_list("kind", flat=True))
    assert {"reminder", "claim", "claim conceded"} <= kinds
    # Every game stands on its continuous record: rebuilt from it, it is the stored game.
    for game in games:
        assert state.rebuild(game, until=now) == state.load(game)
    # The finished games asked for a re-rating from their finishing moments.
    assert RatingRequest.objects.filter(since__lte=min(g.finished_at for g in games).date()).exists()
    assert f"Mobile event {demo.FINISHED_CODE}: 15 games finished" in out


@pytest.mark.django_db
def test_it_loads_games_in_progress_around_the_reminder(loaded):
    made = loaded[0]
    now = timezone.now()
    live = MobileGame.objects.filter(status="open")
    assert live.count() == 4
    assert all(now - datetime.timedelta(days=3) < g.start < now for g in live)
    assert all(g.plies > 0 and g.on_move for g in live)
    soon = made["due_soon"]
    assert now + datetime.timedelta(minutes=15) < soon.next_due < now + datetime.timedelta(minutes=25)
    assert not soon.transmissions.filter(kind="reminder").exists()
    reminded = made["reminded"]
    reminder = reminded.transmissions.get(kind="reminder")
    assert reminder.party == reminded.on_move and reminder.at < now
    challenge = made["challenge"]
    assert challenge.event is None and challenge.weight == 250 and challenge.status == "open"
    assert MobileEvent.objects.get(code=demo.LIVE_CODE).games.filter(status="open").count() == 3
    # Nothing of the demo lies in the future.
    assert not Transmission.objects.filter(at__gt=now).exists()


@pytest.mark.django_db
def test_it_makes_two_accounts_that_log_in_and_play_as_their_players(loaded, client):
    made, out, players = loaded
    for (username, player, password), expected in zip(made["accounts"], players[:2], strict=True):
        assert player == expected and password
        assert f"Demo account '{username}' plays as {player} ({player.federation_id}) with password: {password}" in out
        assert client.login(username=username, password=password)
        link = PlayerLink.objects.get(user__username=username)
        assert link.status == "confirmed" and plays_as(link.user, player)
        assert (
            MobileGame.objects.filter(status="open").filter(white=player).exists()
            or MobileGame.objects.filter(status="open", black=player).exists()
        )


@pytest.mark.django_db
def test_it_loads_once(loaded):
    again = io.StringIO()
    assert demo.load(stdout=again, players=loaded[2]) is None
    assert "loaded already" in again.getvalue()
    assert MobileEvent.objects.count() == 2


@pytest.mark.django_db
def test_it_needs_six_players():
    out = io.StringIO()
    assert demo.load(stdout=out, players=PlayerFactory.create_batch(3)) is None
    assert "Fewer than six" in out.getvalue()
    assert not MobileEvent.objects.exists()
