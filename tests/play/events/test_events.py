"""Mobile events' public pages (list, event page with its crosstable, standings and games, the
live part), event creation by a federation admin, and the player page's mobile games; over the
personas anonymous, player, TD and admin."""

import datetime
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from play import services
from play.events import selectors as event_selectors
from play.events.crosstable import build, rounds_of
from play.models import MobileEvent, MobileGame
from play.rules import pairing
from tests.base import PASSWORD, federation_admin
from tests.play.events.helpers import (  # noqa: F401 (quiet_console is an autouse fixture)
    AGREED_DRAW,
    BLACK_RESIGNS,
    FOOLS_MATE,
    START,
    game_between,
    make_event,
    play,
    quiet_console,
)
from tests.players.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def td(django_user_model):
    return django_user_model.objects.create_user("director", "td@example.org", PASSWORD, first_name="Tamara")


def win(event, winner, loser):
    """`winner` beats `loser` whatever the colours: Fool's mate when he has Black, the opponent's
    resignation when he has White."""
    game = game_between(event, winner, loser)
    return play(game, FOOLS_MATE if game.black_id == winner.pk else BLACK_RESIGNS)


@pytest.fixture
def small(td):
    """Four players: A beats B, draws C, and his game with D is in progress; B beats C; D beats B
    and draws C. Points A 1½, D 1½, C 1, B 1; Sonneborn–Berger A 1½, D 1½, C 1½ (½ of A's 1½ and
    ½ of D's), B 1 (C's 1)."""
    a, b, c, d = (PlayerFactory(family_name=name, given_names="Ivan") for name in ("Alpha", "Beta", "Gamma", "Delta"))
    event = make_event(td, [a, b, c, d])
    win(event, a, b)
    play(game_between(event, a, c), AGREED_DRAW)
    win(event, b, c)
    win(event, d, b)
    play(game_between(event, c, d), AGREED_DRAW)
    open_game = game_between(event, a, d)
    play(open_game, [("white", "1. e4")])
    return event, (a, b, c, d), open_game


# --- the crosstable and the standings ---------------------------------------------------------------


def test_it_scores_a_small_all_play_all_played_by_messages(small):
    event, (a, b, c, d), open_game = small
    assert event.games.count() == 6
    assert event.games.filter(status="finished").count() == 5
    page = event_selectors.event_page(event)
    rows = {row.player.pk: row for row in page["rows"]}
    marks = {
        (me, other): [cell.mark for cell in rows[me.pk].cells[rows[other.pk].number - 1]]
        for me in (a, b, c, d)
        for other in (a, b, c, d)
        if me != other
    }
    assert marks[(a, b)] == ["1"] and marks[(b, a)] == ["0"]
    assert marks[(a, c)] == ["½"] and marks[(c, a)] == ["½"]
    assert marks[(a, d)] == ["*"] and marks[(d, a)] == ["*"]
    assert marks[(b, c)] == ["1"] and marks[(d, b)] == ["1"] and marks[(c, d)] == ["½"]
    assert rows[a.pk].cells[0] is None  # the diagonal
    standing = [
        (row.player.family_name, str(row.points), row.played, str(row.sonneborn_berger), row.place)
        for row in page["standings"]
    ]
    assert standing == [
        ("Alpha", "3/2", 2, "3/2", "1–2"),
        ("Delta", "3/2", 2, "3/2", "1–2"),
        ("Gamma", "1", 3, "3/2", "3"),
        ("Beta", "1", 3, "1", "4"),
    ]
    assert page["open_games"] == 1
    listed = next(g for g in page["games"] if g.pk == open_game.pk)
    assert listed.moves_count == 1 and listed.on_move_player == open_game.black


