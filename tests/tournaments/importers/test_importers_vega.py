"""Vega's standings page and its round-robin crosstable of a double round robin (real pages of
examples/, used as they are), and double round robins in chess-results' round-robin layout."""

import re
from collections import Counter
from decimal import Decimal

import lxml.html
import pytest

from tests.tournaments.files import earned, example
from tournaments.importers.base import PLAYED, PLAYER_LIST, RESULTS
from tournaments.importers.registry import read_result_file, sniff

STANDINGS = "vega-best-in-the-west-2025-standings.html"
CROSSTABLE = "vega-best-in-the-west-2025-crosstable.html"
DOUBLE = "vega-bob-grieves-blitz-2024-double-round-robin.html"


def read(name: str):
    return read_result_file(name, example(name))


def page_rows(name: str) -> list[list[str]]:
    """The texts of the cells of the page's table body (not its legend), row by row, straight from the page."""
    document = lxml.html.document_fromstring(example(name))
    table = document.xpath("//table")[0]
    return [
        [re.sub(r"\s+", " ", td.text_content()).strip() for td in tr.xpath("td")] for tr in table.xpath("tbody/tr[td]")
    ]


def test_it_sniffs_the_vega_pages_as_html():
    assert sniff(example(STANDINGS)) == sniff(example(DOUBLE)) == "html"


def test_it_reads_the_vega_standings_as_players_and_says_which_page_to_save():
    parsed = read(STANDINGS)
    assert parsed.content == PLAYER_LIST and not parsed.games and parsed.rounds == 0
    assert parsed.view == "ranking list" and parsed.details["view title"] == "Standings at round 5 (last round)"
    assert parsed.name == "2025 Hobsons Bay Chess Club Best in The West"
    assert [str(p) for p in parsed.problems] == [
        "vega-best-in-the-west-2025-standings.html: this page is Vega's Standings at round 5 (last round): it holds "
        "no games, so it is read as a list of players only; to import the results, save Vega's 'Cross table' page "
        "(for a round robin, 'Cross table by score') instead"
    ]
    rows = page_rows(STANDINGS)
    assert len(parsed.players) == len(rows) == 106
    # The page's own ranks and points, row by row; the start number stands in the player's cell.
    assert [p.rank for p in parsed.players] == [int(row[0]) for row in rows] == list(range(1, 107))
    assert [p.points for p in parsed.players] == [Decimal(row[5]) for row in rows]
    assert [p.start_number for p in parsed.players] == [int(row[1].split()[0]) for row in rows]
    morris = parsed.player(1)
    assert (morris.family_name, morris.given_names, morris.title, morris.rating, morris.country) == (
        "Morris",
        "James",
        "IM",
        2554,
        "VIC",
    )
    chibnall = parsed.player(17)
    assert (chibnall.family_name, chibnall.title, chibnall.rank) == ("Chibnall", "WFM", 13)


def test_it_finds_the_same_players_and_points_in_the_standings_as_in_the_crosstable_of_the_event():
    standings, crosstable = read(STANDINGS), read(CROSSTABLE)
    by_number = {p.start_number: p for p in crosstable.players}
    assert sorted(by_number) == sorted(p.start_number for p in standings.players)
    for player in standings.players:
        other = by_number[player.start_number]
        assert (player.family_name, player.points) == (other.family_name, other.points), player.display_name
        # The crosstable cuts names to 20 characters ("Annapureddy,Rheyansh"); the standings do not.
        assert player.given_names.startswith(other.given_names), player.display_name


@pytest.fixture(scope="module")
def double():
    return read(DOUBLE)


def test_it_reads_both_cycles_of_the_vega_double_round_robin(double):
    assert double.content == RESULTS and not double.problems
    assert double.name == "Bob Grieves Junior Blitz Cup 2024 Open"
    assert (len(double.players), double.rounds, len(double.games)) == (8, 14, 56)
    assert Counter(g.kind for g in double.games) == {PLAYED: 56}
    assert [str(n) for n in double.notes] == [
        "a round-robin crosstable shows no rounds or colours: they are taken from the FIDE Berger tables by start "
        "number",
        "each pair of players met 2 times: the first result in a cell is taken as the game of rounds 1 to 7, the "
        "next one as the game of the next 7 rounds (the same Berger tables, colours reversed in every second cycle)",
    ]
    # Every player plays once a round; every pair meets twice, once with each colour.
    for rnd in range(1, 15):
        seated = [n for g in double.games if g.round == rnd for n in (g.white, g.black)]
        assert sorted(seated) == list(range(1, 9)), rnd
    meetings = Counter(frozenset((g.white, g.black)) for g in double.games)
    assert len(meetings) == 28 and set(meetings.values()) == {2}
    colours = {(g.white, g.black) for g in double.games}
    assert all((black, white) in colours for white, black in colours)


