"""The upload preview's prediction equals the confirmed result (issue 27, part 3), end to end:
import_results --json predicts, import_results --confirm saves, the rating run rates, the lists agree."""

import io
import json

import pytest
from django.contrib.auth.models import Group
from django.core.management import call_command

from players.models import Player
from ratings import services as rating_services
from ratings.models import PlayerRating, RatingChange
from tournaments.importers.trf import format_player_line as line
from tournaments.models import Tournament, Upload

pytestmark = pytest.mark.django_db

PLAYERS = [  # start number, name, FIDE rating in the file, FIDE id, birth
    (1, "Ivanov,Petr", 2150, 34100001, "1990/01/01"),
    (2, "Petrov,Ivan", 1980, 34100002, "1985/02/02"),
    (3, "Sidorov,Oleg", 1720, 34100003, "2012/03/03"),
    (4, "Kuznetsov,Lev", "", 34100004, "2013/04/04"),
]
NEWCOMER = (5, "Smirnov,Gleb", 1650, 34100005, "2011/05/05")
# Round robin of four, three rounds: (round, white, black, white's result as TRF writes it)
FIRST = [(1, 1, 4, "1"), (1, 2, 3, "="), (2, 4, 3, "0"), (2, 1, 2, "1"), (3, 2, 4, "1"), (3, 3, 1, "=")]
SECOND = [(1, 4, 1, "1"), (1, 3, 2, "0"), (1, 5, None, None), (2, 1, 5, "="), (2, 2, 4, "1"),
          (3, 5, 3, "1"), (3, 1, 2, "0")]  # fmt: skip


def trf_file(name, dates, players, games) -> bytes:
    rounds = {number: {} for number, *_ in players}
    for rnd, white, black, result in games:
        if black is None:
            rounds[white][rnd] = ("0000", "-", "U")
            continue
        back = {"1": "0", "0": "1", "=": "="}[result]
        rounds[white][rnd] = (black, "w", result)
        rounds[black][rnd] = (white, "b", back)
    last = max(rnd for rnd, *_ in games)
    lines = [
        line(number, full, rating, fide_id=fide, birth=birth,
             rounds=[rounds[number].get(r, ("0000", "-", "-")) for r in range(1, last + 1)])
        for number, full, rating, fide, birth in players
    ]  # fmt: skip
    return "\n".join([f"012 {name}", "022 Kazan", f"042 {dates[0]}", f"052 {dates[1]}", *lines, ""]).encode()


@pytest.fixture
def arbiter(django_user_model):
    user = django_user_model.objects.create_user("arbiter")
    user.groups.add(Group.objects.get(name="Arbiters"))
    return user


def run(*args) -> str:
    out = io.StringIO()
    call_command("import_results", *args, "--arbiter", "arbiter", stdout=out, stderr=io.StringIO())
    return out.getvalue()


def confirm_and_rate(path) -> Tournament:
    run(str(path), "--confirm")
    tournament = Tournament.objects.latest("pk")
    rating_services.rating_run(tournament_id=tournament.pk)
    return tournament


def lists() -> dict[str, dict[str, int | None]]:
    shown = {}
    for player in Player.objects.all():
        ratings = dict(PlayerRating.objects.filter(player=player).values_list("system", "rating"))
        shown[str(player.federation_id)] = {s: ratings.get(s) for s in ("orr", "mchess", "playchess")}
    return shown


def test_it_predicts_in_the_preview_what_the_confirmed_tournament_gives_the_lists(arbiter, tmp_path):
    first = tmp_path / "spring.trf"
    first.write_bytes(trf_file("Spring Cup", ("2026/03/01", "2026/03/03"), PLAYERS, FIRST))
    confirm_and_rate(first)
    assert PlayerRating.objects.filter(system="mchess").count() == 4

    second = tmp_path / "summer.trf"
    second.write_bytes(trf_file("Summer Cup", ("2026/06/01", "2026/06/03"), [*PLAYERS, NEWCOMER], SECOND))
    printed = json.loads(run(str(second), "--json"))
    predicted = printed["predicted"]
    assert Upload.objects.count() == 1 and Tournament.objects.count() == 1  # the preview saved nothing
    changes_before = RatingChange.objects.count()

    confirm_and_rate(second)
    assert RatingChange.objects.count() > changes_before  # the run did rate the second tournament
    after = lists()
    smirnov = str(Player.objects.get(family_name="Smirnov").federation_id)
    assert predicted.pop("new:5") == after.pop(smirnov)
    assert predicted == after
    assert len(predicted) == 4
    # Not the lists before the tournament: it did change everyone's Mchess rating.
    ivanov = str(Player.objects.get(family_name="Ivanov").federation_id)
    first_change = RatingChange.objects.filter(player__federation_id=ivanov, system="mchess").earliest("pk")
    assert predicted[ivanov]["mchess"] != first_change.rating_after


def test_it_refuses_json_with_confirm(arbiter, tmp_path):
    from django.core.management import CommandError

    path = tmp_path / "spring.trf"
    path.write_bytes(trf_file("Spring Cup", ("2026/03/01", "2026/03/03"), PLAYERS, FIRST))
    with pytest.raises(CommandError, match="without --confirm"):
        run(str(path), "--json", "--confirm")


def test_it_shows_the_arbiter_the_prediction_in_the_preview_page(arbiter, client, tmp_path):
    from django.urls import reverse

    first = tmp_path / "spring.trf"
    first.write_bytes(trf_file("Spring Cup", ("2026/03/01", "2026/03/03"), PLAYERS, FIRST))
    confirm_and_rate(first)
    ivanov = Player.objects.get(family_name="Ivanov")
    now = PlayerRating.objects.get(player=ivanov, system="mchess").rating
    data = trf_file("Summer Cup", ("2026/06/01", "2026/06/03"), [*PLAYERS, NEWCOMER], SECOND)
    client.force_login(arbiter)
    response = client.post(reverse("arbiter:upload"), {"file": _uploaded("summer.trf", data)})
    upload = Upload.objects.latest("pk")
    assert response.status_code == 302, response.content.decode()[-3000:]
    page = client.get(reverse("arbiter:preview", args=[upload.pk])).content.decode()
    assert 'id="predicted"' in page, page[page.find("<main") :][:3000]
    assert f"{now} → <strong>" in page  # Ivanov's Mchess rating now, then after
    assert "ends before the last one rated" not in page

    # Dated before the tournament already rated: the preview says the prediction is of a later place.
    Upload.objects.filter(pk=upload.pk).delete()
    early = trf_file("Winter Cup", ("2026/01/01", "2026/01/03"), [*PLAYERS, NEWCOMER], SECOND)
    client.post(reverse("arbiter:upload"), {"file": _uploaded("winter.trf", early)})
    page = client.get(reverse("arbiter:preview", args=[Upload.objects.latest("pk").pk])).content.decode()
    assert "ends before the last one rated (2026-03-03)" in page


def _uploaded(name, data):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(name, data)