def test_it_shows_the_crosstable_with_scores_links_and_the_tie_break(client, small):
    event, _, open_game = small
    response = client.get(reverse("play:event", args=[event.code]))
    html = response.content.decode()
    assert response.status_code == 200
    standings = html[html.index('id="standings"') : html.index('id="tie-break"')]
    assert standings.count("1½") == 5  # the points of Alpha and Delta, the SB of Alpha, Delta and Gamma
    assert "Sonneborn–Berger" in html
    crosstable = html[html.index('id="crosstable"') : html.index('id="standings"')]
    for game in event.games.all():
        assert f'href="{game.get_absolute_url()}"' in crosstable
    assert "3 h for 30 moves, then 20 min per 10 moves; norm 60 s" in html
    assert "Tamara" in html  # the TD
    # A game is open: the live part polls; the crosstable shows its star.
    assert 'hx-trigger="every 15s"' in html and "js/htmx.min.js" in html
    games = html[html.index('id="event-games"') :]
    row = games[games.index(f'id="game-{open_game.code}"') :]
    row = row[: row.index("</tr>")]
    assert "in progress" in row and open_game.black.full_name in row


def test_it_stops_polling_the_live_part_when_every_game_is_over(client, small):
    event, _, open_game = small
    live = client.get(reverse("play:event_live", args=[event.code]))
    assert live.status_code == 200 and b"every 15s" in live.content and b"<html" not in live.content
    play(open_game, [("black", "RESIGN")], start=START + datetime.timedelta(hours=1))
    live = client.get(reverse("play:event_live", args=[event.code]))
    assert b"hx-trigger" not in live.content
    page = client.get(reverse("play:event", args=[event.code]))
    assert b"htmx.min.js" not in page.content


def test_it_reads_the_event_page_in_a_fixed_number_of_queries(client, td, django_assert_max_num_queries):
    small = make_event(td, 4, code="small")
    big = make_event(td, 8, code="big")
    assert big.games.count() == 28
    for game in list(big.games.all()[:3]):
        play(game, FOOLS_MATE)
    counts = []
    for event in (small, big):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(reverse("play:event", args=[event.code])).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]
    with django_assert_max_num_queries(3):  # the event with its TD and chairman, the entries, the games
        client.get(reverse("play:event", args=[big.code]))
    with django_assert_max_num_queries(3):
        client.get(reverse("play:event_live", args=[big.code]))
    with django_assert_max_num_queries(3):  # the page of events (and its count), the challenge games
        assert client.get(reverse("play:events")).status_code == 200


def test_it_lists_running_events_first_with_the_challenge_games_in_progress(client, td):
    done = make_event(td, 2, code="done", name="Finished cup", start=START + datetime.timedelta(days=30))
    play(done.games.get(), BLACK_RESIGNS, start=done.start)
    make_event(td, 2, code="live", name="Running cup")
    x, y = PlayerFactory(), PlayerFactory()
    services.game_create(white=x, black=y, start=START)
    services.game_create(white=y, black=x, start=START)
    html = client.get(reverse("play:events")).content.decode()
    assert html.index("Running cup") < html.index("Finished cup")  # though it started earlier
    assert "2 challenge games in progress." in html


def test_it_makes_rounds_follow_the_pairing_each_player_once_a_round():
    for n in (4, 5, 8):
        ids = list(range(1, n + 1))
        rounds = rounds_of(ids, pairing.round_robin)
        assert len(rounds) == n * (n - 1)  # each pair in both colour orders, one round
        assert all(rounds[(white, black)] == rounds[(black, white)] for white, black in rounds)
        by_round = {}
        for white, black in pairing.round_robin(ids):
            by_round.setdefault(rounds[(white, black)], []).extend([white, black])
        assert len(by_round) == (n if n % 2 else n - 1)
        for players in by_round.values():
            assert len(players) == len(set(players))  # nobody twice in a round


def test_it_leaves_annulled_games_out_of_the_table():
    class G:
        def __init__(self, white_id, black_id, result, status):
            self.white_id, self.black_id, self.result, self.status = white_id, black_id, result, status

    class P:
        def __init__(self, pk):
            self.pk = pk

    table = build([P(1), P(2)], [G(1, 2, "1-0", "annulled"), G(2, 1, "1/2-1/2", "finished")])
    first, second = table["rows"]
    assert [c.mark for c in first.cells[1]] == ["½"] and [c.mark for c in second.cells[0]] == ["½"]
    assert (first.points, first.played, second.points, second.played) == (0.5, 1, 0.5, 1)


# --- creating an event ---------------------------------------------------------------------------


