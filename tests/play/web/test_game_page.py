"""The game page of the web channel and "My games", for every persona: the public (anonymous),
the player (an account confirmed as White's), his opponent (confirmed as Black's), someone else
logged in, and the federation's staff. A move from the page goes through the one message
service, and the page shows what the machine replied."""

import datetime
import io
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.roles import PLAYERS, role
from play import selectors, services
from play.models import MobileEvent, MobileGame, Transmission
from players import services as player_services
from tests.base import PASSWORD, federation_admin
from tests.players.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _quiet_console(settings):
    settings.PLAY_CONSOLE_STREAM = io.StringIO()


def account(django_user_model, name):
    user = django_user_model.objects.create_user(name, f"{name}@example.org", PASSWORD)
    user.groups.add(role(PLAYERS))
    return user


def link(user, player, admin):
    """A confirmed link, as staff confirm it (tests/players/test_links.py)."""
    request = player_services.link_request(user=user, relation="self", player=player)
    return player_services.link_decide(link=request, admin=admin, confirm=True)


class World:
    pass


@pytest.fixture
def world(django_user_model):
    w = World()
    w.admin = django_user_model.objects.create_superuser("root", "root@example.org", PASSWORD)
    w.staff = federation_admin()
    w.player, w.opponent, w.stranger = (account(django_user_model, n) for n in ("white_user", "black_user", "other"))
    w.white = PlayerFactory(family_name="Белов", given_names="Иван")
    w.black = PlayerFactory(family_name="Чернова", given_names="Анна")
    link(w.player, w.white, w.admin)
    link(w.opponent, w.black, w.admin)
    w.start = timezone.now() - datetime.timedelta(hours=1)
    w.game = services.game_create(white=w.white, black=w.black, start=w.start)
    w.url = w.game.get_absolute_url()
    return w


def play(world, player, text):
    return services.message_receive(
        channel="web", sender=str(player.federation_id), text=text, arrival=timezone.now(), game_code=world.game.code
    )


def send(client, world, text="", **extra):
    return client.post(reverse("play:send", args=[world.game.code]), {"text": text, **extra})


# --- the public page ------------------------------------------------------------------------------


def test_it_shows_the_public_the_board_players_clocks_and_record_but_no_move_box(client, world):
    play(world, world.white, "1. e4")
    play(world, world.black, "1. e4 e5")
    page = client.get(world.url)
    assert page.status_code == 200
    html = page.content.decode()
    assert '<svg class="board-svg"' in html and "<style" not in html and ' style="' not in html
    assert world.white.get_absolute_url() in html and world.black.get_absolute_url() in html
    assert 'id="clock-white"' in html and 'id="clock-black"' in html
    assert "White to move." in html
    # The record: each move with its sending time and time used.
    record = html[html.index('id="record"') :]
    assert ">e4</a>" in record and ">e5</a>" in record
    assert re.search(r"\d\d\.\d\d \d\d:\d\d:\d\d · \d:\d\d:\d\d", record)
    assert 'id="move-form"' not in html and 'name="text"' not in html
    assert reverse("play:record", args=[world.game.code]) not in html
    # The board seen from White's side by the public: a1 in the bottom-left corner.
    assert re.search(r'<rect x="15" y="330"[^>]*class="square dark (lastmove )?a1"', html)


def test_it_shows_a_black_player_the_board_from_his_side(client, world):
    client.force_login(world.opponent)
    html = client.get(world.url).content.decode()
    assert re.search(r'<rect x="330" y="15"[^>]*class="square dark (lastmove )?a1"', html)
    assert 'id="command-form"' in html and 'name="color" value="black"' in html


