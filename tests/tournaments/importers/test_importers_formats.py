"""Every form real exports take, and every bad input, each named by its place in the file."""

import datetime
import io
import zipfile
from decimal import Decimal

import pytest

from tests.tournaments.files import trf, trf_player, xlsx
from tournaments.importers.base import ResultFileError
from tournaments.importers.dates import parse_date
from tournaments.importers.registry import read_result_file, sniff


def codes(parsed):
    return [p.code for p in parsed.problems]


# --- Dates ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2005/07/28", (datetime.date(2005, 7, 28), "day")),
        ("2005.07.28", (datetime.date(2005, 7, 28), "day")),
        ("2005-07-28", (datetime.date(2005, 7, 28), "day")),
        ("28.07.2005", (datetime.date(2005, 7, 28), "day")),
        ("28. 07. 2005", (datetime.date(2005, 7, 28), "day")),
        ("28/07/2005", (datetime.date(2005, 7, 28), "day")),
        ("1969.12.06", (datetime.date(1969, 12, 6), "day")),
        ("19691206", (datetime.date(1969, 12, 6), "day")),
        ("1969", (datetime.date(1969, 7, 1), "year")),
        ("1969/00/00", (datetime.date(1969, 7, 1), "year")),
        ("0000/00/00", (None, "unknown")),
        ("", (None, "unknown")),
        ("2005/02/30", (None, "unknown")),
        ("sometime", (None, "unknown")),
    ],
)
def test_it_reads_dates_as_real_files_write_them(text, expected):
    assert parse_date(text) == expected


def test_it_reads_two_digit_years_in_the_order_asked():
    assert parse_date("25/09/01", two_digit_order="ymd") == (datetime.date(2025, 9, 1), "day")
    assert parse_date("01.09.25") == (datetime.date(2025, 9, 1), "day")


# --- TRF --------------------------------------------------------------------------------------


def four_player_trf(newline="\n", extra_header=(), rounds=None):
    rounds = rounds or {
        1: [(3, "w", "1"), (2, "b", "=")],
        2: [(4, "b", "+"), (1, "w", "=")],
        3: [(1, "b", "0"), (4, "w", "W")],
        4: [(2, "w", "-"), (3, "b", "L")],
    }
    lines = [
        trf_player(1, "Ivanov,Petr", 1800, "RUS", 24100018, "2010/05/17", "1.5", 1, rounds[1], sex="m"),
        trf_player(2, "Petrova,Anna", 1700, "RUS", "", "2011", "1.5", 2, rounds[2], sex="w", title="WCM"),
        trf_player(3, "Sidorov,Oleg", "", "", "", "", "1.0", 3, rounds[3]),
        trf_player(4, "Orlov,Ivan", "", "", "", "", "0.0", 4, rounds[4]),
    ]
    header = ["012 Test Cup", "022 Kazan", "042 2026/03/01", "052 2026/03/02", *extra_header]
    return trf(lines, newline, header)


def test_it_reads_played_forfeit_and_short_games_with_colours():
    parsed = read_result_file("cup.trf", four_player_trf())
    games = {(g.round, g.white, g.black): (g.result, g.kind) for g in parsed.games}
    assert games == {
        (1, 1, 3): ("1-0", "played"),
        (1, 4, 2): ("0-1", "forfeit"),  # 2 won by forfeit with black
        (2, 2, 1): ("1/2-1/2", "played"),
        (2, 3, 4): ("1-0", "short"),  # W/L: played under one move, not rated
    }
    assert not parsed.errors
    anna = parsed.player(2)
    assert (anna.sex, anna.title, anna.birth_date, anna.birth_precision) == (
        "F",
        "WCM",
        datetime.date(2011, 7, 1),
        "year",
    )
    assert parsed.player(1).sex == "M"


@pytest.mark.parametrize("newline", ["\r", "\r\n", "\n"])
def test_it_reads_any_line_ending_including_cr_alone(newline):
    parsed = read_result_file("cup.trf", four_player_trf(newline))
    assert len(parsed.players) == 4
    assert parsed.name == "Test Cup"
    assert len(parsed.games) == 4