def test_it_places_the_results_of_the_vega_double_round_robin_in_the_rounds_vega_paired(double):
    games = {(g.round, g.white, g.black): g.result for g in double.games}
    # Vega's pairing pages of the event: round 1 Wei (3) - Parker (6) ½-½, round 8 Parker - Wei 1-0
    # (Parker's cell against Wei is `½1`); round 2 Gopalan (8) - Kukdeja (5) 1-0, round 8 Kukdeja - Karthick (4) 1-0.
    assert games[(1, 3, 6)] == "1/2-1/2" and games[(8, 6, 3)] == "1-0"
    assert games[(2, 8, 5)] == "1-0" and games[(9, 5, 8)] == "0-1"
    assert games[(1, 1, 8)] == "0-1" and games[(8, 8, 1)] == "1-0"
    assert games[(1, 4, 5)] == "1-0" and games[(8, 5, 4)] == "1-0"


def test_it_matches_the_points_and_ranks_of_the_vega_double_round_robin(double):
    rows = page_rows(DOUBLE)
    points = {int(row[1]): Decimal(row[5]) for row in rows}
    assert {p.start_number: p.points for p in double.players} == points
    assert earned(double) == points  # 13 + 10.5 + 10.5 + 10 + 4.5 + 3.5 + 2 + 2 = 56, one a game
    assert [(p.rank, p.family_name) for p in double.players[:3]] == [(1, "Parker"), (2, "Gopalan"), (3, "Nguyen")]


def _round_robin_page(cells: list[list[str]]) -> bytes:
    """A chess-results round-robin crosstable (`*` diagonal) with the given opponent cells."""
    names = ["Kovács, Péter", "Иванов, Пётр", "Smith, Anna", "Lee, Tom"]
    head = "<tr><th>Rk.</th><th>No.</th><th>Name</th>" + "".join(f"<th>{k}</th>" for k in range(1, 5))
    head += "<th>Pts.</th></tr>"
    body = ""
    for number, (name, row) in enumerate(zip(names, cells, strict=True), start=1):
        total = sum(Decimal(r.replace("½", "0.5")) for cell in row for r in re.findall(r"½|1|0", cell))
        body += f"<tr><td>{number}</td><td>{number}</td><td>{name}</td>"
        body += "".join(f"<td>{cell}</td>" for cell in row) + f"<td>{total}</td></tr>"
    title = "<h2>Club Double 2026</h2><h2>Final Ranking crosstable after 6 Rounds</h2>"
    return f"<html><head><meta charset='utf-8'></head><body>{title}<table>{head}{body}</table></body></html>".encode()


def test_it_reads_a_chess_results_double_round_robin_with_two_results_a_cell():
    # Cells as chess-results prints a double round robin: `1 ½`, `10`, `½0`, or one result a line.
    page = _round_robin_page(
        [
            ["*", "1 ½", "10", "1<br>1"],
            ["0 ½", "*", "½0", "11"],
            ["01", "½1", "*", "½ ½"],
            ["0<br>0", "00", "½ ½", "*"],
        ]
    )
    parsed = read_result_file("club-double.html", page)
    assert not parsed.errors and parsed.rounds == 6 and len(parsed.games) == 12
    assert earned(parsed) == {p.start_number: p.points for p in parsed.players}
    assert {p.start_number: p.points for p in parsed.players} == {
        1: Decimal("4.5"),
        2: Decimal("3"),
        3: Decimal("3.5"),
        4: Decimal("1"),
    }
    games = {(g.round, g.white, g.black): g.result for g in parsed.games}
    # Berger round 1 for four players: 1-4, 2-3; round 4 is round 1 with the colours reversed.
    assert games[(1, 1, 4)] == "1-0" and games[(4, 4, 1)] == "0-1"
    assert games[(1, 2, 3)] == "1/2-1/2" and games[(4, 3, 2)] == "1-0"
    assert any("met 2 times" in str(note) for note in parsed.notes)