def test_it_highlights_the_last_move_and_replays_any_ply(client, world):
    for who, text in ((world.white, "1. e4"), (world.black, "1. e4 e5"), (world.white, "1... e5 2. Nf3")):
        play(world, who, text)
    html = client.get(world.url).content.decode()
    assert re.search(r'class="square (light|dark) lastmove g1"', html)
    assert re.search(r'class="square (light|dark) lastmove f3"', html)
    board = client.get(reverse("play:board", args=[world.game.code]), {"ply": 1})
    fragment = board.content.decode()
    assert board.status_code == 200 and "<html" not in fragment
    assert 'data-ply="1"' in fragment and 'data-fen="rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR"' in fragment
    assert re.search(r'class="square (light|dark) lastmove e4"', fragment)
    assert "Position after e4" in fragment
    # Out of range is clamped: the start, and the latest position.
    assert 'data-ply="0"' in client.get(reverse("play:board", args=[world.game.code]), {"ply": -5}).content.decode()
    assert 'data-ply="3"' in client.get(world.url, {"ply": 99}).content.decode()


# --- moving from the page -------------------------------------------------------------------------


def test_it_lets_a_linked_player_move_and_the_record_shows_it(client, world):
    client.force_login(world.player)
    response = send(client, world, "e4", color="white")
    assert response.status_code == 302 and response["Location"] == f"{world.url}#replies"
    inbound = Transmission.objects.get(direction="in")
    assert (inbound.channel, inbound.party, inbound.text, inbound.kind) == ("web", "white", "e4", "move")
    page = client.get(world.url).content.decode()
    assert "Your move was received" in page  # the machine's acknowledgement, shown once
    assert "Received 1. e4" in page
    assert ">e4</a>" in page[page.index('id="record"') :]
    assert "Your move was received" not in client.get(world.url).content.decode()


def test_it_writes_the_repetition_of_the_opponents_move_in_front_of_a_bare_move(client, world):
    play(world, world.white, "1. e4")
    client.force_login(world.opponent)
    send(client, world, "5755", color="black", draw_offer="on")  # ICCF e7-e5, with a draw offer
    play(world, world.white, "1... e5 2. Nf3")
    send(client, world, "Кc6", color="black")  # a Russian knight
    texts = list(Transmission.objects.filter(direction="in", party="black").values_list("text", "kind"))
    assert texts == [("1. e4 5755 draw?", "move"), ("2. Nf3 Кc6", "move")]
    game = MobileGame.objects.get()
    assert game.plies == 4


def test_it_shows_the_referral_of_an_illegal_move_with_its_reason(client, world):
    client.force_login(world.player)
    send(client, world, "Ke3", color="white")
    assert MobileGame.objects.get().plies == 0
    page = client.get(world.url)
    html = page.content.decode()
    alert = html[html.index('id="replies"') :]
    assert 'role="alert"' in html and "alert-warn" in html
    assert "Referred back: illegal move." in alert
    assert "is not a legal move in this position" in alert


def test_it_refuses_a_move_for_the_opponent_and_stores_nothing(client, world):
    client.force_login(world.player)
    response = send(client, world, "e4", color="black")
    assert response.status_code == 403
    assert Transmission.objects.count() == 0


def test_it_refuses_someone_elses_game_and_stores_nothing(client, world):
    client.force_login(world.stranger)
    assert send(client, world, "e4").status_code == 403
    assert send(client, world, "e4", color="white").status_code == 403
    assert (
        client.post(reverse("play:conditional", args=[world.game.code]), {"lines": "1... e5 2. Nf3"}).status_code == 403
    )
    assert 'id="move-form"' not in client.get(world.url).content.decode()
    assert Transmission.objects.count() == 0


def test_it_sends_the_public_to_log_in_before_any_move(client, world):
    response = send(client, world, "e4", color="white")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert Transmission.objects.count() == 0


def test_it_refuses_a_tag_for_another_game_of_the_same_player(client, world):
    other = services.game_create(white=world.white, black=PlayerFactory(), start=world.start)
    client.force_login(world.player)
    send(client, world, f"#{other.code} e4", color="white")
    assert Transmission.objects.count() == 0
    assert f"sends to game #{world.game.code} only" in client.get(world.url).content.decode()


