"""The real files of examples/ behave as their README rows say (files used as they are)."""

import datetime
from collections import Counter
from decimal import Decimal

import pytest

from tests.tournaments.files import example
from tournaments.importers.base import PLAYER_LIST, RESULTS
from tournaments.importers.registry import read_result_file, sniff


@pytest.fixture(scope="module")
def karl_mala():
    return read_result_file("karl-mala-2005.trf", example("karl-mala-2005.trf"))


def test_it_reads_the_karl_mala_trf_header(karl_mala):
    assert sniff(example("karl-mala-2005.trf")) == "trf"
    assert karl_mala.name == "9. Karl-Mala-Gedenkturnier"
    assert karl_mala.city == "Frankfurt (Main) /GER"
    # Dates written "28. 07. 2005".
    assert (karl_mala.start_date, karl_mala.end_date) == (datetime.date(2005, 7, 28), datetime.date(2005, 7, 31))
    assert karl_mala.rounds == 7
    assert karl_mala.chief_arbiter == "Ralph Blum (SV Griesheim)"
    assert karl_mala.time_control == "40/120, 60"


def test_it_imports_every_player_of_karl_mala(karl_mala):
    # 284 lines; the last is the pairing program's stand-in for the bye ("spielfrei").
    assert len(karl_mala.players) == 283
    assert any("spielfrei" in str(note) for note in karl_mala.notes)
    first = karl_mala.player(1)
    assert (first.family_name, first.given_names, first.title) == ("Vasquez", "Rodrigo", "GM")  # old code "g"
    assert (first.fide_id, first.rating, first.country) == (3400042, 2558, "CHI")
    assert (first.birth_date, first.birth_precision) == (datetime.date(1969, 12, 6), "day")
    assert (first.points, first.rank) == (Decimal("6.0"), 4)
    assert karl_mala.player(2).title == "IM"  # "m"
    assert karl_mala.player(13).title == "FM"  # "f"
    assert karl_mala.player(27).given_names == "Matthias,Dr."


def test_it_imports_every_round_of_karl_mala_with_forfeits_kept_but_not_played(karl_mala):
    kinds = Counter(game.kind for game in karl_mala.games)
    assert kinds == {"played": 970, "forfeit": 10, "bye": 1}
    assert not karl_mala.errors
    # Round 1: 13 (withdrawn, rank 0) lost by forfeit to 153; neither had a colour.
    forfeit = next(g for g in karl_mala.games if g.round == 1 and 13 in (g.white, g.black))
    assert (forfeit.white, forfeit.black, forfeit.result, forfeit.kind) == (13, 153, "0-1", "forfeit")
    # Round 5: 282 got the bye ("0000 - +").
    bye = next(g for g in karl_mala.games if g.round == 5 and g.white == 282 and g.black is None)
    assert (bye.kind, bye.result) == ("bye", "1-0")
    # The withdrawn player with no played game is pointed out.
    assert [p.code for p in karl_mala.warnings] == ["no_played_game"]
    assert "Bakhmatov" in karl_mala.warnings[0].message


def test_it_checks_karl_mala_points_against_the_games(karl_mala):
    assert not [p for p in karl_mala.problems if p.code == "points_differ"]


def test_it_refuses_the_cut_grenke_crosstable_naming_row_and_round():
    parsed = read_result_file("grenke-open-2025-crosstable.xlsx", example("grenke-open-2025-crosstable.xlsx"))
    assert sniff(example("grenke-open-2025-crosstable.xlsx")) == "xlsx"
    assert parsed.view == "ranking crosstable"
    assert len(parsed.players) == 150
    assert parsed.errors
    assert {p.code for p in parsed.errors} == {"missing_opponents", "missing_opponent"}
    assert str(parsed.errors[0]) == (
        "grenke-open-2025-crosstable.xlsx, sheet 'Sheet1': 409 round cells name opponents who are not in the table "
        "(up to 296; the table has 150 players): the crosstable seems cut; export it complete"
    )
    first = str(parsed.errors[1])
    # Carlsen, row 2, played the player at row position 256 in round 1.
    assert first == (
        "grenke-open-2025-crosstable.xlsx, sheet 'Sheet1', row 2, column G, round 1: "
        "the opponent at row position 256 is not in the table (it has 150 players)"
    )
    assert not parsed.games


def test_it_reads_the_grenke_players_despite_blank_tied_ranks():
    parsed = read_result_file("grenke-open-2025-crosstable.xlsx", example("grenke-open-2025-crosstable.xlsx"))
    carlsen, svane = parsed.player(1), parsed.player(4)
    assert (carlsen.family_name, carlsen.given_names, carlsen.title, carlsen.rating) == (
        "Carlsen",
        "Magnus",
        "GM",
        2837,
    )
    assert (svane.family_name, svane.rank) == ("Svane", 3)  # blank rank: tied with the row above
    assert parsed.player(5).family_name == "Dominguez Perez"


def test_it_reads_the_aicf_xls_as_a_player_list():
    parsed = read_result_file("aicf-starting-rank.xls", example("aicf-starting-rank.xls"))
    assert sniff(example("aicf-starting-rank.xls")) == "xls"
    assert parsed.content == PLAYER_LIST
    assert parsed.view == "starting-rank list"
    assert parsed.name == "ADITH PAULSON MEMORIAL 4rth DON BOSCO FIDE RATED CHESS TOURNAMENT 2019"
    assert len(parsed.players) == 150
    # Names like "Gunasekaran K." have no comma: split family first, and the preview says so (issue 18).
    assert not parsed.games and [p.code for p in parsed.problems] == ["names_split"]
    first = parsed.player(1)
    assert (first.family_name, first.given_names, first.fide_id, first.rating, first.country) == (
        "Gunasekaran",
        "K.",
        5009197,  # stored as the float 5009197.0
        2017,
        "IND",
    )
    last = parsed.player(150)
    assert (last.rating, last.fide_id) == (None, None)  # Rtg 0 is unrated; no FideID


def test_it_imports_the_grand_swiss_pgn_matched_by_fide_id():
    parsed = read_result_file("fide-grand-swiss-2021.pgn", example("fide-grand-swiss-2021.pgn"))
    assert sniff(example("fide-grand-swiss-2021.pgn")) == "pgn"
    assert parsed.content == RESULTS
    assert (parsed.name, parsed.rounds, len(parsed.players), len(parsed.games)) == (
        "FIDE Grand Swiss 2021",
        11,
        108,
        594,
    )
    assert all(p.fide_id for p in parsed.players)
    assert (parsed.start_date, parsed.end_date) == (datetime.date(2021, 10, 27), datetime.date(2021, 11, 7))
    caruana = next(p for p in parsed.players if p.fide_id == 2020009)
    assert (caruana.family_name, caruana.given_names, caruana.rating, caruana.title) == (
        "Caruana",
        "Fabiano",
        2800,
        "GM",
    )
    first = next(g for g in parsed.games if g.round == 1 and g.board == 1)
    assert first.white == caruana.start_number and first.result == "1-0"
    assert first.moves.startswith("1. e4 c5 2. Nf3")
    assert Counter(g.result for g in parsed.games) == {"1/2-1/2": 320, "1-0": 162, "0-1": 112}
    assert any("no byes" in str(note) for note in parsed.notes)
    assert not parsed.problems
