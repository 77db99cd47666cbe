"""The daily e-mail digest: for an account that asked for it, the games where its player is on move
(time left to the next control, from the default control 10800/30+1200/10 and N = 60 s) and the
games finished since the previous digest; nothing when there is nothing to say; once a day."""

import datetime
import io

import pytest
from django.core.management import call_command
from django.urls import reverse

from federation.celery import app
from play import services
from play.channels import digest
from play.models import DigestSubscription, MobileGame
from players.models import PlayerLink
from tests.base import PASSWORD
from tests.players.factories import PlayerFactory

NOW = datetime.datetime(2026, 11, 24, 7, 0, tzinfo=datetime.UTC)
HOUR = datetime.timedelta(hours=1)
MINUTE = datetime.timedelta(minutes=1)


def link(user, player, admin, relation="self"):
    PlayerLink.objects.create(user=user, player=player, relation=relation, status="confirmed", decided_by=admin,
                              decided_at=NOW)  # fmt: skip


def say(player, text, at, game):
    services.message_receive(channel="web", sender=str(player.federation_id), text=text, arrival=at,
                             game_code=game.code)  # fmt: skip


@pytest.fixture(autouse=True)
def _site(settings):
    settings.SITE_URL = "https://chess.example.org"
    settings.SITE_NAME = "Federation"
    settings.PLAY_CONSOLE_STREAM = io.StringIO()


@pytest.fixture
def cast(db, django_user_model):
    admin = django_user_model.objects.create_superuser("fedadmin", "admin@example.org", PASSWORD)
    anna = django_user_model.objects.create_user("anna", "anna@example.org", PASSWORD)
    a = PlayerFactory(family_name="Petrova", given_names="Anna")
    b = PlayerFactory(family_name="Ivanov", given_names="Boris")
    c = PlayerFactory(family_name="Sidorov", given_names="Case")
    d = PlayerFactory(family_name="Orlova", given_names="Dina")
    link(anna, a, admin)
    DigestSubscription.objects.create(user=anna, enabled=True)
    return {"admin": admin, "anna": anna, "a": a, "b": b, "c": c, "d": d}


@pytest.fixture
def games(cast):
    a, b, c, d = cast["a"], cast["b"], cast["c"], cast["d"]
    # Anna (White) on move since the start, two hours ago: 2 h - 60 s used, 1:01:00 left.
    first = services.game_create(white=a, black=b, start=NOW - 2 * HOUR)
    # Anna (Black) on move since 1. e4 an hour ago (received 60 s after): 0:59:00 used, 2:01:00 left.
    second = services.game_create(white=c, black=a, start=NOW - 3 * HOUR)
    say(c, "1. e4", NOW - HOUR, second)
    # Dina's move: not in the digest.
    waiting = services.game_create(white=a, black=d, start=NOW - 3 * HOUR)
    say(a, "1. d4", NOW - 2 * HOUR, waiting)
    # Finished three hours ago (Boris resigned), and finished three days ago.
    won = services.game_create(white=a, black=b, start=NOW - 5 * HOUR)
    say(a, "1. e4", NOW - 4 * HOUR, won)
    say(b, "1. e4 e5", NOW - 4 * HOUR + 5 * MINUTE, won)
    say(b, "RESIGN", NOW - 3 * HOUR, won)
    old = services.game_create(white=d, black=a, start=NOW - 4 * 24 * HOUR)
    say(d, "RESIGN", NOW - 4 * 24 * HOUR + 10 * MINUTE, old)
    assert MobileGame.objects.filter(status="finished").count() == 2
    return {"first": first, "second": second, "waiting": waiting, "won": won, "old": old}