def test_it_resigns_offers_and_accepts_a_draw_and_claims_from_the_buttons(client, world):
    client.force_login(world.player)
    send(client, world, "e4", color="white", draw_offer="on")
    client.force_login(world.opponent)
    page = client.get(world.url).content.decode()
    assert "White offers a draw." in page and 'id="accept-draw"' in page
    send(client, world, action="accept_draw", color="black")
    game = MobileGame.objects.get()
    assert (game.result, game.termination, game.status) == ("1/2-1/2", "draw agreed", "finished")
    page = client.get(world.url).content.decode()
    assert 'id="result">1/2-1/2<' in page and "draw agreed" in page
    assert 'id="move-form"' not in page and "hx-trigger" not in page  # finished: no box, no polling
    kinds = list(Transmission.objects.filter(direction="in").values_list("text", flat=True))
    assert kinds == ["e4 draw?", "DRAW"]


def test_it_gives_the_move_box_to_the_player_on_move_and_a_waiting_line_to_his_opponent(client, world):
    client.force_login(world.player)  # White, on move
    page = client.get(world.url).content.decode()
    assert "Your move</h2>" in page and 'id="move-text"' in page and 'id="draw-offer"' in page
    assert 'id="waiting"' not in page
    client.force_login(world.opponent)  # Black, waiting
    page = client.get(world.url).content.decode()
    assert "Your move</h2>" not in page and 'id="move-text"' not in page and 'id="draw-offer"' not in page
    assert "Waiting for your opponent's move." in page
    assert 'id="command-text"' in page and 'id="resign"' in page  # what the rules allow off move stays
    send(client, world, "PROTEST the clock is wrong", color="black")
    assert Transmission.objects.get(direction="in").text == "PROTEST the clock is wrong"
    play(world, world.white, "1. e4")
    page = client.get(world.url).content.decode()
    assert "Your move</h2>" in page and 'id="move-text"' in page and 'id="waiting"' not in page
    client.force_login(world.player)
    page = client.get(world.url).content.decode()
    assert "Waiting for your opponent's move." in page and 'id="move-text"' not in page


def test_it_swaps_the_move_box_in_when_the_poll_sees_the_turn_change(client, world):
    client.force_login(world.opponent)
    live = reverse("play:live", args=[world.game.code])
    fragment = client.get(live, {"turn": "0"}).content.decode()
    assert 'id="play"' not in fragment and "turn=0" in fragment  # nothing changed for Black
    play(world, world.white, "1. e4")
    fragment = client.get(live, {"turn": "0"}).content.decode()
    assert '<section id="play" class="play-box" aria-labelledby="play-title" hx-swap-oob="true">' in fragment
    assert 'id="move-text"' in fragment and "turn=1" in fragment
    assert 'id="play"' not in client.get(live, {"turn": "1"}).content.decode()  # already shown: kept


def test_it_resigns(client, world):
    client.force_login(world.opponent)
    play(world, world.white, "1. e4")
    send(client, world, action="resign", color="black")
    game = MobileGame.objects.get()
    assert (game.result, game.termination) == ("1-0", "resignation")


def test_it_offers_a_draw_claim_only_to_the_player_on_move_when_the_position_allows_it(client, world):
    # The initial position for the third time after 4... Ng8: White (on move) may claim.
    moves = [
        (world.white, "1. Nf3"), (world.black, "1. Nf3 Nf6"), (world.white, "1... Nf6 2. Ng1"),
        (world.black, "2. Ng1 Ng8"), (world.white, "2... Ng8 3. Nf3"), (world.black, "3. Nf3 Nf6"),
        (world.white, "3... Nf6 4. Ng1"),
    ]  # fmt: skip
    for player, text in moves:
        play(world, player, text)
    client.force_login(world.player)
    assert 'id="draw-claim"' not in client.get(world.url).content.decode()  # not on move
    play(world, world.black, "4. Ng1 Ng8")
    assert 'id="draw-claim"' in client.get(world.url).content.decode()
    assert 'id="draw-claim"' in client.get(reverse("play:live", args=[world.game.code])).content.decode()
    client.force_login(world.opponent)
    assert 'id="draw-claim"' not in client.get(world.url).content.decode()  # Black is not on move
    client.force_login(world.player)
    send(client, world, action="draw_claim", color="white")
    game = MobileGame.objects.get()
    assert (game.result, game.termination) == ("1/2-1/2", "repetition")


