"""A TD decision in the reader's language (issue 24): the desk and the game page in the page's
language, the game messages of a decision and of an appeal ruling in each player's message
language, the mails in each account's; the audit log in English. Each phrase is whole per case
(the colour, the claim's outcome), as play/rules/texts.py writes every sentence."""

import datetime
import re

import pytest
from django.urls import reverse
from django.utils import translation

from accounts.models import AuditEntry
from play.desk import services as desk
from play.models import Transmission
from play.rules import texts
from tests.play.desk.helpers import (  # noqa: F401
    START,
    cast_fixture,
    event_fixture,
    later,
    link,
    protested_fixture,
    send,
)
from tests.play.events.helpers import make_event, quiet_console  # noqa: F401

pytestmark = pytest.mark.django_db

# The English words of a decision's phrase: none may be left in a Russian text.
ENGLISH = re.compile(r"time claim|against|at ply|upheld|dismissed|credited|charged|scored|withdrawn|ruling|his games")
UPHELD_RU = "претензия по времени против белых на полуходе 1 удовлетворена"


def choose(player, language):
    player.message_language = language
    player.save(update_fields=["message_language"])


def uphold(cast, event, game):
    return desk.claim_rule(
        event=event, game=game, against="white", ply=1, upheld=True, by=cast["td"], text="нет доказательств",
        at=later(10_000),
    )  # fmt: skip


def told(game, kind, party):
    return Transmission.objects.filter(game=game, direction="out", kind=kind, party=party).latest("pk").text


