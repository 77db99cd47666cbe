"""python manage.py import_results: the arbiter's flow without a browser."""

import io

import pytest
from django.contrib.auth.models import Group
from django.core.management import CommandError, call_command

from players.models import Player
from tests.players.factories import PlayerFactory
from tests.tournaments.files import EXAMPLES
from tournaments.models import Tournament, Upload

pytestmark = pytest.mark.django_db


@pytest.fixture
def arbiter(django_user_model):
    user = django_user_model.objects.create_user("arbiter")
    user.groups.add(Group.objects.get(name="Arbiters"))
    return user


def run(*args):
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("import_results", *args, stdout=out, stderr=err)
    except CommandError as exc:
        return out.getvalue(), err.getvalue() + str(exc)
    return out.getvalue(), err.getvalue()


def test_it_prints_the_preview_and_saves_nothing(arbiter):
    out, _ = run(str(EXAMPLES / "karl-mala-2005.trf"), "--arbiter", "arbiter")
    assert "players: 283 (0 found, 283 new, 0 to choose); games: 981" in out
    assert "Vasquez, Rodrigo" in out
    assert "nothing was saved" in out
    assert (Upload.objects.count(), Player.objects.count(), Tournament.objects.count()) == (0, 0, 0)


def test_it_imports_the_complete_examples_with_confirm(arbiter):
    out, err = run(
        str(EXAMPLES / "karl-mala-2005.trf"),
        str(EXAMPLES / "fide-grand-swiss-2021.pgn"),
        "--arbiter",
        "arbiter",
        "--confirm",
        "--fide-rated",
    )
    assert not err
    assert "'9. Karl-Mala-Gedenkturnier' saved" in out
    assert "'FIDE Grand Swiss 2021' saved" in out
    assert Tournament.objects.count() == 2
    assert set(Tournament.objects.values_list("fide_rated", flat=True)) == {True}
    assert Player.objects.count() == 283 + 108


def test_it_stops_a_bad_file_and_goes_on_with_the_next(arbiter):
    out, err = run(
        str(EXAMPLES / "grenke-open-2025-crosstable.xlsx"),
        str(EXAMPLES / "aicf-starting-rank.xls"),
        "--arbiter",
        "arbiter",
        "--confirm",
    )
    assert "grenke-open-2025-crosstable.xlsx: not imported" in err
    assert "row 2, column G, round 1" in err
    assert "1 of 2 files were not imported" in err
    assert "aicf-starting-rank.xls: 150 players registered" in out
    assert Upload.objects.count() == 1  # only the player list


def test_it_stops_a_file_with_an_ambiguous_player_and_saves_nothing_of_it(arbiter):
    PlayerFactory(family_name="Vasquez", given_names="Rodrigo", birth_date=None, birth_precision="unknown")
    _, err = run(str(EXAMPLES / "karl-mala-2005.trf"), "--arbiter", "arbiter", "--confirm")
    assert "start number 1: choose in the web preview" in err
    assert (Upload.objects.count(), Tournament.objects.count(), Player.objects.count()) == (0, 0, 1)


def test_it_needs_an_existing_arbiter(arbiter, django_user_model):
    django_user_model.objects.create_user("visitor")
    assert "there is no user 'nobody'" in run(str(EXAMPLES / "karl-mala-2005.trf"), "--arbiter", "nobody")[1]
    assert "'visitor' is not an arbiter" in run(str(EXAMPLES / "karl-mala-2005.trf"), "--arbiter", "visitor")[1]


def test_it_reads_swiss_perfects_three_files_named_together(arbiter):
    out, err = run(
        *(str(EXAMPLES / f"sp-gonzaga-2010.{ext}") for ext in ("trn", "sco", "ini")),
        str(EXAMPLES / "karl-mala-2005.trf"),
        "--arbiter",
        "arbiter",
        "--confirm",
        "--start-date",
        "2010-02-05",
    )
    assert not err
    assert (
        "sp-gonzaga-2010.trn, sp-gonzaga-2010.sco, sp-gonzaga-2010.ini: "
        "'Gonzaga Chess Classic 2010 Challengers Section' saved"
    ) in out
    assert "'9. Karl-Mala-Gedenkturnier' saved" in out
    assert Tournament.objects.count() == 2


def test_it_names_a_lone_swiss_perfect_table_and_what_it_lacks(arbiter):
    _, err = run(str(EXAMPLES / "sp-gonzaga-2010.sco"), "--arbiter", "arbiter")
    assert "sp-gonzaga-2010.sco: not imported" in err
    assert "this is one table of Swiss Perfect" in err
    assert "1 of 1 files were not imported" in err