def test_it_refers_back_a_wrong_draw_claim(client, world):
    client.force_login(world.player)
    send(client, world, action="draw_claim", color="white")
    assert Transmission.objects.get(direction="in").text == "DRAW CLAIM"
    page = client.get(world.url).content.decode()
    assert "<strong>Referred back: incorrect draw claim.</strong>" in page
    assert "the position has not occurred before" in page


# --- conditional moves --------------------------------------------------------------------------


def test_it_shows_conditional_lines_to_their_author_only(client, world):
    play(world, world.white, "1. e4")
    client.force_login(world.opponent)
    play(world, world.black, "1. e4 c5")
    response = client.post(
        reverse("play:conditional", args=[world.game.code]), {"lines": "2. Nf3 d6\n2. c3 Nf6", "color": "black"}
    )
    assert response.status_code == 302
    inbound = Transmission.objects.filter(direction="in", party="black").last()
    assert (inbound.text, inbound.kind) == ("IF 2. Nf3 d6; 2. c3 Nf6", "conditional")
    mine = client.get(world.url).content.decode()
    assert "2. Nf3 2... d6" in mine and "2. c3 2... Nf6" in mine
    assert "Conditional moves registered" in mine
    client.force_login(world.player)
    theirs = client.get(world.url).content.decode()
    assert "2... d6" not in theirs and "2... Nf6" not in theirs and 'id="my-lines-' not in theirs
    client.logout()
    public = client.get(world.url).content.decode()
    assert "2... d6" not in public and "2... Nf6" not in public and "IF 2." not in public
    # The line is played when White's move matches it, marked as conditional in the record.
    play(world, world.white, "1... c5 2. Nf3")
    assert MobileGame.objects.get().plies == 4
    assert 'title="played from a conditional line"' in client.get(world.url).content.decode()


# --- live updates ---------------------------------------------------------------------------------


def test_it_answers_an_idle_poll_with_204_in_one_query(client, world, django_assert_max_num_queries):
    live = reverse("play:live", args=[world.game.code])
    first = client.get(live)
    assert first.status_code == 200 and 'hx-swap-oob="true"' in first.content.decode()
    version, _open = selectors.game_version(world.game.code)
    assert f"?v={version}" in first.content.decode() and first["ETag"] == f'"{version}"'
    with django_assert_max_num_queries(1):
        idle = client.get(live, {"v": version})
    assert idle.status_code == 204 and idle.content == b""
    with django_assert_max_num_queries(1):
        assert client.get(live, HTTP_IF_NONE_MATCH=f'"{version}"').status_code == 304
    client.force_login(world.player)  # a player's idle poll reads neither his session nor his account
    with django_assert_max_num_queries(1):
        assert client.get(live, {"v": version}).status_code == 204
    play(world, world.white, "1. e4")
    changed = client.get(live, {"v": version})
    assert changed.status_code == 200 and "Black to move." in changed.content.decode()


def test_it_stops_polling_once_the_game_is_finished(client, world):
    page = client.get(world.url).content.decode()
    assert 'hx-trigger="every 5s"' in page
    play(world, world.white, "RESIGN")
    _version, still_open = selectors.game_version(world.game.code)
    assert not still_open
    fragment = client.get(reverse("play:live", args=[world.game.code])).content.decode()
    assert "hx-trigger" not in fragment and 'id="result">0-1<' in fragment


# --- the continuous record -------------------------------------------------------------------------


