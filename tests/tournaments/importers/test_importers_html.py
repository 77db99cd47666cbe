"""HTML crosstables: the real chess-results and Vega pages of examples/, used as they are."""

import datetime
import re
from collections import Counter
from dataclasses import replace
from decimal import Decimal

import lxml.html
import pytest

from tests.tournaments.files import earned, example
from tournaments.importers.base import BYE, FORFEIT, HALF_BYE, PLAYER_LIST, RESULTS, ResultFileError
from tournaments.importers.registry import read_result_file, sniff
from tournaments.importers.roundrobin import berger

ARAD = "cr-arad-open-2026-crosstable.html"
USSA = "cr-ussa-closed-2026-round-robin.html"
BRITISH = "cr-british-2026-r9-unplayed.html"
PORTIMAO = "cr-portimao-2026-final-ranking-pt.html"
VEGA = "vega-best-in-the-west-2025-crosstable.html"


def read(name: str, as_name: str | None = None):
    return read_result_file(as_name or name, example(name))


def page_column(name: str, header: str) -> dict[int, str]:
    """The page's own column `header` by start number, read straight from the page's player table."""
    document = lxml.html.document_fromstring(example(name))
    table = document.xpath("//table[@class='CRs1']")[0]
    rows = [[re.sub(r"\s+", " ", c.text_content()).strip() for c in tr.xpath("td|th")] for tr in table.xpath(".//tr")]
    index, number = rows[0].index(header), rows[0].index("No.")
    return {int(row[number]): row[index] for row in rows[1:] if row[number].isdigit()}


def decimal(text: str) -> Decimal:
    return Decimal(text.replace(",", "."))


@pytest.fixture(scope="module")
def arad():
    return read(ARAD)


def test_it_sniffs_every_html_page_by_its_content():
    for name in (ARAD, USSA, BRITISH, PORTIMAO, VEGA):
        assert sniff(example(name)) == "html"


def test_it_reads_the_arad_header(arad):
    assert arad.format == "html"
    assert arad.view == "starting-rank crosstable"
    assert arad.name == (
        "19th Arad Open Grand Prix Classic (part of Romania Grand Prix series) A Tournament (above 2000 rating)"
    )
    assert arad.rounds == 9
    assert arad.chief_arbiter == "IA Radu-Catalin Chirila (1202642)"  # not the deputy's line after it
    assert arad.deputy_arbiters == ["IA Roxana-Maria Firaru (1218972)"]
    assert (arad.start_date, arad.end_date) == (datetime.date(2026, 8, 3), datetime.date(2026, 8, 9))
    assert arad.city == "Amiral Events & Style Arad"


def test_it_imports_every_arad_player_and_game(arad):
    assert arad.content == RESULTS and not arad.errors
    assert len(arad.players) == 209
    # Pirvulescu: nine rounds without a game; names like "Carlsen Magnus" are split with a warning.
    assert [p.code for p in arad.problems] == ["names_split", "no_played_game"]
    kovalenko = arad.player(1)
    assert (kovalenko.family_name, kovalenko.given_names, kovalenko.title, kovalenko.country) == (
        "Kovalenko",
        "Igor",
        "GM",
        "UKR",
    )
    # Row 1: 105b½ 107w1 126w1 39b0 75w1 49b1 33b1 8w0 31w½.
    assert [(g.round, g.white, g.black, g.result) for g in arad.games if 1 in (g.white, g.black)] == [
        (1, 105, 1, "1/2-1/2"),
        (2, 1, 107, "1-0"),
        (3, 1, 126, "1-0"),
        (4, 39, 1, "1-0"),
        (5, 1, 75, "1-0"),
        (6, 49, 1, "0-1"),
        (7, 33, 1, "0-1"),
        (8, 1, 8, "0-1"),
        (9, 1, 31, "1/2-1/2"),
    ]
    assert Counter(g.kind for g in arad.games) == {"played": 895, "unplayed": 59, HALF_BYE: 20, FORFEIT: 4, BYE: 4}


def test_it_checks_every_arad_player_against_the_pages_points_and_ranks(arad):
    points, ranks = page_column(ARAD, "Pts."), page_column(ARAD, "Rk.")
    from_games = earned(arad)
    for player in arad.players:
        assert player.points == decimal(points[player.start_number])
        assert from_games[player.start_number] == player.points, player.display_name
        assert player.rank == int(ranks[player.start_number])
    winner = min(arad.players, key=lambda p: p.rank)
    assert (winner.family_name, winner.given_names, winner.points) == ("Bronstein", "Or", Decimal("7.5"))