def test_it_mails_the_games_on_move_with_the_time_left_and_the_games_just_finished(cast, games, mailoutbox):
    outcomes = digest.digest_send(now=NOW)
    assert [o.status for o in outcomes] == ["sent"]
    assert len(mailoutbox) == 1
    mail = mailoutbox[0]
    assert mail.to == ["anna@example.org"]
    assert mail.subject == "Federation: your move in 2 games"
    first, second, won = games["first"], games["second"], games["won"]
    assert mail.body.splitlines() == [
        "Your mobile games on Federation, 24.11.2026 07:00 UTC.",
        "",
        "Your move (2):",
        "",
        f"- #{first.code} (White) vs Ivanov, Boris, move 1: 1:01:00 left to the next control.",
        f"  https://chess.example.org/play/games/{first.code}/",
        "",
        f"- #{second.code} (Black) vs Sidorov, Case, move 1: 2:01:00 left to the next control.",
        f"  https://chess.example.org/play/games/{second.code}/",
        "",
        "Finished since 23.11.2026 07:00 UTC (1):",
        "",
        f"- #{won.code} (White) vs Ivanov, Boris: 1-0 (resignation).",
        f"  https://chess.example.org/play/games/{won.code}/",
        "",
        "All your games: https://chess.example.org/play/mine/",
        'To stop this daily mail, untick "Daily e-mail digest" at https://chess.example.org/play/channels/',
    ]
    html, kind = mail.alternatives[0]
    assert kind == "text/html"
    assert f'<a href="https://chess.example.org/play/games/{first.code}/">#{first.code}</a>' in html
    assert "<strong>1:01:00</strong> left to the next control" in html
    assert games["waiting"].code not in mail.body and games["old"].code not in mail.body
    assert DigestSubscription.objects.get().last_sent_at == NOW


def test_it_says_when_the_flag_has_fallen(cast, games, mailoutbox):
    digest.digest_send(now=NOW + 2 * HOUR)  # first: 4 h - 60 s used, 0:59:00 over the 3 hours
    assert f"#{games['first'].code} (White) vs Ivanov, Boris, move 1: over the time by 0:59:00." in mailoutbox[0].body


def test_it_sends_once_a_day_and_then_lists_only_what_finished_since(cast, games, mailoutbox):
    digest.digest_send(now=NOW)
    assert [o.status for o in digest.digest_send(now=NOW + 19 * HOUR)] == ["already sent"]
    assert len(mailoutbox) == 1
    # Dina resigns the waiting game after the digest; the next morning's lists it, not the earlier win.
    say(cast["d"], "RESIGN", NOW + 30 * MINUTE, games["waiting"])
    digest.digest_send(now=NOW + 24 * HOUR)
    assert len(mailoutbox) == 2
    body = mailoutbox[1].body
    assert "Finished since 24.11.2026 07:00 UTC (1):" in body
    assert f"#{games['waiting'].code} (White) vs Orlova, Dina: 1-0 (resignation)." in body
    assert games["won"].code not in body


def test_it_sends_nothing_when_there_is_nothing_to_say(cast, mailoutbox):
    services.game_create(white=cast["b"], black=cast["a"], start=NOW - HOUR)  # Boris's move
    assert [o.status for o in digest.digest_send(now=NOW)] == ["nothing to say"]
    assert mailoutbox == []
    assert DigestSubscription.objects.get().last_sent_at is None


def test_it_mails_only_those_who_asked_and_have_an_address(cast, games, mailoutbox, django_user_model):
    boris = django_user_model.objects.create_user("boris", "", PASSWORD)  # no e-mail
    link(boris, cast["b"], cast["admin"])
    DigestSubscription.objects.create(user=boris, enabled=True)
    dina = django_user_model.objects.create_user("dina", "dina@example.org", PASSWORD)
    link(dina, cast["d"], cast["admin"])
    DigestSubscription.objects.create(user=dina, enabled=False)
    digest.digest_send(now=NOW)
    assert [m.to for m in mailoutbox] == [["anna@example.org"]]


def test_it_names_the_player_when_the_account_plays_as_several(cast, games, mailoutbox):
    link(cast["anna"], cast["b"], cast["admin"], relation="parent")  # and the parent of Boris
    digest.digest_send(now=NOW)
    assert f"- #{games['first'].code} Petrova, Anna (White) vs Ivanov, Boris, move 1:" in mailoutbox[0].body