def form_data(**changes):
    players = changes.pop("players", None)
    data = {
        "name": "Summer by SMS",
        "code": "summer",
        "td": "director",
        "appeals_chair": "",
        "control": "10800/30+1200/10",
        "norm": "60",
        "weight": "250",
        "pairing": "all",
        "start": "2026-06-01T12:00",
        "players": players if players is not None else "",
    }
    data.update(changes)
    return data


@pytest.fixture
def roster():
    return [PlayerFactory() for _ in range(3)]


def test_it_lets_a_federation_admin_create_an_all_play_all(client, td, roster):
    admin = federation_admin()
    client.force_login(admin)
    assert client.get(reverse("play:event_new")).status_code == 200
    ids = f"{roster[0].federation_id}\n{roster[1].federation_id}, {roster[2].federation_id}"
    response = client.post(reverse("play:event_new"), form_data(players=ids, appeals_chair="td@example.org"))
    event = MobileEvent.objects.get(code="summer")
    assert response.status_code == 302 and response["Location"] == event.get_absolute_url()
    assert event.td == td and event.appeals_chair == td and event.created_by == admin
    # Naive input is the federation's time zone (Europe/Moscow in the tests' settings: UTC+3).
    assert event.start == datetime.datetime(2026, 6, 1, 9, 0, tzinfo=datetime.UTC)
    assert [e.player for e in event.entries.order_by("pk")] == roster
    assert event.games.count() == 3 and set(event.games.values_list("start", flat=True)) == {event.start}
    page = client.get(response["Location"])
    assert "The event was created with 3 games." in page.content.decode()


@pytest.mark.parametrize(
    "changes, field, message",
    [
        ({"control": "3h/30"}, "control", "“3h/30” is not a time control. Write seconds/moves+seconds/moves"),
        ({"control": "10800/0+1200/10"}, "control", "is not a time control"),
        ({"players": "{a}, 999999"}, "players", "No player has the federation id 999999."),
        ({"players": "{a}, abc"}, "players", "“abc” is not a federation id."),
        ({"players": "{a} {a}"}, "players", "is listed twice."),
        ({"players": "{a}"}, "players", "An all-play-all needs at least two players."),
        ({"td": "nobody"}, "td", "No active account has the username or e-mail “nobody”."),
        ({"code": "new"}, "code", "cannot be an event&#x27;s code"),
        ({"code": "has space"}, "code", "Enter a valid “slug”"),
    ],
)
def test_it_refuses_a_bad_event_and_creates_nothing(client, td, roster, changes, field, message):
    client.force_login(federation_admin())
    if "players" in changes:
        changes["players"] = changes["players"].format(a=roster[0].federation_id)
    else:
        changes["players"] = f"{roster[0].federation_id} {roster[1].federation_id}"
    response = client.post(reverse("play:event_new"), form_data(**changes))
    assert response.status_code == 200
    assert field in response.context["form"].errors
    assert message in response.content.decode()
    assert not MobileEvent.objects.exists() and not MobileGame.objects.exists()


def test_it_refuses_a_taken_code(client, td):
    make_event(td, 2, code="summer")
    client.force_login(federation_admin())
    response = client.post(reverse("play:event_new"), form_data(players=""))
    assert "An event already has the code “summer”." in response.content.decode()


@pytest.mark.parametrize("who", ["anonymous", "player", "td"])
def test_it_lets_only_federation_admins_create_events(client, td, personas, who):
    if who == "player":
        client.force_login(personas["player"])
    elif who == "td":
        make_event(td, 2)
        client.force_login(td)
    response = client.get(reverse("play:event_new"))
    if who == "anonymous":
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    else:
        assert response.status_code == 403
    client.force_login(personas["admin"])  # a superuser may
    assert client.get(reverse("play:event_new")).status_code == 200


def test_it_enters_the_players_of_a_td_pairing_event_without_games(client, td, roster):
    client.force_login(federation_admin())
    ids = " ".join(str(p.federation_id) for p in roster)
    client.post(reverse("play:event_new"), form_data(pairing="td", players=ids, start="2026-06-01T12:00+00:00"))
    event = MobileEvent.objects.get()
    assert event.entries.count() == 3 and not event.games.exists()
    assert event.start == datetime.datetime(2026, 6, 1, 12, 0, tzinfo=datetime.UTC)


# --- the player page --------------------------------------------------------------------------------