def test_it_imports_the_round_robin_by_the_berger_tables():
    parsed = read(USSA)
    assert parsed.content == RESULTS and not parsed.problems
    assert parsed.name == "20260808-10 - USSA Closed 2026 Open"
    assert (len(parsed.players), parsed.rounds, len(parsed.games)) == (9, 9, 36)  # everyone met everyone once
    assert [str(note) for note in parsed.notes] == [
        "a round-robin crosstable shows no rounds or colours: they are taken from the FIDE Berger tables "
        "by start number"
    ]
    assert Counter(frozenset((g.white, g.black)) for g in parsed.games).most_common(1)[0][1] == 1
    # With nine players number 10 is the bye: 1 sits out round 1, 6 round 2, ..., 9 round 8.
    assert {g.round for g in parsed.games if 1 in (g.white, g.black)} == set(range(1, 10)) - {1}
    assert {g.round for g in parsed.games if 9 in (g.white, g.black)} == set(range(1, 10)) - {8}
    points, from_games = page_column(USSA, "Pts."), earned(parsed)
    for player in parsed.players:
        assert player.points == decimal(points[player.start_number]) == from_games[player.start_number]
    yoko = parsed.player(5)
    assert (yoko.family_name, yoko.given_names, yoko.title) == ("Yoko", "Christopher Dav", "AIM")
    # Njoku (8) lost to Shoba (2) by forfeit: '+' in row 2, '-' in row 8.
    assert [(g.white, g.black, g.result, g.kind) for g in parsed.games if {g.white, g.black} == {2, 8}] == [
        (8, 2, "0-1", FORFEIT)
    ]


def test_it_follows_the_fide_berger_tables():
    # FIDE Handbook C.05, Annex 1: the tables for 4 and 6 players.
    assert berger(4) == {1: [(1, 4), (2, 3)], 2: [(4, 3), (1, 2)], 3: [(2, 4), (3, 1)]}
    assert berger(6) == {
        1: [(1, 6), (2, 5), (3, 4)],
        2: [(6, 4), (5, 3), (1, 2)],
        3: [(2, 6), (3, 1), (4, 5)],
        4: [(6, 5), (1, 4), (2, 3)],
        5: [(3, 6), (4, 2), (5, 1)],
    }
    assert berger(5)[1] == [(2, 5), (3, 4)]  # player 6 is the bye: 1 sits out


def test_it_warns_that_the_british_round_9_has_no_results():
    parsed = read(BRITISH)
    # The names without a comma are split with a warning of their own (tested with the names).
    parsed.problems = [p for p in parsed.problems if p.code != "names_split"]
    assert parsed.content == RESULTS and not parsed.errors
    assert parsed.name == "2026 British Chess Championships: Championship"
    assert (len(parsed.players), parsed.rounds) == (108, 9)
    assert str(parsed.warnings[0]) == (
        "cr-british-2026-r9-unplayed.html: 47 games of round 9 are paired but have no result yet: they are left "
        "out, not counted as losses; import the page again when the results are in, or confirm the earlier rounds "
        "only"
    )
    assert Counter(p.code for p in parsed.warnings) == {"unplayed_rounds": 1, "unfinished": 47}
    assert str(parsed.warnings[1]) == (
        "cr-british-2026-r9-unplayed.html, row 2, column O, round 9: 1 – 13 has no result yet; the game is left out"
    )
    # Three boards of round 9 have their result already (`61w½`, `103b½`, Stubbs' `104b-`): those are kept.
    assert [(g.white, g.black, g.result, g.kind) for g in parsed.games if g.round == 9 and g.black is not None] == [
        (29, 61, "1/2-1/2", "played"),
        (103, 55, "1/2-1/2", "played"),
        (104, 62, "1-0", FORFEIT),
    ]
    # The page has no points column; its first tie-break is the points so far.
    points, from_games = page_column(BRITISH, "TB1"), earned(parsed)
    for player in parsed.players:
        assert from_games[player.start_number] == decimal(points[player.start_number]), player.display_name