def test_it_keeps_the_unplayed_second_cycle_of_a_double_round_robin_out():
    # The second cycle has begun: only 1-4 and 2-3 of round 4 have a second result.
    page = _round_robin_page(
        [
            ["*", "1", "1", "1 ½"],
            ["0", "*", "½ 1", "1"],
            ["0", "½ 0", "*", "½"],
            ["0 ½", "0", "½", "*"],
        ]
    )
    parsed = read_result_file("club-double.html", page)
    assert parsed.rounds == 6 and not parsed.errors
    assert sorted(g.round for g in parsed.games if g.kind == PLAYED) == [1, 1, 2, 2, 3, 3, 4, 4]
    assert earned(parsed) == {p.start_number: p.points for p in parsed.players}
    assert any(p.code == "unplayed_rounds" and "round 5, 6" in str(p) for p in parsed.problems)


def test_it_refuses_a_vega_pairings_page_naming_the_page_to_save():
    page = (
        "<html><head><meta name='author' content='www.vegachess.com'><title>Cup</title></head><body>"
        "<table><thead><tr><th>Bo.</th><th>White Player</th><th>Result</th><th>Black Player</th></tr></thead>"
        "<tbody><tr><td>1</td><td>Morris,James</td><td>1 - 0</td><td>Dai,Cheng</td></tr></tbody></table></body></html>"
    )
    with pytest.raises(Exception) as caught:
        read_result_file("pairs1.html", page.encode())
    assert str(caught.value) == "pairs1.html: this Vega page has no crosstable; save Vega's 'Cross Table' page"


def test_it_knows_the_standings_of_vega_s_older_template_by_its_meta_tag():
    page = (
        "<html><head><meta name='Vega' content='Windows'><title>Juniors 2024</title></head><body>"
        "<h3>Standings at round 4</h3><table><tr><th>Pos</th><th>Player</th><th>Pts</th></tr>"
        "<tr><td>1</td><td><span class='idn'>2</span> <a>Lee,Tom</a></td><td>3.5</td></tr>"
        "<tr><td>2</td><td><span class='idn'>1</span> <a>Smith,Anna (W)</a></td><td>3</td></tr></table></body></html>"
    )
    parsed = read_result_file("standings.html", page.encode())
    assert parsed.content == PLAYER_LIST and [p.code for p in parsed.problems] == ["no_games"]
    assert "Vega's Standings at round 4" in str(parsed.problems[0])
    assert [(p.start_number, p.family_name, p.given_names, p.rank, p.points) for p in parsed.players] == [
        (2, "Lee", "Tom", 1, Decimal("3.5")),
        (1, "Smith", "Anna", 2, Decimal("3")),
    ]


def test_it_refuses_a_round_robin_whose_cells_would_make_hundreds_of_rounds():
    many = "1" * 200
    page = _round_robin_page(
        [["*", many, many, many], ["0" * 200, "*", many, many], ["0" * 200] * 2 + ["*", many], ["0" * 200] * 3 + ["*"]]
    )
    with pytest.raises(Exception) as caught:
        read_result_file("club-double.html", page)
    assert "far larger than a tournament can be" in str(caught.value)


# Two Vega Swiss crosstables whose columns differ from the crosstable above: Vega 2025's "Cross table by
# score" (rank order, the player's start number, title and rating in boxes of his cell, opponents named by
# their row) and an older crosstable with no Origin column, whose byes stood where the points were read.
BY_SCORE = "vega-western-swiss-2025-crosstable-by-score.html"
RAPID = "vega-rapid-1-2024-crosstable.html"


def cell_texts(name: str) -> list[list[str]]:
    document = lxml.html.document_fromstring(example(name))
    return [
        [re.sub(r"\s+", " ", td.text_content()).strip() for td in tr.xpath("td")] for tr in document.xpath("//tr[td]")
    ]


