"""Issue 18: files read wrong or half-read, Krause, team TRF16 and Swiss Perfect."""

import datetime
import io
import zipfile
from collections import Counter
from decimal import Decimal

import pytest
from django.contrib.auth.models import Group

from players.models import Player
from tests.tournaments.files import earned, example, trf, trf_player, xlsx
from tournaments import services
from tournaments.importers.base import ResultFileError
from tournaments.importers.dates import parse_date
from tournaments.importers.registry import read_result_file, sniff
from tournaments.models import Tournament, Upload


def codes(parsed):
    return [p.code for p in parsed.problems]


def pgn_game(white, black, result, date, rnd="?", event="Club Open"):
    return (
        f'[Event "{event}"]\n[Site "Galway"]\n[Date "{date}"]\n[Round "{rnd}"]\n'
        f'[White "{white}"]\n[Black "{black}"]\n[Result "{result}"]\n\n1. e4 e5 {result}\n'
    )


# --- PGN ----------------------------------------------------------------------------------------


def test_it_takes_pgn_rounds_from_the_dates_when_every_round_is_unknown():
    games = [
        pgn_game("Byrne, Ann", "Kelly, Sean", "1-0", "2026.03.08"),
        pgn_game("Kelly, Sean", "Ryan, Mary", "1/2-1/2", "2026.03.01"),
        pgn_game("Ryan, Mary", "Walsh, Tom", "0-1", "2026.03.15"),
        pgn_game("Walsh, Tom", "Byrne, Ann", "1-0", "2026.03.01"),
    ]
    parsed = read_result_file("club.pgn", "\n".join(games).encode())
    assert not parsed.errors
    names = {p.start_number: p.family_name for p in parsed.players}
    assert sorted((g.round, names[g.white]) for g in parsed.games) == [
        (1, "Kelly"),
        (1, "Walsh"),
        (2, "Byrne"),
        (3, "Ryan"),
    ]
    assert parsed.rounds == 3
    assert parsed.round_dates == {
        1: datetime.date(2026, 3, 1),
        2: datetime.date(2026, 3, 8),
        3: datetime.date(2026, 3, 15),
    }
    warning = next(p for p in parsed.warnings if p.code == "rounds_from_dates")
    assert "1: 2026-03-01" in warning.message and "3: 2026-03-15" in warning.message


def test_it_still_refuses_one_unknown_round_among_numbered_ones():
    games = [
        pgn_game("Byrne, Ann", "Walsh, Tom", "1-0", "2026.03.01", rnd="1"),
        pgn_game("Kelly, Sean", "Ryan, Mary", "1/2-1/2", "2026.03.08", rnd="?"),
    ]
    parsed = read_result_file("club.pgn", "\n".join(games).encode())
    assert codes(parsed).count("bad_round") == 1
    assert "rounds_from_dates" not in codes(parsed)


def test_it_reads_a_vega_bye_as_a_bye_not_a_player():
    games = [
        pgn_game("Byrne, Ann", "Walsh, Tom", "1-0", "2026.03.01", rnd="1.1"),
        pgn_game("Kelly, Sean", "BYE", "1-0", "2026.03.01", rnd="1.2"),
        pgn_game("BYE", "Walsh, Tom", "1/2-1/2", "2026.03.08", rnd="2.2"),
        pgn_game("Kelly, Sean", "Byrne, Ann", "0-1", "2026.03.08", rnd="2.1"),
    ]
    parsed = read_result_file("vega.pgn", "\n".join(games).encode())
    assert not parsed.errors
    assert sorted(p.family_name for p in parsed.players) == ["Byrne", "Kelly", "Walsh"]
    number = {p.family_name: p.start_number for p in parsed.players}
    byes = sorted((g.round, g.white, g.kind, g.result) for g in parsed.games if g.black is None)
    assert byes == [(1, number["Kelly"], "bye", "1-0"), (2, number["Walsh"], "half_bye", "1/2-1/2")]
    points = earned(parsed)
    assert (points[number["Byrne"]], points[number["Kelly"]], points[number["Walsh"]]) == (2, 1, Decimal("0.5"))