def test_it_reads_all_bye_codes():
    cells = {
        1: [(2, "w", "1"), ("0000", "-", "H"), ("0000", "-", "F")],
        2: [(1, "b", "0"), ("0000", "-", "U"), ("0000", "-", "Z")],
        3: [("0000", "-", ""), (4, "w", "D"), (4, "b", "=")],
        4: [("", "", ""), (3, "b", "D"), (3, "w", "=")],
    }
    lines = [trf_player(n, f"Player{n},A", rounds=cells[n]) for n in range(1, 5)]
    parsed = read_result_file("byes.trf", trf(lines))
    byes = {(g.round, g.white): (g.kind, g.result) for g in parsed.games if g.black is None}
    assert byes == {
        (2, 1): ("half_bye", "1/2-1/2"),
        (3, 1): ("bye", "1-0"),
        (2, 2): ("bye", "1-0"),  # U: pairing-allocated bye
        (3, 2): ("unplayed", "0-0"),  # Z
        (1, 3): ("unplayed", "0-0"),  # a blank result is Z
    }
    played = {(g.round, g.white, g.black): (g.result, g.kind) for g in parsed.games if g.black is not None}
    assert played == {
        (1, 1, 2): ("1-0", "played"),
        (2, 3, 4): ("1/2-1/2", "short"),
        (3, 4, 3): ("1/2-1/2", "played"),
    }
    assert not parsed.errors


def test_it_reads_trf26_round_dates_bye_records_and_round_count():
    dates = "132" + " " * 88 + "26/03/01  26/03/02  26/03/03"
    cells = {
        1: [(2, "w", "1"), (3, "w", "=")],
        2: [(1, "b", "0")],
        3: [(4, "w", "0"), (1, "b", "=")],
        4: [(3, "b", "1")],
    }
    lines = [trf_player(n, f"Player{n},A", rounds=cells[n]) for n in range(1, 5)]
    # Round 2: 2 and 4 had half-point byes; the record also names 1, whose line shows a game.
    byes = "240 H 002  001  002  004"
    header = ["012 TRF26 Cup", "042 2026/03/01", "052 2026/03/03", "142 3", dates, byes]
    parsed = read_result_file("new.trf", trf(lines, header=header))
    assert parsed.view == "TRF26"
    assert parsed.rounds == 3
    assert parsed.round_dates == {
        1: datetime.date(2026, 3, 1),
        2: datetime.date(2026, 3, 2),
        3: datetime.date(2026, 3, 3),
    }
    half_byes = sorted(g.white for g in parsed.games if g.kind == "half_bye")
    assert half_byes == [2, 4]
    assert codes(parsed).count("bye_conflict") == 1
    assert "line 6" in next(str(p) for p in parsed.problems if p.code == "bye_conflict")


def test_it_names_line_and_columns_of_a_bad_trf_field():
    lines = [trf_player(1, "Ivanov,Petr", "18x0"), trf_player(2, "Petrov,Ivan")]
    parsed = read_result_file("bad.trf", trf(lines))
    assert str(parsed.errors[0]) == "bad.trf, line 5, column 49-52: the rating '18x0' is not a number"


def test_it_refuses_duplicate_start_numbers_in_trf():
    lines = [trf_player(1, "Ivanov,Petr"), trf_player(1, "Petrov,Ivan")]
    parsed = read_result_file("dup.trf", trf(lines))
    assert codes(parsed) == ["duplicate_start_number"]
    assert "line 6" in str(parsed.errors[0]) and "line 5" in str(parsed.errors[0])


def test_it_refuses_inconsistent_pairings():
    # 1 says he played 2 in round 1; 2 says he played 3.
    lines = [
        trf_player(1, "A,A", rounds=[(2, "w", "1")]),
        trf_player(2, "B,B", rounds=[(3, "b", "0")]),
        trf_player(3, "C,C", rounds=[(2, "w", "1")]),
    ]
    parsed = read_result_file("bad.trf", trf(lines))
    assert "inconsistent_pairing" in codes(parsed)
    message = next(str(p) for p in parsed.errors if p.code == "inconsistent_pairing")
    assert message.startswith("bad.trf, line 5, column 92-99, round 1: player 1 played 2")
    assert "opponent 3" in message


def test_it_refuses_impossible_results():
    lines = [trf_player(1, "A,A", rounds=[(2, "w", "1")]), trf_player(2, "B,B", rounds=[(1, "b", "1")])]
    parsed = read_result_file("bad.trf", trf(lines))
    assert codes(parsed)[0] == "impossible_result"
    assert "1 scored '1' and 2 scored '1'" in str(parsed.errors[0])


