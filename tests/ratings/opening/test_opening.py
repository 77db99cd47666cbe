"""Importing an opening list: preview, application, a corrected list, and uploads dated before it."""

import datetime
import io

import pytest
from django.core.management import CommandError, call_command

from accounts.models import AuditEntry
from players.models import Player
from ratings.models import OpeningList, PlayerRating
from ratings.opening import services
from tests.tournaments.files import example
from tournaments.services import UploadRefused, preview_build

pytestmark = pytest.mark.django_db

LIST = (
    "federation_id,family_name,given_names,birth,sex,club,region,fide_id,fide_rating,"
    "orr_rating,orr_provisional,orr_games,orr_tournaments,orr_last_played,orr_stored,"
    "mchess_rating,mchess_provisional,mchess_games,mchess_tournaments,mchess_last_played,"
    "playchess_rating,playchess_provisional,playchess_games\n"
    "200001,Petrov,Ivan,1980-05-04,M,Rook,Kazan,,,1800,0,120,14,2009-12-01,,1750,0,120,14,2009-12-01,1820,0,120\n"
    "200002,Sidorova,Olga,2001,F,,,,,1234,1,9,2,2009-11-20,1300:2;1100:1,,,,,,,,\n"
)
DAY = datetime.date(2010, 1, 1)


def _import(text=LIST, day=DAY, confirm=True):
    out = io.StringIO()
    path = _file(text)
    args = [str(path), "--date", day.isoformat()] + (["--confirm"] if confirm else [])
    call_command("import_list", *args, stdout=out)
    return out.getvalue()


def _file(text):
    import tempfile
    from pathlib import Path

    path = Path(tempfile.mkdtemp()) / "list.csv"
    path.write_text(text, encoding="utf-8")
    return path


def test_it_previews_without_writing_then_imports_on_confirm():
    out = _import(confirm=False)
    assert "new players: 2; matched: 0" in out and "preview only" in out
    assert not Player.objects.exists() and not OpeningList.objects.exists()
    _import()
    petrov = PlayerRating.objects.get(player__federation_id=200001, system="orr")
    assert (petrov.rating, petrov.provisional, petrov.games, petrov.tournaments) == (1800, False, 120, 14)
    olga = PlayerRating.objects.get(player__federation_id=200002, system="orr")
    assert olga.provisional and [g[:2] for g in olga.state["stored"]] == [[1300, 2], [1100, 1]]
    assert not PlayerRating.objects.filter(player__federation_id=200002, system="mchess").exists()
    assert AuditEntry.objects.filter(action="opening_list_import").count() == 1
    assert Player.objects.get(federation_id=200001).club.name == "Rook"


def test_it_shows_and_applies_the_differences_of_a_corrected_list():
    _import()
    corrected = LIST.replace("1800,0,120,14", "1810,0,121,14")
    out = _import(corrected, confirm=False)
    assert "difference, row 2, 200001 Petrov, Ivan: orr 1800 / 120 / 14 / 2009-12-01 / 0 -> 1810 / 121" in out
    _import(corrected)
    assert PlayerRating.objects.get(player__federation_id=200001, system="orr").rating == 1810
    assert OpeningList.objects.count() == 1


def test_it_refuses_a_file_with_errors_and_changes_nothing():
    with pytest.raises(CommandError):
        _import(LIST.replace("1980-05-04", "1980-13-04"))
    assert not Player.objects.exists()
    with pytest.raises(services.ListRefused, match="row 2, column birth"):
        services.list_apply(file_name="l.csv", data=LIST.replace("1980-05-04", "x").encode(), effective=DAY)


def test_it_refuses_a_list_of_another_date():
    _import()
    with pytest.raises(CommandError):
        _import(day=datetime.date(2011, 1, 1))
    assert list(OpeningList.objects.values_list("effective", flat=True)) == [DAY]


def test_it_refuses_the_upload_of_a_tournament_ending_before_the_list_in_the_preview():
    _import(day=datetime.date(2006, 1, 1))
    with pytest.raises(UploadRefused) as refused:
        preview_build(file_name="karl-mala-2005.trf", data=example("karl-mala-2005.trf"))
    (problem,) = refused.value.problems
    assert problem.code == "before_opening_list"
    assert preview_build(file_name="fide-grand-swiss-2021.pgn", data=example("fide-grand-swiss-2021.pgn")).parsed.games


def test_it_reads_back_its_own_xlsx_export(tmp_path):
    _import()
    target = tmp_path / "list.xlsx"
    call_command("export_list", "--system", "all", "--format", "xlsx", "--output", str(target), stderr=io.StringIO())
    preview = services.list_preview(file_name="list.xlsx", data=target.read_bytes(), effective=DAY)
    assert preview.can_apply and len(preview.matched) == 2 and not preview.conflicts
    assert not preview.differences  # the same standings as the list imported


def test_it_carries_a_guests_standing_across_a_partial_re_rating():
    """A re-rating from after a tournament where a member played as a guest restores his standing
    from his last change as a member (a guest's change keeps nothing of it)."""
    from ratings import services as rating_services
    from tests.ratings.scenario import children, make_tournament

    kids = children(10, seed=5)
    first = make_tournament("One", datetime.date(2025, 3, 1), kids, seed=1)
    rating_services.rating_run(tournament_id=first.pk)
    make_tournament("Two", datetime.date(2025, 4, 1), kids, seed=2, guests=kids[:2])
    third = make_tournament("Three", datetime.date(2025, 5, 1), kids, seed=3)
    rating_services.rerate_since(since=None)
    whole = sorted(PlayerRating.objects.values_list("player_id", "system", "rating", "games", "tournaments"))
    rating_services.rating_run(tournament_id=third.pk)
    assert sorted(PlayerRating.objects.values_list("player_id", "system", "rating", "games", "tournaments")) == whole


def test_it_keeps_a_decision_of_the_lists_own_day_on_top_of_the_list_in_a_partial_re_rating():
    from ratings import services as rating_services
    from ratings.models import RatingOverride
    from tests.ratings.scenario import make_tournament

    _import()
    petrov = Player.objects.get(federation_id=200001)
    RatingOverride.objects.create(player=petrov, effective=DAY, orr=1900, mchess=1900, reason="FIDE import")
    others = [petrov, Player.objects.get(federation_id=200002)]
    first = make_tournament("After", DAY + datetime.timedelta(days=10), others, rounds=2, seed=4)
    second = make_tournament("Later", DAY + datetime.timedelta(days=40), others, rounds=2, seed=5)
    rating_services.rerate_since(since=None)
    whole = sorted(PlayerRating.objects.values_list("player_id", "system", "rating", "games", "tournaments"))
    assert PlayerRating.objects.get(player=petrov, system="orr").games == 124  # the list's 120 and 4 more
    rating_services.rating_run(tournament_id=second.pk)
    assert sorted(PlayerRating.objects.values_list("player_id", "system", "rating", "games", "tournaments")) == whole
    rating_services.rating_run(tournament_id=first.pk)
    assert sorted(PlayerRating.objects.values_list("player_id", "system", "rating", "games", "tournaments")) == whole