def test_it_shows_the_continuous_record_to_staff_and_the_td_only(client, world, django_user_model, settings):
    play(world, world.white, "1. e4")
    record = reverse("play:record", args=[world.game.code])
    assert client.get(record).status_code == 302  # the public logs in first
    for user in (world.player, world.opponent, world.stranger):
        client.force_login(user)
        assert client.get(record).status_code == 403
        assert record not in client.get(world.url).content.decode()
    client.force_login(world.staff)
    assert record in client.get(world.url).content.decode()
    page = client.get(record).content.decode()
    assert "1. e4" in page and "Received 1. e4" in page and str(world.white.federation_id) in page
    td = account(django_user_model, "director")
    event = MobileEvent.objects.create(code="cup", name="Cup", td=td, start=world.start)
    MobileGame.objects.filter(pk=world.game.pk).update(event=event)
    client.force_login(td)
    assert client.get(record).status_code == 200
    # A challenge game (no event): the duty TD, when the federation names one.
    MobileGame.objects.filter(pk=world.game.pk).update(event=None)
    assert client.get(record).status_code == 403
    settings.PLAY_DUTY_TD_USERNAME = "director"
    assert client.get(record).status_code == 200


# --- My games -------------------------------------------------------------------------------------


def test_it_lists_my_games_on_move_first_then_waiting_then_finished(client, world, django_assert_max_num_queries):
    others = [PlayerFactory() for _ in range(4)]
    start = world.start
    # Game A: White (ours) on move since the start; B: we are Black, White moved 10 min ago;
    # C: we are Black, White moved a minute ago; D: our opponent is on move; E: finished.
    a = world.game
    b = services.game_create(white=others[0], black=world.white, start=start)
    c = services.game_create(white=others[1], black=world.white, start=start)
    d = services.game_create(white=world.white, black=others[2], start=start)
    e = services.game_create(white=others[3], black=world.white, start=start)
    now = timezone.now()

    def at(game, player, text, minutes_ago):
        services.message_receive(
            channel="web", sender=str(player.federation_id), text=text,
            arrival=now - datetime.timedelta(minutes=minutes_ago), game_code=game.code,
        )  # fmt: skip

    at(b, others[0], "1. d4", 10)
    at(c, others[1], "1. c4", 1)
    at(d, world.white, "1. e4", 5)
    at(e, others[3], "RESIGN", 3)
    client.force_login(world.player)
    # The session, the user, the navigation's two permission reads, and the three of my_games.
    with django_assert_max_num_queries(7):
        page = client.get(reverse("play:mine"))
    html = page.content.decode()
    on_move = html[html.index('id="on-move"') : html.index('id="waiting"')]
    waiting = html[html.index('id="waiting"') : html.index('id="finished"')]
    finished = html[html.index('id="finished"') :]
    # On move, longest waiting first: A (since the start), then B (10 min), then C (1 min).
    assert [on_move.index(f"#{g.code}") for g in (a, b, c)] == sorted(on_move.index(f"#{g.code}") for g in (a, b, c))
    assert on_move.index(f"#{a.code}") < on_move.index(f"#{b.code}") < on_move.index(f"#{c.code}")
    assert "Last move: 1. d4" in on_move and "left to the control" in on_move
    assert f"#{d.code}" in waiting and f"#{d.code}" not in on_move
    assert f"#{e.code}" in finished and "1-0" not in finished.split(f"#{e.code}")[0][-200:]
    assert "0-1 resignation" in finished or "1-0 resignation" in finished
    assert reverse("play:mine") in html  # the navigation links it


def test_it_keeps_my_games_to_three_queries_however_many_games(client, world, django_assert_max_num_queries):
    client.force_login(world.player)
    for _ in range(8):
        services.game_create(white=world.white, black=PlayerFactory(), start=world.start)
    for _ in range(5):
        game = services.game_create(white=PlayerFactory(), black=world.white, start=world.start)
        services.message_receive(channel="web", sender=str(world.white.federation_id), text="RESIGN",
                                 arrival=timezone.now(), game_code=game.code)  # fmt: skip
    with django_assert_max_num_queries(3):
        rows = selectors.my_games(world.player, now=timezone.now())
    assert (len(rows["on_move"]), len(rows["waiting"]), len(rows["finished"])) == (9, 0, 5)
    with django_assert_max_num_queries(7):
        page = client.get(reverse("play:mine"))
    assert page.content.decode().count('class="mg-opponent"') == 14