def test_it_shows_the_decision_in_russian_on_the_russian_desk_and_game_page(client, cast, event, protested):
    decision = uphold(cast, event, protested)
    client.force_login(cast["td"])
    page = client.get(reverse("play:desk_decision", args=[decision.pk]), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert UPHELD_RU in page and "time claim against" not in page
    game_page = client.get(protested.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert UPHELD_RU in game_page and "time claim against" not in game_page
    english = client.get(reverse("play:desk_decision", args=[decision.pk]), HTTP_ACCEPT_LANGUAGE="en")
    assert "time claim against white at ply 1 upheld" in english.content.decode()


def test_it_records_a_desk_decision_in_russian_for_a_russian_td(client, cast, event, protested):
    client.force_login(cast["td"])
    response = client.post(
        reverse("play:desk_claim", args=[event.pk, protested.code]),
        {"against": "white", "ply": 1, "decision": "dismissed", "text": "сбой сети"},
        follow=True,
        HTTP_ACCEPT_LANGUAGE="ru",
    )
    html = response.content.decode()
    # The TD's confirmation in his language (the record below keeps the texts the players were sent).
    assert "Решение записано: претензия по времени против белых на полуходе 1 отклонена. Результат: " in html


def test_it_tells_a_russian_player_the_decision_in_russian_and_an_english_one_in_english(cast, event, protested):
    choose(protested.white, "ru")
    uphold(cast, event, protested)
    russian, english = told(protested, "decision", "white"), told(protested, "decision", "black")
    assert f"Решение судьи: {UPHELD_RU}. Основание: нет доказательств." in russian
    assert not ENGLISH.search(russian)
    assert "TD decision: time claim against white at ply 1 upheld. Why: нет доказательств." in english


def test_it_words_every_kind_of_decision_in_the_federations_message_language(cast, settings):
    settings.PLAY_MESSAGE_LANGUAGE = "ru"
    event = make_event(cast["td"], 3, code="trio", start=START, appeals_chair=cast["chair"])
    hero = event.entries.order_by("pk")[0].player
    game = next(g for g in event.games.select_related("white", "black").order_by("pk") if g.color_of(hero.pk))
    at = START + datetime.timedelta(minutes=30)
    cases = [
        ({"kind": "credit", "player": hero, "seconds": 600, "all_games": True},
         f"{hero.full_name}: добавлено 0:10:00 во всех партиях игрока"),
        ({"kind": "penalty", "player": hero, "seconds": 60, "game": game},
         f"{hero.full_name}: штраф, снято 0:01:00 в партии #{game.code}"),
        ({"kind": "other", "game": game}, f"решение по партии #{game.code}"),
        ({"kind": "score", "game": game, "result": "1-0"}, f"партии #{game.code} присуждён результат 1-0"),
    ]  # fmt: skip
    for number, (facts, phrase) in enumerate(cases):
        desk.decision_make(event=event, by=cast["td"], text="по правилам", at=at + datetime.timedelta(seconds=number),
                           **facts)  # fmt: skip
        text = told(game, "decision", game.color_of(hero.pk))
        assert f"Решение судьи: {phrase}. Основание: по правилам." in text
        assert not ENGLISH.search(text)


def test_it_tells_the_appeal_ruling_in_russian(cast, event, protested, settings):
    settings.PLAY_MESSAGE_LANGUAGE = "ru"
    decision = uphold(cast, event, protested)
    send(protested, "white", "APPEAL сеть не работала", later(20_000))
    appeal = Transmission.objects.get(game=protested, party="td", kind="appeal")
    desk.appeal_rule(decision=decision, message=appeal, reverse=True, reasons="сбой подтверждён", by=cast["chair"])
    for party in ("white", "black"):
        text = told(protested, "appeal ruling", party)
        assert f"Апелляция рассмотрена: решение судьи ({UPHELD_RU}) отменено." in text
        assert not ENGLISH.search(text)
    # The staff's log stays in one language, English.
    entry = AuditEntry.objects.get(action="play.appeal_ruling")
    assert "time claim against white at ply 1 upheld" in entry.summary


def test_it_mails_each_account_in_its_players_message_language(
    cast, event, protested, mailoutbox, django_capture_on_commit_callbacks
):
    link(cast["player"], protested.white)
    link(cast["other_td"], protested.black)  # an account of the other player
    choose(protested.white, "ru")
    with django_capture_on_commit_callbacks(execute=True):
        decision = uphold(cast, event, protested)
    mails = {tuple(m.to): m for m in mailoutbox}
    russian, english = mails[(cast["player"].email,)], mails[(cast["other_td"].email,)]
    assert russian.subject == f"Решение судьи: {UPHELD_RU}"
    assert "Основание: нет доказательств" in russian.body and "Обжаловать можно до" in russian.body
    assert not ENGLISH.search(russian.subject + russian.body)
    assert english.subject == "TD decision: time claim against white at ply 1 upheld"
    send(protested, "white", "APPEAL сеть не работала", later(20_000))
    appeal = Transmission.objects.get(game=protested, party="td", kind="appeal")
    with django_capture_on_commit_callbacks(execute=True):
        desk.appeal_rule(
            decision=decision, message=appeal, reverse=False, reasons="нет доказательств", by=cast["chair"]
        )
    ruled = [m for m in mailoutbox[2:] if m.to == [cast["player"].email]]
    assert ruled[0].subject == "Апелляция рассмотрена: решение судьи оставлено в силе"
    assert f"решение судьи ({UPHELD_RU}) оставлено в силе." in ruled[0].body
    assert "Это решение окончательное." in ruled[0].body and not ENGLISH.search(ruled[0].body)


def test_it_keeps_a_stored_decision_message_without_facts_readable():
    old = {"what": "Ann credited 0:10:00 in #ABC", "why": "delay", "appeal_until": "2026-11-24T10:00:00Z"}
    assert texts.render("decision", old).startswith("TD decision: Ann credited 0:10:00 in #ABC. Why: delay.")
    with translation.override("ru"):
        russian = texts.render("decision", old, translation.gettext)
    assert russian.startswith("Решение судьи: Ann credited 0:10:00 in #ABC. Основание: delay.")


def test_it_writes_every_decision_phrase_whole_in_russian():
    with translation.override("ru"):
        for key, phrase in texts.DECISIONS.items():
            russian = translation.gettext(phrase)
            assert russian != phrase and not ENGLISH.search(russian), key
            days = {"first": "2026-05-03", "last": "2026-05-04", "begin": "B", "end": "E"}
            facts = {
                "kind": key[0],
                "player": "Иванов",
                "seconds": 60,
                "game": "ABC",
                "ply": 3,
                "result": "1-0",
                **days,
            }
            if key[0] == "claim":
                facts.update(against=key[1], result=key[2])
            elif key[0] == "withdraw":
                facts["result"] = key[1]
            else:
                facts.update(all_games=key[1:] == ("all",), game="" if key[1:] == ("",) else "ABC")
            assert texts.decision(facts, translation.gettext) == russian % {
                "player": "Иванов", "time": "0:01:00", "game": facts["game"], "ply": 3, "result": facts["result"],
                **days,
            }  # fmt: skip


def test_it_tells_a_leave_granted_in_russian_by_message_and_mail(cast, mailoutbox, django_capture_on_commit_callbacks):
    from play.desk import leave as leaves

    begin = datetime.datetime(2026, 5, 1, 12, tzinfo=datetime.UTC)
    event = make_event(cast["td"], 3, code="leave", start=begin, control="259200/30+1200/10", leave_days=3,
                       appeals_chair=cast["chair"])  # fmt: skip
    player = event.entries.order_by("pk").first().player
    choose(player, "ru")
    link(cast["player"], player)
    leave = leaves.leave_request(
        event=event, player=player, first_day=datetime.date(2026, 5, 3), last_day=datetime.date(2026, 5, 4),
        at=begin + datetime.timedelta(hours=1),
    )  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        leaves.leave_decide(leave=leave, grant=True, by=cast["td"], at=begin + datetime.timedelta(hours=2))
    game = event.games.filter(white=player).first() or event.games.filter(black=player).first()
    text = told(game, "decision", game.color_of(player.pk))
    assert f"{player.full_name}: отпуск с 2026-05-03 по 2026-05-04 (UTC)" in text
    assert "Основание: отпуск предоставлен." in text
    assert not re.search(r"on leave|both clocks|leave granted|Why", text)
    [mail] = mailoutbox
    assert mail.subject == f"{event.name}: отпуск предоставлен"
    assert mail.body == f"{player.full_name}: судья предоставил отпуск с 2026-05-03 по 2026-05-04 (UTC)."