def games_on_the_page(rows: list[list[str]], first_round: int) -> int:
    """Every game is printed in both players' rows, a bye in one."""
    cells = [cell for row in rows for cell in row[first_round : first_round + 5] if cell]
    byes = sum("BYE" in cell for cell in cells)
    return byes + (len(cells) - byes) // 2


def game(parsed, rnd: int, number: int):
    return next(g for g in parsed.games if g.round == rnd and number in (g.white, g.black))


def test_it_reads_vega_s_2025_cross_table_by_score_in_rank_order():
    parsed = read(BY_SCORE)
    assert parsed.content == RESULTS and parsed.problems == []
    assert (parsed.name, parsed.view, parsed.rounds) == ("2025 Hobsons Bay Western Swiss", "ranking crosstable", 5)
    rows = cell_texts(BY_SCORE)  # "#" (the rank), the player ("Nowak,Ruben 1 - 1409"), Pts, rounds 1-5, tie-breaks
    boxes = [re.fullmatch(r"(.+) (\d+) (\S+) (\d+)", row[1]).groups() for row in rows]
    assert len(parsed.players) == len(rows) == 16
    assert [p.rank for p in parsed.players] == [int(row[0]) for row in rows] == list(range(1, 17))
    assert [p.start_number for p in parsed.players] == [int(box[1]) for box in boxes]
    assert [p.rating for p in parsed.players] == [int(box[3]) or None for box in boxes]
    assert [f"{p.family_name},{p.given_names}" for p in parsed.players] == [box[0].replace(", ", ",") for box in boxes]
    assert [p.points for p in parsed.players] == [Decimal(row[2]) for row in rows]
    assert earned(parsed) == {p.start_number: p.points for p in parsed.players}
    assert len(parsed.games) == games_on_the_page(rows, 3) == 40
    assert Counter(g.kind for g in parsed.games) == {PLAYED: 30, "forfeit": 6, "half_bye": 3, "bye": 1}
    # Nowak (rank 1) won in round 1 against the row 10 ("110"): Majety, start number 9, not start number 10.
    first = game(parsed, 1, 1)
    assert {first.white, first.black} == {1, 9} and first.points(1) == 1
    # Martin (start 2, rank 5): absent in round 1, "½ BYE" in round 2; Annapureddy (3): "1 BYE" in round 3.
    assert not [g for g in parsed.games if g.round == 1 and 2 in (g.white, g.black)]
    assert (game(parsed, 2, 2).kind, game(parsed, 2, 2).result) == ("half_bye", "1/2-1/2")
    assert (game(parsed, 3, 3).kind, game(parsed, 3, 3).black) == ("bye", None)


def test_it_reads_the_byes_and_withdrawn_players_of_an_older_vega_crosstable():
    parsed = read(RAPID)
    assert parsed.content == RESULTS and parsed.problems == []
    assert (parsed.name, parsed.view, parsed.rounds) == ("Rapid 1 2024", "starting-rank crosstable", 5)
    rows = cell_texts(RAPID)  # the player ("9 Liu,Tina (W)"), Rtg, Fed (a flag), Pts, rounds 1-5
    assert len(parsed.players) == len(rows) == 14
    assert [p.start_number for p in parsed.players] == [int(row[0].split()[0]) for row in rows] == list(range(1, 15))
    assert [p.rating for p in parsed.players] == [int(row[1]) or None for row in rows]
    assert [p.points for p in parsed.players] == [Decimal(row[3]) for row in rows]
    assert earned(parsed) == {p.start_number: p.points for p in parsed.players}
    assert len(parsed.games) == games_on_the_page(rows, 4) == 34
    # "(W)" marks the withdrawn, no part of the name; their rounds after withdrawing are empty: no game.
    assert [(p.family_name, p.given_names) for p in parsed.players[8:10]] == [("Liu", "Tina"), ("Nicdao", "Joseph")]
    assert sorted(g.round for g in parsed.games if 10 in (g.white, g.black)) == [1, 2, 3]
    assert {p.country for p in parsed.players} == {"VIC", "AUS"}
    # Nguyen's "½ BYE" of round 1 is a half-point bye (it was once read as his points); Liu's "1BYE" a bye.
    assert (game(parsed, 1, 4).kind, game(parsed, 4, 9).kind) == ("half_bye", "bye")
    forfeit = game(parsed, 5, 5)
    assert (forfeit.kind, {forfeit.white, forfeit.black}, forfeit.points(13)) == ("forfeit", {5, 13}, 1)


