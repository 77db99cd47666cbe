"""PGN of mobile games and events: the Seven Tag Roster and the others, one clock comment per
move, the result; read back with python-chess into the same moves and tags."""

import datetime
import io

import chess.pgn
import pytest
from django.urls import reverse

from play import services, state
from play.events import pgn
from play.events.crosstable import rounds_of
from play.rules import pairing
from tests.play.events.helpers import (  # noqa: F401 (autouse fixtures)
    AGREED_DRAW,
    FOOLS_MATE,
    START,
    make_event,
    play,
    quiet_console,
)
from tests.players.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def td(django_user_model):
    return django_user_model.objects.create_user("director", "td@example.org", "x")


def read(text: str) -> list[chess.pgn.Game]:
    stream, games = io.StringIO(text), []
    while (game := chess.pgn.read_game(stream)) is not None:
        assert not game.errors, game.errors
        games.append(game)
    return games


def test_it_writes_a_finished_game_that_reads_back_into_the_same_moves_and_tags(client, td):
    white = PlayerFactory(family_name="Petrov", given_names="Ivan", fide_id=4_100_018)
    black = PlayerFactory(family_name="Sidorova", given_names="Anna")
    event = make_event(td, [white, black], name="Spring by SMS")
    game = play(event.games.get(), FOOLS_MATE)
    response = client.get(reverse("play:game_pgn", args=[game.code]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/x-chess-pgn")
    assert response["Content-Disposition"] == f'attachment; filename="game-{game.code}.pgn"'
    text = response.content.decode()
    (parsed,) = read(text)
    h = parsed.headers
    assert list(h.keys())[:7] == ["Event", "Site", "Date", "Round", "White", "Black", "Result"]
    assert h["Event"] == "Spring by SMS" and h["Site"] == "testserver" and h["Date"] == "2026.05.01"
    assert h["Round"] == "1"  # two players: one round
    assert h["White"] == game.white.full_name and h["Black"] == game.black.full_name
    assert {h["White"], h["Black"]} == {"Petrov, Ivan", "Sidorova, Anna"}
    assert h["Result"] == "0-1" and h["Termination"] == "normal"
    assert h["TimeControl"] == "30/10800:10/1200"
    fide = "WhiteFideId" if game.white_id == white.pk else "BlackFideId"
    assert h[fide] == "4100018" and ({"WhiteFideId", "BlackFideId"} - {fide}).isdisjoint(h.keys())
    assert "Annotator" not in h
    value = state.load(game)
    nodes = list(parsed.mainline())
    assert [n.move for n in nodes] == [m.move for m in value.moves]
    assert [n.san() for n in nodes] == ["f3", "e5", "g4", "Qh4#"]
    # Moves every 5 minutes from 10:00; the first receipt is at start + N = 10:01:00.
    assert nodes[0].comment == "[%sent 2026-05-01T10:05:00Z] [%used 0:04:00]"
    for node, move in zip(nodes, value.moves, strict=True):
        sent = move.timing.sent.strftime("%Y-%m-%dT%H:%M:%SZ")
        assert node.comment == f"[%sent {sent}] [%used {pgn.duration(move.timing.used)}]"
    assert text.rstrip().endswith("0-1")
    assert parsed.end().board().is_checkmate()


def test_it_gives_a_game_in_progress_result_star_and_a_challenge_game_no_event(client):
    white, black = PlayerFactory(), PlayerFactory()
    game = services.game_create(white=white, black=black, start=START, control="3600/40+900/20")
    play(game, [("white", "1. e4"), ("black", "1. e4 c5")])
    (parsed,) = read(client.get(reverse("play:game_pgn", args=[game.code.lower()])).content.decode())
    h = parsed.headers
    assert h["Event"] == "Mobile challenge" and h["Round"] == "-" and h["Result"] == "*"
    assert h["Termination"] == "unterminated" and h["TimeControl"] == "40/3600:20/900"
    assert [n.san() for n in parsed.mainline()] == ["e4", "c5"]


def test_it_writes_the_configured_site_name_in_the_site_tag(client, settings):
    settings.SITE_NAME = "Example Chess Federation"
    game = services.game_create(white=PlayerFactory(), black=PlayerFactory(), start=START)
    (parsed,) = read(client.get(reverse("play:game_pgn", args=[game.code])).content.decode())
    assert parsed.headers["Site"] == "Example Chess Federation"


def test_it_holds_every_game_of_an_event_in_round_order_in_its_pgn(client, td):
    players = [PlayerFactory() for _ in range(4)]
    event = make_event(td, players, code="spring-2026")
    games = list(event.games.order_by("pk"))
    play(games[0], FOOLS_MATE)
    play(games[1], AGREED_DRAW)
    response = client.get(reverse("play:event_pgn", args=[event.code]))
    assert response["Content-Disposition"] == 'attachment; filename="spring-2026.pgn"'
    parsed = read(response.content.decode())
    assert len(parsed) == 6
    rounds = [int(g.headers["Round"]) for g in parsed]
    assert rounds == sorted(rounds) and set(rounds) == {1, 2, 3}
    by_pair = rounds_of([p.pk for p in players], pairing.round_robin)
    names = {p.full_name: p.pk for p in players}
    for game in parsed:
        pair = (names[game.headers["White"]], names[game.headers["Black"]])
        assert by_pair[pair] == int(game.headers["Round"])
    results = sorted(g.headers["Result"] for g in parsed)
    assert results == ["*", "*", "*", "*", "0-1", "1/2-1/2"]


def test_it_answers_404_for_an_unknown_game_or_event(client):
    assert client.get(reverse("play:game_pgn", args=["NOSUCH"])).status_code == 404
    assert client.get(reverse("play:event_pgn", args=["nosuch"])).status_code == 404


@pytest.mark.parametrize(
    "control, expected",
    [("10800/30+1200/10", "30/10800:10/1200"), ("5400/40+1800/20", "40/5400:20/1800"), ("60/1+0/1", "1/60:1/0")],
)
def test_it_maps_the_time_control_to_pgn_moves_per_seconds(control, expected):
    assert pgn.time_control(control) == expected


def test_it_makes_safe_file_names_and_writes_durations_and_utc_instants():
    assert pgn.filename("spring-2026") == "spring-2026.pgn"
    assert pgn.filename('../a b"c') == "a-b-c.pgn"
    assert pgn.filename("…") == "games.pgn"
    assert pgn.duration(270) == "0:04:30"
    assert pgn.duration(90_061) == "25:01:01"
    assert pgn.instant(
        datetime.datetime(2026, 5, 1, 13, 5, 30, tzinfo=datetime.timezone(datetime.timedelta(hours=3)))
    ) == ("2026-05-01T10:05:30Z")