def test_it_warns_when_points_differ_colours_are_missing_or_pairs_repeat():
    lines = [
        trf_player(1, "A,A", points="2.0", rounds=[(2, "w", "1"), (2, "-", "=")]),
        trf_player(2, "B,B", points="0.5", rounds=[(1, "b", "0"), (1, "-", "=")]),
        trf_player(3, "C,C", rounds=[(4, "w", "1"), (4, "b", "0")]),
        trf_player(4, "D,D", rounds=[(3, "b", "0"), (3, "w", "1")]),
        trf_player(5, "E,E"),
    ]
    parsed = read_result_file("warn.trf", trf(lines))
    found = codes(parsed)
    assert "points_differ" in found  # A has 2.0 in the file, 1.5 from the games
    assert "colour_missing" in found
    assert "repeated_pairing" in found  # a Swiss (5 players, 2 rounds): A and B met twice
    assert "no_played_game" in found  # E
    assert not parsed.errors


def test_it_refuses_a_trf_with_no_player_lines():
    with pytest.raises(ResultFileError, match="no player lines"):
        read_result_file("empty.trf", trf([], header=["012 Nothing", "022 Nowhere"]))


# --- chess-results spreadsheets ---------------------------------------------------------------


def russian_starting_rank_crosstable():
    return [
        ["Турнирная база данных Chess-Results http://chess-results.com"],
        ["Первенство Казани до 10 лет"],
        ["Главный судья : Иванова Анна"],
        ["Количество туров : 3"],
        ["Дата : 2026/03/01 по 2026/03/03"],
        ["Последнее обновление 03.03.2026 18:00:00"],
        ["Таблица по стартовым номерам"],
        ["Ст.ном.", None, "Имя", "Рейт.", "ФЕД.", "Клуб/Город", "1.тур", "2.тур", "3.тур", "Очки", "Место"],
        [1, None, "Смирнов  Пётр ", 1450, "RUS", "Казань", "3w1", "2b½", -1, "2½", 1],
        [2, None, "Козлова  Мария ", 1320, "RUS", "Казань", "4b1", "1w½", "3w", "1,5", 2],
        [3, None, "Орлов  Иван ", None, "RUS", "Казань", "1b0", 0, "2b", 0, 3],
        [4, None, "Павлов  Олег ", None, "RUS", "Казань", "2w0", "   -½", "-0", "½", 4],
        [],
        ["Примечание: партия 2 - 3 в 3-м туре не доиграна"],
    ]


def test_it_reads_a_russian_starting_rank_crosstable_with_header_and_annotation():
    parsed = read_result_file("kazan.xlsx", xlsx(russian_starting_rank_crosstable()))
    assert parsed.view == "starting-rank crosstable"
    assert parsed.name == "Первенство Казани до 10 лет"
    assert parsed.chief_arbiter == "Иванова Анна"
    assert (parsed.start_date, parsed.end_date, parsed.rounds) == (
        datetime.date(2026, 3, 1),
        datetime.date(2026, 3, 3),
        3,
    )
    petr = parsed.player(1)
    assert (petr.family_name, petr.given_names, petr.rating, petr.club, petr.points) == (
        "Смирнов",
        "Пётр",
        1450,
        "Казань",
        Decimal("2.5"),
    )
    games = {(g.round, g.white, g.black): (g.result, g.kind) for g in parsed.games}
    assert games[(1, 1, 3)] == ("1-0", "played")
    assert games[(1, 4, 2)] == ("0-1", "played")
    assert games[(2, 2, 1)] == ("1/2-1/2", "played")
    assert games[(3, 1, None)] == ("1-0", "bye")  # the number -1
    assert games[(2, 3, None)] == ("0-0", "unplayed")  # the number 0
    assert games[(2, 4, None)] == ("1/2-1/2", "half_bye")  # '   -½'
    assert games[(3, 4, None)] == ("0-0", "unplayed")  # '-0'
    # Round 3, 2 - 3 has no result yet: left out with a warning.
    assert "unfinished" in codes(parsed)
    assert not parsed.errors


def test_it_reads_a_ranking_crosstable_by_row_position_with_tied_ranks():
    rows = [
        ["Rk.", None, None, "Name", "Rtg", "FED", "SNo", "1.Rd", "2.Rd", "Pts. "],
        [1, None, "IM", "Alpha  Ann ", 2300, "GER", 3, "3w1", "2b1", 2],
        [None, None, None, "Beta  Bob ", 2200, "GER", 1, "4w1", "1w0", 1],  # tied: rank blank
        [3, None, None, "Gamma  Gus ", 2100, "GER", 4, "1b0", "4b1", 1],
        [4, None, None, "Delta  Dan ", 2000, "GER", 2, "2b0", "3w0", 0],
    ]
    parsed = read_result_file("ranking.xlsx", xlsx(rows))
    assert parsed.view == "ranking crosstable"
    # Cells refer to row positions; games use start numbers.
    beta, alpha = parsed.player(1), parsed.player(3)
    assert (alpha.family_name, alpha.title, alpha.rank) == ("Alpha", "IM", 1)
    assert (beta.family_name, beta.rank) == ("Beta", 1)
    games = {(g.round, g.white, g.black): g.result for g in parsed.games}
    assert games[(1, 3, 4)] == "1-0"  # Alpha (start 3) beat Gamma (start 4) with white
    assert games[(2, 1, 3)] == "0-1"  # Beta (white) lost to Alpha
    assert not parsed.problems


