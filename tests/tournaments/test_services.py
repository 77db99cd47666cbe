"""Upload, preview, confirm and cancel: what is saved, what is matched, and that nothing is half-done."""

import datetime
from unittest import mock

import pytest
from django.contrib.auth.models import Group
from django.core.files.storage import storages
from django.test import override_settings

from players.models import Player
from tests.players.factories import PlayerFactory
from tests.tournaments.files import example, trf, trf_player
from tournaments import services
from tournaments.models import Game, Participant, Tournament, Upload

pytestmark = pytest.mark.django_db


@pytest.fixture
def arbiter(django_user_model):
    user = django_user_model.objects.create_user("arbiter", password="x")
    user.groups.add(Group.objects.get(name="Arbiters"))
    return user


def details(**overrides):
    values = {
        "name": "Cup",
        "start_date": datetime.date(2026, 3, 1),
        "end_date": datetime.date(2026, 3, 2),
        "rounds": 2,
    }
    return services.TournamentDetails(**{**values, **overrides})


def small_trf(**player_one):
    one = {"name": "Ivanov,Petr", "fide_id": "", "birth": ""} | player_one
    lines = [
        trf_player(1, one["name"], 1800, "RUS", one["fide_id"], one["birth"], rounds=[(2, "w", "1"), (3, "b", "=")]),
        trf_player(2, "Petrov,Ivan", rounds=[(1, "b", "0"), ("0000", "-", "F")]),
        trf_player(3, "Sidorov,Oleg", rounds=[("0000", "-", "H"), (1, "w", "=")]),
    ]
    return trf(lines)


def test_it_stores_an_upload_with_its_preview_and_nothing_else(arbiter):
    upload = services.upload_create(user=arbiter, file_name="karl-mala-2005.trf", data=example("karl-mala-2005.trf"))
    assert upload.status == Upload.Status.PREVIEW
    assert upload.format == "trf"
    assert len(upload.preview["file"]["players"]) == 283
    assert {m["status"] for m in upload.preview["matches"].values()} == {"new"}
    assert [p["code"] for p in upload.problems] == ["no_played_game"]
    assert storages["private"].exists(upload.file.name)
    assert Player.objects.count() == 0
    assert Tournament.objects.count() == 0


def test_it_refuses_the_same_file_twice_by_its_sha256(arbiter):
    services.upload_create(user=arbiter, file_name="a.trf", data=small_trf())
    with pytest.raises(services.UploadRefused) as refused:
        services.upload_create(user=arbiter, file_name="copy-with-another-name.trf", data=small_trf())
    assert refused.value.problems[0].code == "duplicate_file"
    assert "uploaded already" in str(refused.value)
    assert Upload.objects.count() == 1


@override_settings(MAX_UPLOAD_BYTES=1024)
def test_it_refuses_a_file_larger_than_the_limit(arbiter):
    with pytest.raises(services.UploadRefused) as refused:
        services.upload_create(user=arbiter, file_name="big.trf", data=example("karl-mala-2005.trf"))
    assert str(refused.value.problems[0]) == "big.trf: the file is 45690 bytes; the limit is 1024 bytes"
    assert Upload.objects.count() == 0


def test_it_saves_nothing_for_the_cut_grenke_crosstable(arbiter):
    data = example("grenke-open-2025-crosstable.xlsx")
    with pytest.raises(services.UploadRefused) as refused:
        services.upload_create(user=arbiter, file_name="grenke-open-2025-crosstable.xlsx", data=data)
    assert "row 2, column G, round 1" in str(refused.value.problems[1])
    assert (Upload.objects.count(), Player.objects.count(), Tournament.objects.count()) == (0, 0, 0)
    assert not storages["private"].listdir("uploads")[1] if storages["private"].exists("uploads") else True


def test_it_confirms_karl_mala_in_one_go(arbiter):
    upload = services.upload_create(user=arbiter, file_name="karl-mala-2005.trf", data=example("karl-mala-2005.trf"))
    tournament = services.tournament_confirm(
        upload=upload,
        user=arbiter,
        details=details(
            name="9. Karl-Mala-Gedenkturnier",
            start_date=datetime.date(2005, 7, 28),
            end_date=datetime.date(2005, 7, 31),
            rounds=7,
            fide_rated=True,
        ),
    )
    assert tournament.status == Tournament.Status.QUEUED  # rated once the transaction commits
    assert tournament.chief_arbiter == arbiter
    assert Player.objects.count() == 283
    assert tournament.participants.count() == 283
    assert tournament.games.count() == 981
    assert tournament.games.filter(kind="forfeit").count() == 10
    vasquez = Participant.objects.select_related("player").get(tournament=tournament, start_number=1)
    assert (vasquez.player.fide_id, vasquez.player.title, vasquez.fide_rating_in_file) == (3400042, "GM", 2558)
    assert vasquez.player.birth_date == datetime.date(1969, 12, 6)
    upload.refresh_from_db()
    assert (upload.status, upload.tournament) == (Upload.Status.CONFIRMED, tournament)
    with pytest.raises(services.ConfirmError, match="confirmed or cancelled already"):
        services.tournament_confirm(upload=upload, user=arbiter, details=details(rounds=7))