def test_it_reads_the_portuguese_final_ranking_as_players_and_says_which_page_to_save():
    parsed = read(PORTIMAO)
    assert parsed.content == PLAYER_LIST and not parsed.games
    assert parsed.view == "ranking list"
    assert parsed.name == "Portimão Chess Festival - Classic (11/02 to 18/02)"
    assert [str(p) for p in parsed.problems] == [
        "cr-portimao-2026-final-ranking-pt.html: this page is chess-results' Classificação final após 9 rondas: it "
        "holds no games, so it is read as a list of players only; to import the results, save the 'Starting rank "
        "crosstable' page (or the 'Final Ranking crosstable') instead"
    ]
    assert len(parsed.players) == 99
    alves = next(p for p in parsed.players if p.family_name == "ALVES")
    assert (alves.given_names, alves.club, alves.points, alves.rank) == (
        "José Pedro Figueiredo",
        "Ca Téssera",
        Decimal("3.5"),
        74,
    )
    assert parsed.players[0].points == Decimal("7") and parsed.players[0].rank == 1


def test_it_reads_html_named_xls_as_the_same_page():
    as_html, as_xls = read(USSA), read(USSA, "ussa-closed.xls")
    assert sniff(example(USSA)) == "html" and as_xls.format == "html"
    # The same players (only the file named in their places differs) and the same games.
    assert [replace(p, place=replace(p.place, file=USSA)) for p in as_xls.players] == as_html.players
    assert [(g.round, g.white, g.black, g.result, g.kind) for g in as_xls.games] == [
        (g.round, g.white, g.black, g.result, g.kind) for g in as_html.games
    ]


def test_it_reads_the_vega_crosstable():
    parsed = read(VEGA)
    assert parsed.content == RESULTS and not parsed.errors
    assert parsed.name == "2025 Hobsons Bay Chess Club Best in The West"
    assert (parsed.start_date, parsed.end_date) == (datetime.date(2025, 8, 30), datetime.date(2025, 8, 31))
    assert (len(parsed.players), parsed.rounds) == (106, 5)
    assert [p.code for p in parsed.problems] == ["no_played_game"]  # Nandi: a bye, then withdrawn
    morris = parsed.player(1)
    assert (morris.family_name, morris.given_names, morris.title, morris.rating, morris.points) == (
        "Morris",
        "James",
        "IM",
        2554,
        Decimal("5.0"),
    )
    gowda = parsed.player(89)
    assert (gowda.family_name, gowda.given_names) == ("Gowda", "Likhil")  # "(W)": withdrawn, not his name
    games = {(g.round, g.white, g.black): (g.result, g.kind) for g in parsed.games}
    assert games[(1, 1, 53)] == ("1-0", "played")  # `153`, white
    assert games[(4, 2, 7)] == ("1/2-1/2", "played")  # `½7`, Soo white
    assert games[(3, 11, None)] == ("1/2-1/2", HALF_BYE)  # `½ BYE`
    assert games[(5, 101, None)][1] == BYE  # `1BYE`
    assert games[(1, 41, 94)] == ("1-0", FORFEIT)  # `1` over 94 in a colourless cell
    assert Counter(g.kind for g in parsed.games) == {"played": 246, HALF_BYE: 20, FORFEIT: 4, BYE: 2}
    from_games = earned(parsed)
    for player in parsed.players:
        assert from_games[player.start_number] == player.points, player.display_name


def test_it_refuses_a_web_page_without_a_crosstable():
    page = b"<!DOCTYPE html><html><body><h2>Club news</h2><table><tr><td>Open day</td></tr></table></body></html>"
    with pytest.raises(Exception) as caught:
        read_result_file("news.xls", page)
    assert "has no table with a 'Name' column" in str(caught.value)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        (
            "cr-frome-2026-not-paired.html",
            "this file is chess-results' not paired: it names the players who sat rounds out, not the games; save "
            "the 'Starting rank crosstable' or the 'Ranking crosstable' as Excel instead",
        ),
        (
            "cr-frome-2026-round-1-pairings.html",
            "this file is chess-results' Pairings/Results: it holds the games of one round only, not the "
            "tournament; save the 'Starting rank crosstable' or the 'Ranking crosstable' as Excel instead",
        ),
    ],
)
def test_it_refuses_pages_without_the_games_naming_the_export_to_save(name, message):
    with pytest.raises(ResultFileError) as refused:
        read_result_file(name, example(name))
    assert [(p.code, p.message) for p in refused.value.problems] == [("no_games", message)]