def test_it_shows_a_players_mobile_games_on_his_page_in_one_query(client, td):
    hero, rival = PlayerFactory(family_name="Hero"), PlayerFactory(family_name="Rival")
    event = make_event(td, [hero, rival])
    game = play(event.games.get(), FOOLS_MATE)
    challenge = services.game_create(white=rival, black=hero, start=START + datetime.timedelta(days=1))
    html = client.get(hero.get_absolute_url()).content.decode()
    section = html[html.index('id="player-mobile-games"') :]
    section = section[: section.index("</table>")]
    assert f'href="{game.get_absolute_url()}"' in section and f'href="{challenge.get_absolute_url()}"' in section
    assert rival.get_absolute_url() in section and event.get_absolute_url() in section
    rows = re.findall(r"<tr><td[ >].*?</tr>", section, re.S)
    assert len(rows) == 2
    assert "challenge" in rows[0] and "black" in rows[0] and "in progress" in rows[0]  # the newest first
    hero_won = game.black_id == hero.pk
    assert ("black" if hero_won else "white") in rows[1] and f">{'1' if hero_won else '0'}</td>" in rows[1]
    with CaptureQueriesContext(connection) as queries:
        rows = event_selectors.player_mobile_games(hero)
        [row["opponent"].full_name for row in rows] + [row["game"].event and row["game"].event.name for row in rows]
    assert len(queries) == 1


def test_it_shows_no_mobile_games_section_for_a_player_without_them(client):
    html = client.get(PlayerFactory().get_absolute_url()).content.decode()
    assert "player-mobile-games" not in html


def test_it_speaks_russian_on_the_event_page(client, td):
    event = make_event(td, 2, code="ru")
    html = client.get(reverse("play:event", args=[event.code]), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "3 ч на 30 ходов, затем 20 мин на каждые 10 ходов; норматив 60 с" in html
    assert "Главный судья" in html and "Зоннеборн" in html


def test_it_shows_mobile_chess_in_the_admin_read_mostly(client, td, personas):
    event = make_event(td, 2)
    game = play(event.games.get(), FOOLS_MATE)
    client.force_login(personas["admin"])
    for model in ("mobileevent", "mobilegame", "transmission", "channeladdress", "challenge", "entry"):
        response = client.get(f"/admin/play/{model}/")
        assert response.status_code == (404 if model == "entry" else 200), model  # entries: inline only
    assert client.get(f"/admin/play/mobileevent/{event.pk}/change/").status_code == 200
    assert client.get(f"/admin/play/mobilegame/{game.pk}/change/").status_code == 200
    assert client.get("/admin/play/mobileevent/add/").status_code == 403  # /play/events/new/ creates them
    assert client.get("/admin/play/transmission/add/").status_code == 403
    # The event's name and TD may be edited; its control may not (the games copied it).
    data = {
        "name": "Renamed",
        "td": td.pk,
        "appeals_chair": "",
        "control": "60/1+0/1",
        "entries-TOTAL_FORMS": "2",
        "entries-INITIAL_FORMS": "2",
        "entries-MIN_NUM_FORMS": "0",
        "entries-MAX_NUM_FORMS": "1000",
    }
    for i, entry in enumerate(event.entries.order_by("pk")):
        data[f"entries-{i}-id"] = entry.pk
        data[f"entries-{i}-event"] = event.pk
        data[f"entries-{i}-referee"] = ""
    response = client.post(f"/admin/play/mobileevent/{event.pk}/change/", data)
    assert response.status_code == 302, response.content.decode()[:3000]
    event.refresh_from_db()
    assert event.name == "Renamed" and event.control == "10800/30+1200/10"


def test_it_keeps_the_rounds_of_an_event_paired_with_the_earlier_colours():
    """Events paired before the colour rule changed (2026-11: the second player had no White) hold
    games in the other colour order: their rounds are found all the same."""
    earlier = [(1, 4), (3, 2), (3, 1), (4, 2), (1, 2), (4, 3)]  # the earlier rule's pairs for 1..4
    rounds = rounds_of([1, 2, 3, 4], pairing.round_robin)
    assert [rounds[pair] for pair in earlier] == [1, 1, 2, 2, 3, 3]