def test_it_warns_when_pgn_names_without_a_comma_are_split():
    games = [pgn_game("Guijarro Galan Jose", "Walsh, Tom", "1-0", "2026.03.01", rnd="1")]
    parsed = read_result_file("club.pgn", "\n".join(games).encode())
    warning = next(p for p in parsed.warnings if p.code == "names_split")
    assert "Guijarro / Galan Jose" in warning.message
    assert ("Guijarro", "Galan Jose") in [(p.family_name, p.given_names) for p in parsed.players]


# --- Dates --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("May 29, 2020", datetime.date(2020, 5, 29)),
        ("29 May 2020", datetime.date(2020, 5, 29)),
        ("Sept. 3, 2021", datetime.date(2021, 9, 3)),
        ("December 31, 2019", datetime.date(2019, 12, 31)),
    ],
)
def test_it_reads_dates_with_month_names(text, expected):
    assert parse_date(text) == (expected, "day")


def test_it_refuses_an_impossible_month_name_date():
    assert parse_date("Feb 30, 2020") == (None, "unknown")


def test_it_reads_lichess_trf_dates():
    lines = [
        trf_player(1, "Ivanov,Petr", rounds=[(2, "w", "1")]),
        trf_player(2, "Petrov,Ivan", rounds=[(1, "b", "0")]),
    ]
    parsed = read_result_file("lichess.trf", trf(lines, header=["012 Arena", "042 May 29, 2020", "052 May 30, 2020"]))
    assert (parsed.start_date, parsed.end_date) == (datetime.date(2020, 5, 29), datetime.date(2020, 5, 30))
    assert "bad_date" not in codes(parsed)


def test_it_reads_trf_two_digit_dates_day_first_and_shows_them():
    lines = [trf_player(1, "Ivanov,Petr", rounds=[(2, "w", "1")]), trf_player(2, "Petrov,Ivan", rounds=[(1, "b", "0")])]
    parsed = read_result_file("short.trf", trf(lines, header=["012 Cup", "042 10.09.13", "052 11.09.13"]))
    assert (parsed.start_date, parsed.end_date) == (datetime.date(2013, 9, 10), datetime.date(2013, 9, 11))
    assert any("10.09.13 = 2013-09-10" in str(note) for note in parsed.notes)


def test_it_reads_trf_two_digit_dates_year_first_when_the_files_other_dates_are():
    lines = [trf_player(1, "Ivanov,Petr", rounds=[(2, "w", "1")]), trf_player(2, "Petrov,Ivan", rounds=[(1, "b", "0")])]
    parsed = read_result_file("short.trf", trf(lines, header=["012 Cup", "042 2013/10/09", "052 13.10.10"]))
    assert (parsed.start_date, parsed.end_date) == (datetime.date(2013, 10, 9), datetime.date(2013, 10, 10))
    assert any("13.10.10 = 2013-10-10" in str(note) for note in parsed.notes)


# --- Names --------------------------------------------------------------------------------------


def test_it_keeps_the_family_name_of_russian_lists_with_three_name_columns():
    rows = [
        ["Ст.ном.", "Фамилия", "Имя", "Отчество", "Рейт.", "ФЕД."],
        [1, "Иванов", "Пётр", "Сергеевич", 1800, "RUS"],
        [2, "Петрова", "Анна", "", 1700, "RUS"],
    ]
    parsed = read_result_file("list.xlsx", xlsx(rows))
    assert [(p.family_name, p.given_names) for p in parsed.players] == [
        ("Иванов", "Пётр Сергеевич"),
        ("Петрова", "Анна"),
    ]
    assert "names_split" not in codes(parsed)
    assert parsed.columns["family_name"] == "B"


def test_it_warns_when_crosstable_names_without_a_comma_are_split_family_first():
    rows = [["No.", "Name", "Rtg"], [1, "Guijarro Galan Jose", 2000], [2, "Carlsen, Magnus", 2800]]
    parsed = read_result_file("list.xlsx", xlsx(rows))
    assert [(p.family_name, p.given_names) for p in parsed.players] == [
        ("Guijarro", "Galan Jose"),
        ("Carlsen", "Magnus"),
    ]
    warning = next(p for p in parsed.warnings if p.code == "names_split")
    assert "1 names" in warning.message and "Guijarro / Galan Jose" in warning.message