def test_it_reads_a_page_in_its_own_charset_with_accented_and_cyrillic_names():
    page = (
        example(USSA)
        .decode("utf-8")
        .replace("Brander, Waylon", "Müller, Jörg")
        .replace("Shoba, Lundi", "Šťastný, Ľuboš")
    )
    latin = page.replace("charset=utf-8", "charset=windows-1250").replace("charset=UTF-8", "charset=windows-1250")
    parsed = read_result_file("ussa.xls", latin.encode("windows-1250"))
    assert [(p.family_name, p.given_names) for p in parsed.players[:2]] == [("Müller", "Jörg"), ("Šťastný", "Ľuboš")]
    cyrillic = page.replace("Masinga, Ayanda", "Иванов, Пётр")
    for data in (cyrillic.encode("utf-8"), cyrillic.encode("utf-16")):
        parsed = read_result_file("ussa.htm", data)
        assert (parsed.player(3).family_name, parsed.player(3).given_names) == ("Иванов", "Пётр")
        assert len(parsed.games) == 36


def test_it_reads_the_header_block_inside_the_table_of_an_excel_download():
    # chess-results' old "Excel" export: one HTML table, the header lines in its first rows.
    lines = [
        ["Chess-Results Server Chess-results.com"],
        ["Club Championship 2026"],
        ["Chief Arbiter :", "IA Ivanova, Olga"],
        ["Starting rank crosstable"],
        ["No.", "Name", "Rtg", "1.Rd", "2.Rd", "3.Rd", "Pts."],
        ["1", "Kovács, Péter", "2100", "4w1", "2b½", "3w1", "2,5"],
        ["2", "Иванов, Пётр", "2000", "3b0", "1w½", "4b1", "1,5"],
        ["3", "Smith, Anna", "1900", "2w1", "4b½", "1b0", "1,5"],
        ["4", "Lee, Tom", "1800", "1b0", "3w½", "2w0", "0,5"],
    ]
    rows = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in line) + "</tr>" for line in lines)
    data = f"<html><head><meta charset='utf-8'></head><body><table>{rows}</table></body></html>".encode()
    parsed = read_result_file("club.xls", data)
    assert (parsed.format, parsed.view, parsed.name) == ("html", "starting-rank crosstable", "Club Championship 2026")
    assert parsed.chief_arbiter == "IA Ivanova, Olga"
    assert not parsed.problems and len(parsed.games) == 6
    assert [(p.family_name, p.given_names) for p in parsed.players[:2]] == [("Kovács", "Péter"), ("Иванов", "Пётр")]
    assert earned(parsed) == {p.start_number: p.points for p in parsed.players}


def test_it_keeps_the_rows_of_a_layout_table_apart_from_the_tables_inside_it():
    crosstable = (
        "<table><tr><th>No.</th><th>Name</th><th>1.Rd</th><th>Pts.</th></tr>"
        "<tr><td>1</td><td>Kovács, Péter</td><td>2w1</td><td>1</td></tr>"
        "<tr><td>2</td><td>Lee, Tom</td><td>1b0</td><td>0</td></tr></table>"
    )
    details = "<table><tr><td>Chief Arbiter</td><td>IA Ivanova, Olga</td></tr></table>"
    page = f"<html><body><h2>Cup</h2><table><tr><td>{details}</td><td>{crosstable}</td></tr></table></body></html>"
    parsed = read_result_file("cup.html", page.encode())
    assert (parsed.name, parsed.chief_arbiter, len(parsed.players)) == ("Cup", "IA Ivanova, Olga", 2)
    assert [(g.white, g.black, g.result) for g in parsed.games] == [(1, 2, "1-0")]


@pytest.mark.django_db
def test_it_stores_an_uploaded_page_as_html_with_its_preview(django_user_model):
    from django.contrib.auth.models import Group

    from tournaments import services
    from tournaments.models import Upload

    arbiter = django_user_model.objects.create_user("arbiter", password="x")
    arbiter.groups.add(Group.objects.get(name="Arbiters"))
    upload = services.upload_create(user=arbiter, file_name="vega-crosstable.xls", data=example(VEGA))
    upload.full_clean()  # "html" is one of the formats an upload may have
    assert Upload.objects.get(pk=upload.pk).format == "html"
    assert upload.preview["file"]["name"] == "2025 Hobsons Bay Chess Club Best in The West"
    assert len(upload.preview["file"]["players"]) == 106
