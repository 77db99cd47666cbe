"""Challenge games: a linked player offers, the challenged player accepts (the game starts then,
W = 250) or declines; nobody else may answer; the challenger may withdraw."""

import datetime

import pytest
from django.urls import reverse

from play.models import Challenge, MobileGame
from players.models import PlayerLink
from tests.base import PASSWORD
from tests.players.factories import PlayerFactory

NOW = datetime.datetime(2026, 11, 1, tzinfo=datetime.UTC)


def link(user, player, admin):
    return PlayerLink.objects.create(
        user=user, player=player, relation="self", status="confirmed", decided_by=admin, decided_at=NOW
    )


@pytest.fixture
def cast(db, django_user_model, client):
    admin = django_user_model.objects.create_superuser("fedadmin", "admin@example.org", PASSWORD)
    anna = django_user_model.objects.create_user("anna", "anna@example.org", PASSWORD)
    boris = django_user_model.objects.create_user("boris", "boris@example.org", PASSWORD)
    other = django_user_model.objects.create_user("other", "other@example.org", PASSWORD)
    a, b = PlayerFactory(family_name="Petrova"), PlayerFactory(family_name="Ivanov")
    link(anna, a, admin)
    link(boris, b, admin)
    return {"anna": anna, "boris": boris, "other": other, "a": a, "b": b}


def offer(client, cast, **extra):
    client.force_login(cast["anna"])
    data = {"challenger": cast["a"].pk, "opponent_id": cast["b"].federation_id, "side": "white",
            "control": "10800/30+1200/10", "norm": 60, **extra}  # fmt: skip
    return client.post(reverse("play:challenges"), data)


def test_it_lets_a_player_challenge_and_the_opponent_accept(client, cast):
    assert offer(client, cast).status_code == 302
    challenge = Challenge.objects.get()
    assert (challenge.challenger, challenge.opponent, challenge.status) == (cast["a"], cast["b"], "open")
    client.force_login(cast["boris"])
    page = client.get(reverse("play:challenges"))
    assert b"accept" in page.content
    answer = client.post(reverse("play:challenge_answer", args=[challenge.pk]), {"answer": "accept"})
    game = MobileGame.objects.get()
    assert answer.status_code == 302 and answer["Location"] == game.get_absolute_url()
    assert (game.white, game.black, game.weight, game.event) == (cast["a"], cast["b"], 250, None)
    challenge.refresh_from_db()
    assert (challenge.status, challenge.game) == ("accepted", game)


def test_it_lets_only_the_challenged_player_answer(client, cast):
    offer(client, cast)
    challenge = Challenge.objects.get()
    for user in ("anna", "other"):
        client.force_login(cast[user])
        client.post(reverse("play:challenge_answer", args=[challenge.pk]), {"answer": "accept"})
    challenge.refresh_from_db()
    assert challenge.status == "open" and not MobileGame.objects.exists()


def test_it_declines_and_withdraws(client, cast):
    offer(client, cast)
    challenge = Challenge.objects.get()
    client.force_login(cast["boris"])
    client.post(reverse("play:challenge_answer", args=[challenge.pk]), {"answer": "decline"})
    challenge.refresh_from_db()
    assert challenge.status == "declined"
    offer(client, cast)
    second = Challenge.objects.filter(status="open").get()
    client.post(reverse("play:challenge_withdraw", args=[second.pk]))
    second.refresh_from_db()
    assert second.status == "withdrawn" and not MobileGame.objects.exists()


def test_it_refuses_a_bad_control_an_unknown_opponent_and_a_second_open_challenge(client, cast):
    page = offer(client, cast, control="3 hours")
    assert page.status_code == 200 and "is not a time control" in page.content.decode()
    page = offer(client, cast, opponent_id=99999999)
    assert "No player has this federation id." in page.content.decode()
    assert not Challenge.objects.exists()
    offer(client, cast)
    page = offer(client, cast)
    assert "already challenged" in page.content.decode()
    assert Challenge.objects.count() == 1


def test_it_refuses_a_user_who_plays_as_nobody(client, cast):
    client.force_login(cast["other"])
    data = {"challenger": cast["a"].pk, "opponent_id": cast["b"].federation_id, "side": "white",
            "control": "10800/30+1200/10", "norm": 60}  # fmt: skip
    page = client.post(reverse("play:challenges"), data)
    assert page.status_code == 200 and not Challenge.objects.exists()
    assert "link your account" in page.content.decode()


def test_it_sends_an_anonymous_visitor_to_log_in(client, db):
    page = client.get(reverse("play:challenges"))
    assert page.status_code == 302 and "/accounts/login/" in page["Location"]