# --- Unfinished TRF (examples/trf-gros-open-2010-unfinished.trf) ---------------------------------


def test_it_warns_that_the_gros_open_is_unfinished_and_imports_only_played_rounds():
    parsed = read_result_file("gros.trf", example("trf-gros-open-2010-unfinished.trf"))
    warning = next(p for p in parsed.warnings if p.code == "unfinished_tournament")
    assert "9 rounds are announced but only 4" in warning.message
    assert max(g.round for g in parsed.games if g.black is not None) == 4
    # Round 5: only the half-point bye Gallas asked for ahead, which the file's points count; the
    # absences written ahead ("0000 - Z") are no games.
    assert [(g.white, g.kind) for g in parsed.games if g.round > 4] == [(43, "half_bye")]
    assert not parsed.errors
    # The file's own points agree with the four rounds' games.
    assert "points_differ" not in codes(parsed)
    assert len(parsed.players) == 52
    # Names without a comma are split family first, and the preview says so.
    assert (parsed.player(1).family_name, parsed.player(1).given_names) == ("Mirzoev", "Azer")
    assert "names_split" in codes(parsed)
    assert (parsed.player(6).family_name, parsed.player(6).given_names) == ("Gorrochategui Torres", "Eugenio")


# --- Krause (examples/krause-bunratty-masters-2011.tab) ------------------------------------------


def test_it_reads_the_krause_file_as_trf_with_its_points():
    data = example("krause-bunratty-masters-2011.tab")
    assert sniff(data) == "trf"
    parsed = read_result_file("bunratty.tab", data)
    assert not parsed.errors
    assert len(parsed.players) == 34 and parsed.rounds == 6
    assert parsed.name == "Bunratty 2011"
    # Round dates "11.25.02" are YY.DD.MM: inside 25-27 February 2011.
    assert parsed.round_dates[1] == datetime.date(2011, 2, 25)
    assert parsed.round_dates[6] == datetime.date(2011, 2, 27)
    # Every player's points in the file equal his games', the absences counted as half-point byes.
    points = earned(parsed)
    assert all(points[p.start_number] == p.points for p in parsed.players)
    assert "points_differ" not in codes(parsed)
    assert "absences_as_byes" in codes(parsed)
    assert parsed.player(4).points == Decimal("5.0") and parsed.player(4).rank == 1  # Jones, Gawain
    assert Counter(g.kind for g in parsed.games)["half_bye"] == 6


# --- Team TRF16 (examples/trf-crete-team-cup-2024.trf) -------------------------------------------


def test_it_imports_the_individual_games_of_the_team_trf():
    parsed = read_result_file("crete.trf", example("trf-crete-team-cup-2024.trf"))
    assert not parsed.errors
    assert len(parsed.players) == 129 and parsed.rounds == 7
    assert parsed.view == "TRF16 team"
    assert parsed.name == "ΔΙΑΣΥΛΛΟΓΙΚΟ ΚΥΠΕΛΛΟ ΚΡΗΤΙΚΗΣ ΦΙΛΙΑΣ 2024"
    kinds = Counter(g.kind for g in parsed.games)
    assert kinds["played"] == 280
    # Greek team names kept, as each player's club.
    assert parsed.player(13).club == "ΓΑΖΙ 1"
    assert parsed.player(7).club == "Α.Π.Ο. ΜΙΚΗΣ ΘΕΟΔΩΡΑΚΗΣ"
    points = earned(parsed)
    assert all(points[p.start_number] == p.points for p in parsed.players)
    assert "points_differ" not in codes(parsed)