def _old_vega_page(rows: str) -> bytes:
    """Vega's older template (<meta name="Vega">): the title in its own T column, the name under NAME."""
    head = "<tr><th>Pos</th><th>T</th><th>NAME</th><th>Rtg</th><th>Fed</th><th>Pts</th><th>1</th><th>2</th></tr>"
    return (
        "<html><head><meta name='Vega' content='Windows'><title>Club Cup</title></head><body>"
        f"<h2>Club Cup</h2><h4>Cross Table at round 2</h4><table>{head}{rows}</table></body></html>"
    ).encode()


def _old_vega_row(pos: int, start: int, title: str, name: str, points: str, *cells: str) -> str:
    parts = "".join(
        f"<td><div class='res'>{c[0]}</div><div class='{c[1:3]}'>{c[3:]}</div></td>" if c else "<td></td>"
        for c in cells
    )
    return (
        f"<tr><td>{pos}</td><td>{title}</td><td><a href='playercard.html#{start}'>{name}</a></td><td>0</td>"
        f"<td><img src='flag/vic.png' alt='VIC'></td><td class='score'>{points}</td>{parts}</tr>"
    )


def test_it_reads_a_game_vega_shows_lost_by_both_as_no_game_and_says_so():
    # Rank order, opponents by row: row 1 is start number 3, row 4 start number 1. Round 2, rows 3 and 4: 0-0.
    page = _old_vega_page(
        _old_vega_row(1, 3, "CM", "Коваль,Иван", "2", "1cw4", "1cb2")
        + _old_vega_row(2, 2, "", "Smith,Anna", "1", "1cb3", "0cw1")
        + _old_vega_row(3, 4, "", "Lee,Tom", "0", "0cw2", "0cw4")
        + _old_vega_row(4, 1, "", "Brown,Al", "0", "0cb1", "0cb3")
    )
    parsed = read_result_file("club-cup.html", page)
    assert not parsed.errors and parsed.view == "ranking crosstable"
    assert [(p.rank, p.start_number, p.title, p.family_name, p.rating) for p in parsed.players] == [
        (1, 3, "CM", "Коваль", None),
        (2, 2, "", "Smith", None),
        (3, 4, "", "Lee", None),
        (4, 1, "", "Brown", None),
    ]
    assert earned(parsed) == {p.start_number: p.points for p in parsed.players}
    lost = game(parsed, 2, 4)
    assert (lost.white, lost.black, lost.result, lost.kind) == (4, 1, "0-0", "forfeit")
    assert [str(p) for p in parsed.problems] == [
        "club-cup.html, row 4, round 2: Vega shows the game 4 – 1 as lost by both (0-0): it is read as a game not "
        "played, no point for either and not rated"
    ]


def test_it_refuses_vega_s_team_crosstables_naming_what_to_upload():
    head = "<tr><th>N</th><th>Team</th><th colspan='2'>Fed</th><th>Pts</th><th>1</th></tr>"
    row = (
        "<tr><td>1</td><td>HBCC A</td><td>AUS</td><td></td><td class='score'>2</td>"
        "<td><div class='res'>2</div><div class='cw'>2</div></td></tr>"
    )
    page = f"<html><head><meta name='author' content='www.vegaresult.com'></head><body><table>{head}{row}</table>"
    with pytest.raises(Exception) as caught:
        read_result_file("crosstableteam.html", page.encode())
    assert str(caught.value) == (
        "crosstableteam.html: this is Vega's team crosstable: it holds the teams' match points, not the players' "
        "games; upload the tournament's FIDE report (TRF) exported from Vega instead"
    )


def test_it_refuses_a_vega_crosstable_without_headings_as_no_crosstable():
    page = (
        "<html><head><meta name='Vega' content='Windows'></head><body><table><tr><td>1 Smith,Anna</td>"
        "<td><div class='res'>1</div><div class='cw'>2</div></td></tr></table></body></html>"
    )
    with pytest.raises(Exception) as caught:
        read_result_file("cross.html", page.encode())
    assert "no table with a 'Name' column" in str(caught.value)