@pytest.mark.parametrize(
    ("headers", "colour"),
    [
        (["Snr", "Name", "Elo", "Land", "Verein/Ort", "1.Runde", "2.Runde", "Pkt."], "s"),
        (["No.", "Nome", "Rtg", "FED", "Clube/Cidade", "1.Rodada", "2.Rodada", "Pts."], "b"),
        (["No.", "Name", "Rtg", "FED", "Club/City", "1.Rd", "2.Rd", "Pts."], "b"),
    ],
)
def test_it_matches_german_portuguese_and_english_headers(headers, colour):
    rows = [
        headers,
        [1, "Adler  Anna ", 1900, "GER", "SC A", "2w1", f"3{colour}½", "1,5"],
        [2, "Bauer  Ben ", 1800, "GER", "SC B", f"1{colour}0", "-1", 1],
        [3, "Cohn  Carl ", 1700, "GER", "SC C", -1, "1w½", 1.5],
    ]
    parsed = read_result_file("cup.xlsx", xlsx(rows))
    assert [p.club for p in parsed.players] == ["SC A", "SC B", "SC C"]
    games = {(g.round, g.white, g.black): (g.result, g.kind) for g in parsed.games}
    assert games[(1, 1, 2)] == ("1-0", "played")
    assert games[(2, 3, 1)] == ("1/2-1/2", "played")
    assert not parsed.problems


def test_it_reads_forfeit_cells():
    rows = [["No.", "Name", "1.Rd"], [1, "A  A ", "2b+"], [2, "B  B ", "1w-"]]
    parsed = read_result_file("f.xlsx", xlsx(rows))
    assert [(g.white, g.black, g.result, g.kind) for g in parsed.games] == [(2, 1, "0-1", "forfeit")]


def test_it_names_the_cell_it_cannot_read():
    rows = [["No.", "Name", "1.Rd"], [1, "A  A ", "2x1"], [2, "B  B ", "1w0"]]
    parsed = read_result_file("bad.xlsx", xlsx(rows))
    assert str(parsed.errors[0]) == "bad.xlsx, sheet 'Sheet1', row 2, column C, round 1: the cell '2x1' cannot be read"


def test_it_refuses_duplicate_start_numbers_in_a_crosstable():
    rows = [["No.", "Name", "1.Rd"], [1, "A  A ", "2w1"], [1, "B  B ", "1b0"]]
    parsed = read_result_file("dup.xlsx", xlsx(rows))
    assert "duplicate_start_number" in codes(parsed)
    assert "row 3" in str(parsed.errors[0])


def test_it_reads_a_starting_rank_list_with_fide_ids_and_birth_years():
    rows = [
        ["Starting rank"],
        ["No.", "Name", "FideID", "FED", "Rtg", "B-day", "Club/City", "sex"],
        [1, "Karjakin  Sergey ", 14109603, "FID", 2750, 1990, "Moscow", None],
        [2, "Goryachkina  Aleksandra ", 4147103.0, "FID", 2550, "1998/09/28", "Moscow", "w"],
    ]
    parsed = read_result_file("list.xlsx", xlsx(rows))
    assert parsed.content == "player_list"
    sergey, sasha = parsed.players
    assert (sergey.fide_id, sergey.birth_date, sergey.birth_precision) == (14109603, datetime.date(1990, 7, 1), "year")
    assert (sasha.fide_id, sasha.birth_date, sasha.sex) == (4147103, datetime.date(1998, 9, 28), "F")


# --- Bad files ----------------------------------------------------------------------------------


def refusal(name, data):
    with pytest.raises(ResultFileError) as caught:
        read_result_file(name, data)
    return caught.value.problems


def test_it_refuses_another_file_type_renamed_to_xlsx():
    png = b"\x89PNG\r\n\x1a\n" + b"\0" * 100
    problems = refusal("results.xlsx", png)
    assert str(problems[0]) == "results.xlsx: this is a PNG image, not a result file"
    assert refusal("results.xlsx", b"%PDF-1.7 ...")[0].message == "this is a PDF document, not a result file"
    assert "web page" in refusal("results.xls", b"<html><table><tr><td>1</td></tr></table></html>")[0].message
    assert "not a result file" in refusal("results.xlsx", b"just some words\nand more")[0].message