def test_it_matches_by_fide_id_then_by_name_and_birth_date_in_either_script(arbiter):
    by_fide = PlayerFactory(family_name="Someone", given_names="Else", fide_id=24100018)
    by_name = PlayerFactory(family_name="Петров", given_names="Иван", birth_date=datetime.date(2014, 5, 17))
    lines = [
        trf_player(1, "Ivanov,Petr", 1800, "", 24100018, "", rounds=[(2, "w", "1")]),
        trf_player(2, "Petrov,Ivan", birth="2014/05/17", rounds=[(1, "b", "0")]),
    ]
    upload = services.upload_create(user=arbiter, file_name="m.trf", data=trf(lines))
    matches = upload.preview["matches"]
    assert (matches["1"]["status"], matches["1"]["player_id"], matches["1"]["how"]) == (
        "matched",
        by_fide.pk,
        "FIDE id",
    )
    assert (matches["2"]["status"], matches["2"]["player_id"], matches["2"]["how"]) == (
        "matched",
        by_name.pk,
        "name and birth date",
    )
    tournament = services.tournament_confirm(upload=upload, user=arbiter, details=details(rounds=1))
    assert set(tournament.participants.values_list("player_id", flat=True)) == {by_fide.pk, by_name.pk}
    assert Player.objects.count() == 2


def test_it_asks_the_arbiter_to_choose_when_only_the_name_matches(arbiter):
    namesake = PlayerFactory(family_name="Иванов", given_names="Пётр", birth_date=None, birth_precision="unknown")
    upload = services.upload_create(user=arbiter, file_name="a.trf", data=small_trf())
    match = upload.preview["matches"]["1"]
    assert match["status"] == "ambiguous"
    assert [c["player_id"] for c in match["candidates"]] == [namesake.pk]
    with pytest.raises(services.ConfirmError, match="Choose who Ivanov, Petr"):
        services.tournament_confirm(upload=upload, user=arbiter, details=details())
    assert Tournament.objects.count() == 0
    with pytest.raises(services.ConfirmError, match="not offered"):
        services.tournament_confirm(upload=upload, user=arbiter, details=details(), choices={1: 999999})
    tournament = services.tournament_confirm(
        upload=upload,
        user=arbiter,
        details=details(),
        choices={1: namesake.pk},
        birth_dates={1: (datetime.date(2013, 7, 1), "year"), 2: (datetime.date(2014, 2, 3), "day")},
    )
    namesake.refresh_from_db()
    assert Participant.objects.get(tournament=tournament, start_number=1).player == namesake
    assert (namesake.birth_date, namesake.birth_precision) == (datetime.date(2013, 7, 1), "year")
    assert Player.objects.get(family_name="Petrov").birth_date == datetime.date(2014, 2, 3)


def test_it_creates_a_new_player_when_the_arbiter_says_none_of_them(arbiter):
    PlayerFactory(family_name="Ivanov", given_names="Petr", birth_date=None, birth_precision="unknown")
    upload = services.upload_create(user=arbiter, file_name="a.trf", data=small_trf())
    services.tournament_confirm(upload=upload, user=arbiter, details=details(), choices={1: None})
    assert Player.objects.filter(name_key="ivanov petr").count() == 2


def test_it_refuses_to_confirm_a_preview_the_federation_outdated(arbiter):
    upload = services.upload_create(user=arbiter, file_name="a.trf", data=small_trf(fide_id=4100018))
    PlayerFactory(fide_id=4100018)  # registered meanwhile, e.g. by another tournament
    with pytest.raises(services.ConfirmError, match="changed since this preview"):
        services.tournament_confirm(upload=upload, user=arbiter, details=details())
    upload.refresh_from_db()
    assert upload.preview["matches"]["1"]["status"] == "matched"  # the preview now shows the truth
    assert Tournament.objects.count() == 0


def test_it_refuses_details_that_contradict_the_file(arbiter):
    upload = services.upload_create(user=arbiter, file_name="a.trf", data=small_trf())
    with pytest.raises(services.ConfirmError) as refused:
        services.tournament_confirm(
            upload=upload,
            user=arbiter,
            details=details(name=" ", rounds=1, end_date=datetime.date(2026, 2, 1)),
        )
    assert len(refused.value.messages) == 3
    assert (Tournament.objects.count(), Player.objects.count()) == (0, 0)


def test_it_leaves_nothing_behind_when_saving_fails_half_way(arbiter):
    upload = services.upload_create(user=arbiter, file_name="a.trf", data=small_trf())
    failing = mock.patch.object(Game.objects, "bulk_create", side_effect=RuntimeError("disk full"))
    with failing, pytest.raises(RuntimeError):
        services.tournament_confirm(upload=upload, user=arbiter, details=details())
    assert (Tournament.objects.count(), Player.objects.count(), Participant.objects.count()) == (0, 0, 0)
    upload.refresh_from_db()
    assert upload.status == Upload.Status.PREVIEW


def test_it_cancels_without_a_trace(arbiter):
    upload = services.upload_create(user=arbiter, file_name="a.trf", data=small_trf())
    name = upload.file.name
    services.upload_cancel(upload=upload)
    assert not Upload.objects.exists()
    assert not storages["private"].exists(name)
    # The same file can be uploaded again after a cancel.
    services.upload_create(user=arbiter, file_name="a.trf", data=small_trf())


def test_it_registers_the_players_of_a_starting_rank_list(arbiter):
    PlayerFactory(family_name="Someone", fide_id=5009197)
    upload = services.upload_create(user=arbiter, file_name="aicf.xls", data=example("aicf-starting-rank.xls"))
    assert upload.preview["file"]["content"] == "player_list"
    assert upload.preview["matches"]["1"]["status"] == "matched"
    with pytest.raises(services.ConfirmError, match="register its players"):
        services.tournament_confirm(upload=upload, user=arbiter, details=details())
    players = services.players_register(upload=upload)
    assert len(players) == 150
    assert Player.objects.count() == 150  # 149 new and the one found by FIDE id
    upload.refresh_from_db()
    assert upload.status == Upload.Status.REGISTERED
    assert Player.objects.get(fide_id=35014730).country == "IND"