def test_it_mails_nothing_on_a_dry_run(cast, games, mailoutbox):
    outcomes = digest.digest_send(now=NOW, dry_run=True)
    assert [o.status for o in outcomes] == ["would send"]
    assert "1:01:00 left to the next control" in outcomes[0].text
    assert mailoutbox == [] and DigestSubscription.objects.get().last_sent_at is None


def test_it_prints_a_dry_run_and_sends_from_the_command(cast, games, mailoutbox, monkeypatch):
    monkeypatch.setattr(digest.timezone, "now", lambda: NOW)
    out = io.StringIO()
    call_command("play_digest", "--dry-run", stdout=out)
    assert "would send: anna@example.org (2 on move, 1 finished)" in out.getvalue()
    assert "Subject: Federation: your move in 2 games" in out.getvalue()
    assert "0 digest(s) sent, 1 subscriber(s) looked at (dry run)" in out.getvalue()
    assert mailoutbox == []
    out = io.StringIO()
    call_command("play_digest", stdout=out)
    assert "sent: anna@example.org (2 on move, 1 finished)" in out.getvalue()
    assert len(mailoutbox) == 1


def test_it_is_scheduled_daily_at_the_settings_hour():
    entry = app.conf.beat_schedule["mobile-daily-digest"]
    assert entry["task"] == "play.tasks.send_digests"
    assert entry["schedule"].hour == {7} and entry["schedule"].minute == {0}
    from play import tasks

    assert tasks.send_digests.name == "play.tasks.send_digests"


def test_it_sends_the_digests_from_the_task(cast, games, mailoutbox):
    from play import tasks

    assert tasks.send_digests() == 1
    assert len(mailoutbox) == 1


def test_it_is_turned_on_and_off_on_the_page(client, cast):
    client.force_login(cast["anna"])
    DigestSubscription.objects.all().delete()
    url = reverse("play:channels_digest")
    response = client.post(url, {"enabled": "on"})
    assert response.status_code == 302
    assert DigestSubscription.objects.get(user=cast["anna"]).enabled
    page = client.get(reverse("play:channels")).content.decode()
    assert 'name="enabled" id="id_enabled" checked' in page
    client.post(url, {})
    assert not DigestSubscription.objects.get(user=cast["anna"]).enabled
    assert client.get(reverse("play:channels")).status_code == 200


def test_it_warns_an_account_without_an_address_on_the_page(client, cast, django_user_model):
    user = django_user_model.objects.create_user("noaddress", "", PASSWORD)
    client.force_login(user)
    response = client.post(reverse("play:channels_digest"), {"enabled": "on"}, follow=True)
    assert "no e-mail address" in response.content.decode()


def test_it_cannot_be_chosen_by_the_anonymous(client, db):
    response = client.post(reverse("play:channels_digest"), {"enabled": "on"})
    assert response.status_code == 302 and "/login/" in response["Location"]
    assert not DigestSubscription.objects.exists()


def test_it_mails_in_the_federations_message_language(cast, games, mailoutbox, settings):
    settings.PLAY_MESSAGE_LANGUAGE = "ru"
    digest.digest_send(now=NOW)
    mail = mailoutbox[0]
    first, second, won = games["first"], games["second"], games["won"]
    assert mail.subject == "Federation: ваш ход в 2 партиях"
    lines = mail.body.splitlines()
    assert lines[0] == "Ваши мобильные партии на сайте Federation, 24.11.2026 07:00 UTC."
    assert f"- #{first.code} (белыми) против Ivanov, Boris, ход 1: 1:01:00 до следующего контроля." in lines
    assert f"- #{second.code} (чёрными) против Sidorov, Case, ход 1: 2:01:00 до следующего контроля." in lines
    assert f"- #{won.code} (белыми) против Ivanov, Boris: 1-0 (сдача)." in lines
    assert '<html lang="ru">' in mail.alternatives[0][0]
