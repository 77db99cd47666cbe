"""Tie-break orders as files write them: TRF-2026 record 202."""

from tests.tournaments.files import example, trf, trf_player
from tournaments.importers.registry import read_result_file
from tournaments.tiebreaks.codes import from_trf


def test_it_reads_cuts_and_medians_as_buchholz_codes():
    assert from_trf("BH/C1,BH,SB,DE,WIN") == (["BH-C1", "BH", "SB", "DE", "WIN"], [])
    assert from_trf("PTS, BH/M1, BH:GP/C2/P, TPR") == (["BH-M1", "BH-C2", "TPR"], [])


def test_it_sets_aside_what_it_does_not_compute():
    assert from_trf("EDET/P,BH,XYZ") == (["BH"], ["EDET/P", "XYZ"])


def test_it_takes_the_order_of_a_trf26_players_file():
    data = trf(
        [
            "202 BH/C1,SB,DE",
            trf_player(1, "Ivanov,Petr", 1800, rounds=[(2, "w", "1")]),
            trf_player(2, "Petrov,Ivan", rounds=[(1, "b", "0")]),
        ]
    )
    assert read_result_file("t.trf", data).tiebreaks == ["BH-C1", "SB", "DE"]


def test_it_leaves_a_team_files_tie_breaks_to_the_teams():
    # Record 202 of this real TRF26 team Swiss: EDET/P,EMGSB/C1/P,BH:MP/C1/P,MPvGP - the teams' order.
    name = "trf26-grandmommys-cup-2024-team.trf"
    assert read_result_file(name, example(name)).tiebreaks == []