def test_it_reads_the_bye_records_of_a_trf26_team_file_as_the_teams_byes():
    parsed = read_result_file("cup.trf", example("trf26-grandmommys-cup-2024-team.trf"))
    assert (parsed.view, parsed.rounds, len(parsed.players)) == ("TRF26 team", 14, 249)
    # "240 H 1 39": team 39's bye; player 39 won his round 1 game (128 b 1). Read as the player's
    # bye, 17 such records contradicted the player lines and five players' points came out wrong.
    assert "bye_conflict" not in codes(parsed)
    assert [g.result for g in parsed.games if g.round == 1 and 39 in (g.white, g.black)] == ["0-1"]
    assert Counter(g.kind for g in parsed.games) == {"played": 1030, "unplayed": 1328, "bye": 98}
    points = earned(parsed)
    assert all(points[p.start_number] == p.points for p in parsed.players)
    assert "points_differ" not in codes(parsed)
    assert (parsed.player(1).club, parsed.player(3).club) == ("India", "Georgia")
    assert "The bye records (240) of this TRF26 team file name teams, not players" in str(parsed.notes[-1])


# --- Swiss Perfect export (examples/sp-gonzaga-2010-export.txt) ----------------------------------


def test_it_imports_the_swiss_perfect_export():
    data = example("sp-gonzaga-2010-export.txt")
    assert sniff(data) == "sp"
    parsed = read_result_file("gonzaga.txt", data)
    assert not parsed.errors
    assert len(parsed.players) == 56 and parsed.rounds == 6
    power = parsed.player(1)
    assert (power.family_name, power.given_names, power.local_id, power.points) == ("Power", "Shane", "1794", 3)
    # "0:=" half-point byes, "+"/"-" forfeits, "0:-" a round not played.
    kinds = Counter(g.kind for g in parsed.games)
    assert (kinds["half_bye"], kinds["forfeit"]) == (6, 6)
    bye = next(g for g in parsed.games if g.white == 13 and g.round == 1)
    assert (bye.black, bye.kind, bye.result) == (None, "half_bye", "1/2-1/2")
    forfeit = next(g for g in parsed.games if g.round == 1 and 4 in (g.white, g.black))
    assert (forfeit.kind, forfeit.points(4)) == ("forfeit", 1)
    # The file's totals equal the games' points for every player.
    points = earned(parsed)
    assert all(points[p.start_number] == p.points for p in parsed.players)
    assert "points_differ" not in codes(parsed)
    assert not [p for p in parsed.problems if p.code == "colour_missing"]


def test_it_names_the_line_and_round_of_a_bad_swiss_perfect_cell():
    data = b"No\tName\tTotal\t 1  \t 2  \r\n1 \tA, B\t1\t2:W\t2:Q\r\n2 \tC, D\t0\t1:L\t1:L\r\n"
    parsed = read_result_file("sp.txt", data)
    problem = next(p for p in parsed.errors if p.code == "bad_cell")
    assert "line 2" in str(problem) and "round 2" in str(problem)


# --- Swiss Perfect native files, zipped (examples/sp-gonzaga-2010.trn/.sco/.ini) --------------


def swiss_perfect_zip(extensions=("trn", "sco", "ini")):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for extension in extensions:
            archive.writestr(f"gonzaga.{extension}", example(f"sp-gonzaga-2010.{extension}"))
    return buffer.getvalue()


def played_games(parsed):
    """Games between two players as (round, white-or-lower, other, points of the first, kind)."""
    return {
        (g.round, *sorted((g.white, g.black)), g.points(min(g.white, g.black)), g.kind)
        for g in parsed.games
        if g.black is not None and g.result != "0-0"
    }


def test_it_imports_the_zipped_swiss_perfect_files_with_the_same_games_as_the_export():
    data = swiss_perfect_zip()
    assert sniff(data) == "sp"
    native = read_result_file("gonzaga.zip", data)
    export = read_result_file("gonzaga.txt", example("sp-gonzaga-2010-export.txt"))
    assert not native.errors
    assert native.name == "Gonzaga Chess Classic 2010 Challengers Section"
    assert (native.chief_arbiter, native.rounds) == ("Herbert Scarry", 6)
    # 58 records, two deleted ("*"): MacMathuna is not a player.
    assert len(native.players) == 56
    assert "MacMathuna" not in [p.family_name for p in native.players]
    assert native.player(14).family_name == "Mullooly"  # START_NO "14\0\03": the text before the NUL
    assert played_games(native) == played_games(export)
    # Round 5: Abbey (51) and Catre (45) both lost by forfeit; the export writes "0:-" for each.
    double = next(g for g in native.games if g.round == 5 and 51 in (g.white, g.black))
    assert (double.kind, double.result, {double.white, double.black}) == ("forfeit", "0-0", {45, 51})
    # Every player's points from the native games equal the export's Total column.
    points = earned(native)
    assert all(points[p.start_number] == p.points for p in export.players)