def test_it_takes_the_type_from_the_content_not_the_name():
    data = four_player_trf()
    assert sniff(data) == "trf"
    assert read_result_file("renamed.xlsx", data).format == "trf"


def test_it_refuses_a_truncated_or_corrupt_xlsx():
    data = xlsx([["No.", "Name", "1.Rd"], [1, "A  A ", "2w1"]])
    problems = refusal("cut.xlsx", data[: len(data) // 2])
    assert problems[0].code == "damaged"
    assert "cut.xlsx: the file is damaged or incomplete" in str(problems[0])
    corrupt = bytearray(data)
    corrupt[200:260] = b"\0" * 60
    assert refusal("corrupt.xlsx", bytes(corrupt))[0].code == "damaged"


def test_it_refuses_a_zip_bomb():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr("xl/workbook.xml", "<workbook/>")
        archive.writestr("xl/worksheets/sheet1.xml", b"\0" * (80 * 1024 * 1024))
    data = buffer.getvalue()
    assert len(data) < 200 * 1024
    problems = refusal("bomb.xlsx", data)
    assert problems[0].code == "zip_bomb"
    assert "refused as unsafe" in problems[0].message


def test_it_refuses_a_zip_that_is_not_a_workbook():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("readme.txt", "hello")
    assert refusal("other.xlsx", buffer.getvalue())[0].code == "not_xlsx"


def test_it_refuses_formulas_naming_each_cell():
    data = xlsx([["No.", "Name", "Pts."], [1, "A  A ", "=1+1"], [2, "B  B ", "=SUM(C2:C2)"]])
    problems = refusal("formulas.xlsx", data)
    assert [str(p) for p in problems] == [
        "formulas.xlsx, sheet 'Sheet1', row 2, column C: the cell holds a formula (=1+1); export the results as values",
        "formulas.xlsx, sheet 'Sheet1', row 3, column C: the cell holds a formula (=SUM(C2:C2)); "
        "export the results as values",
    ]


def test_it_refuses_an_empty_sheet_and_a_sheet_without_a_table():
    assert str(refusal("empty.xlsx", xlsx([]))[0]) == "empty.xlsx, sheet 'Sheet1': the sheet is empty"
    problems = refusal("notable.xlsx", xlsx([["Shopping list"], ["milk", "bread"]]))
    assert problems[0].code == "no_table"


def test_it_refuses_a_crosstable_referencing_missing_opponents():
    rows = [["No.", "Name", "1.Rd"], [1, "A  A ", "7w1"], [2, "B  B ", "1b0"]]
    parsed = read_result_file("missing.xlsx", xlsx(rows))
    assert str(parsed.errors[0]) == (
        "missing.xlsx, sheet 'Sheet1', row 2, column C, round 1: "
        "the opponent at start number 7 is not in the table (it has 2 players)"
    )


def test_it_refuses_an_empty_file_and_a_broken_xls():
    assert refusal("empty.trf", b"")[0].message == "the file is empty"
    broken = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x01" * 600
    assert refusal("broken.xls", broken)[0].code == "damaged"


def test_it_refuses_a_pgn_game_without_players_and_warns_on_unfinished_games():
    data = (
        b'[Event "Club"]\n[Round "1.1"]\n[White "A, A"]\n[Black "B, B"]\n[Result "*"]\n\n*\n\n'
        b'[Event "Club"]\n[Round "2"]\n[White "?"]\n[Black "B, B"]\n[Result "1-0"]\n\n1-0\n'
    )
    parsed = read_result_file("club.pgn", data)
    assert codes(parsed) == ["unfinished", "no_name"]
    assert str(parsed.errors[0]) == "club.pgn, line 9, game 2: the White tag is empty"


def test_it_refuses_a_crosstable_whose_rows_disagree():
    # Round 3: A's row says he played B; B's row says he played C.
    rows = [
        ["No.", "Name", "1.Rd", "2.Rd", "3.Rd"],
        [1, "A  A ", "4w1", "3b½", "2w1"],
        [2, "B  B ", "3w0", "4b1", "3b0"],
        [3, "C  C ", "2b1", "1w½", "2w1"],
        [4, "D  D ", "1b0", "2w0", -1],
    ]
    parsed = read_result_file("disagree.xlsx", xlsx(rows))
    problem = next(p for p in parsed.errors if p.code == "inconsistent_pairing")
    assert str(problem).startswith("disagree.xlsx, sheet 'Sheet1', row 2, column E, round 3: player 1 played 2")
    assert "opponent 3" in str(problem)