def test_it_polls_my_open_games_and_counts_the_clock_on_move(client, world, django_assert_max_num_queries):
    client.force_login(world.player)
    page = client.get(reverse("play:mine")).content.decode()
    assert f'hx-get="{reverse("play:mine_live")}"' in page and "js/play.js" in page
    play(world, world.white, "1. e4")
    with django_assert_max_num_queries(7):
        live = client.get(reverse("play:mine_live")).content.decode()
    waiting = live[live.index('id="waiting"') :]
    assert f"#{world.game.code}" in waiting and "data-running" not in waiting  # the opponent's clock runs
    play(world, world.black, "1. e4 e5")
    live = client.get(reverse("play:mine_live")).content.decode()
    on_move = live[live.index('id="on-move"') : live.index('id="waiting"')]
    assert f"#{world.game.code}" in on_move and 'data-running="1"' in on_move
    assert 'id="finished"' not in live  # the finished list is not polled


def test_it_sends_the_public_to_log_in_for_my_games(client):
    response = client.get(reverse("play:mine_live"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    response = client.get(reverse("play:mine"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_it_tells_an_account_without_a_player_how_to_link_one(client, world):
    client.force_login(world.stranger)
    assert "Your account plays as no player yet." in client.get(reverse("play:mine")).content.decode()


def test_it_shows_the_page_in_russian(client, world):
    client.force_login(world.player)
    send(client, world, "Ke3", color="white")
    html = client.get(world.url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Ход белых." in html and "Ваш ход или команда" in html
    assert "Возвращено: невозможный ход." in html
    client.force_login(world.opponent)
    assert "Ждём хода соперника." in client.get(world.url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()


def test_it_lets_a_parent_of_both_players_choose_the_side(client, world, django_user_model):
    parent = account(django_user_model, "parent_of_both")
    for child in (world.white, world.black):
        request = player_services.link_request(user=parent, relation="parent", player=child)
        player_services.link_decide(link=request, admin=world.admin, confirm=True)
    client.force_login(parent)
    page = client.get(world.url).content.decode()
    assert '<select id="move-color" name="color">' in page
    assert send(client, world, "e4").status_code == 403  # which side? nothing is guessed
    send(client, world, "e4", color="white")
    send(client, world, "e5", color="black")
    assert list(Transmission.objects.filter(direction="in").values_list("party", "text", "kind")) == [
        ("white", "e4", "move"),
        ("black", "1. e4 e5", "move"),
    ]
    rows = selectors.my_games(parent, now=timezone.now())
    assert [(r.game.code, r.color) for r in rows["on_move"]] == [(world.game.code, "white")]


def test_it_names_the_event_of_an_event_game(client, world, django_user_model):
    td = account(django_user_model, "director")
    event = MobileEvent.objects.create(code="spring", name="Spring mobile cup", td=td, start=world.start)
    MobileGame.objects.filter(pk=world.game.pk).update(event=event)
    assert "Spring mobile cup" in client.get(world.url).content.decode()


@pytest.mark.parametrize(
    ("typed", "played", "color", "sent"),
    [
        ("e4", "", "white", "e4"),  # White's first move repeats nothing
        ("e5", "e2e4", "black", "1. e4 e5"),
        ("Nf3", "e2e4 e7e5", "white", "1... e5 2. Nf3"),  # White's own number written too
        ("2. Nf3", "e2e4 e7e5", "white", "1... e5 2. Nf3"),
        ("1... e5 2. Nf3", "e2e4 e7e5", "white", "1... e5 2. Nf3"),  # repeated already: unchanged
        ("  e5   draw? ", "e2e4", "black", "1. e4 e5 draw?"),
        ("Nf3", "e2e4", "white", "Nf3"),  # not his turn: sent as typed, the referral says why
        ("resign", "e2e4", "black", "resign"),
        ("#ABC e5", "e2e4", "black", "#ABC e5"),
        ("", "e2e4", "black", ""),
    ],
)
def test_it_composes_the_text_a_move_box_sends(typed, played, color, sent):
    import chess

    from play.web.compose import compose

    moves = [chess.Move.from_uci(u) for u in played.split()]
    assert compose(typed, moves, color) == sent