def test_it_refuses_a_swiss_perfect_zip_without_its_games():
    with pytest.raises(ResultFileError) as refused:
        read_result_file("gonzaga.zip", swiss_perfect_zip(("trn", "ini")))
    assert [p.code for p in refused.value.problems] == ["sp_missing"]
    assert ".sco" in refused.value.problems[0].message


# --- Through the upload service: the preview carries what the arbiter must see --------------------


@pytest.fixture
def arbiter(django_user_model):
    user = django_user_model.objects.create_user("arbiter", password="x")
    user.groups.add(Group.objects.get(name="Arbiters"))
    return user


@pytest.mark.django_db
def test_it_stores_the_swiss_perfect_zip_as_a_preview_and_nothing_else(arbiter):
    upload = services.upload_create(user=arbiter, file_name="gonzaga.zip", data=swiss_perfect_zip())
    assert (upload.status, upload.format) == (Upload.Status.PREVIEW, "sp")
    assert len(upload.preview["file"]["players"]) == 56
    assert (Player.objects.count(), Tournament.objects.count()) == (0, 0)


@pytest.mark.django_db
def test_it_shows_the_unfinished_warning_in_the_preview(arbiter):
    data = example("trf-gros-open-2010-unfinished.trf")
    upload = services.upload_create(user=arbiter, file_name="gros.trf", data=data)
    assert "unfinished_tournament" in [p["code"] for p in upload.problems]
    assert "names_split" in [p["code"] for p in upload.problems]


def test_it_reads_a_pgn_that_opens_with_a_comment_and_refuses_one_without_players():
    games = pgn_game("Adams, M", "Short, N", "1-0", "2024.03.01", rnd="1")
    parsed = read_result_file("club.pgn", ("{ Collected by the club's secretary }\n\n" + games).encode())
    assert (len(parsed.games), parsed.players[0].family_name, parsed.errors) == (1, "Adams", [])
    # pgn-extract's opening book: a comment, then openings without players.
    book = '{ ECO classifications }\n\n[ECO "A00"]\n[Opening "Polish"]\n\n1. b4 *\n\n[ECO "A01"]\n\n1. b3 *\n'
    with pytest.raises(ResultFileError) as refused:
        read_result_file("eco.pgn", book.encode())
    assert str(refused.value) == (
        "eco.pgn: none of the 2 games in the PGN names its players (White and Black tags): it is not a "
        "tournament's games (an opening book or a collection of positions?)"
    )


def test_it_refuses_a_swiss_perfect_zip_of_three_tournaments_files():
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w") as archive:
        archive.writestr("gonzaga.trn", example("sp-gonzaga-2010.trn"))
        archive.writestr("other.sco", example("sp-gonzaga-2010.sco"))
        archive.writestr("readme.txt", b"not a table")  # other files in the zip do not matter
    with pytest.raises(ResultFileError) as refused:
        read_result_file("mixed.zip", data.getvalue())
    assert str(refused.value) == (
        "mixed.zip: the files in the zip belong to different tournaments (gonzaga.trn, other.sco): a Swiss "
        "Perfect tournament's .trn, .sco and .ini have the same name"
    )


def test_it_reads_krause_results_without_an_opponent_as_byes():
    lines = [
        trf_player(1, "Griffiths,Ryan", points="1.5", rounds=[("0000", "-", "="), (2, "b", "1")]),
        trf_player(2, "Hotak,Marian", points="1.0", rounds=[("0000", "-", "1"), (1, "w", "0")]),
    ]
    parsed = read_result_file("gonzaga.tab", trf(lines))
    assert not parsed.errors and "points_differ" not in codes(parsed)
    assert sorted((g.round, g.white, g.result, g.kind) for g in parsed.games if g.black is None) == [
        (1, 1, "1/2-1/2", "half_bye"),
        (1, 2, "1-0", "bye"),
    ]
    assert any("as older Krause files write byes" in str(note) for note in parsed.notes)
