"""Issue 26, section 0: for each format, every player field it can carry, and that each is read.

Swiss Perfect and Krause have their own files (test_importers_swissperfect.py, test_importers_krause.py).
Each test names the fields the format carries, the real file of examples/ carrying each one, and writes a
small file in the exact format only where no real example has the field (saying so).
"""

from __future__ import annotations

import datetime
from decimal import Decimal

from tests.tournaments.files import example, trf, trf_player, xlsx
from tournaments.importers.registry import read_result_file

# --- FIDE TRF16 / TRF26 (the 001 line) -------------------------------------------------------------


def test_it_reads_every_field_of_the_trf_player_line_from_the_real_examples():
    """001 line (TRF16 and TRF-2025 keep its columns): start rank 5-8, sex 10, title 11-13, name 15-47
    ("Family,Given"), FIDE rating 49-52, federation 54-56, FIDE id 58-68 (TRF26 allows 11 digits), birth
    date 70-79 (YYYY/MM/DD, YYYY/00/00 for a year only, YYYY.MM.DD), points 81-84, rank 86-89; team
    lines 013 (TRF16) / 310 (TRF26) give the players' team, read as their club."""
    crete = read_result_file("crete.trf", example("trf-crete-team-cup-2024.trf"))
    # "001    1 m    Psarianos,Emmanouil               1442 GRE    42143683 2014/00/00  3.5   34"
    first = crete.player(1)
    assert (first.start_number, first.sex, first.family_name, first.given_names) == (1, "M", "Psarianos", "Emmanouil")
    assert (first.rating, first.country, first.fide_id) == (1442, "GRE", 42143683)
    assert (first.birth_date.year, first.birth_precision) == (2014, "year")
    assert (first.points, first.rank) == (Decimal("3.5"), 34)
    assert first.club == "ΣΑΧ"  # its 013 team line
    grandmommy = read_result_file("gm.trf", example("trf26-grandmommys-cup-2024-team.trf")).player(1)
    assert (grandmommy.fide_id, grandmommy.club) == (70123454321, "India")  # 11 digits; 310 team line
    gros = read_result_file("gros.trf", example("trf-gros-open-2010-unfinished.trf")).player(1)
    assert (gros.title, gros.family_name, gros.rating, gros.country) == ("GM", "Mirzoev", 2527, "AZE")
    karl_mala = read_result_file("karl-mala.trf", example("karl-mala-2005.trf"))
    vasquez = karl_mala.player(1)  # "001    1    g Vasquez,Rodrigo ... 1969.12.06": old one-letter title, dots
    assert (vasquez.title, vasquez.birth_date, vasquez.birth_precision) == ("GM", datetime.date(1969, 12, 6), "day")
    assert karl_mala.player(186).sex == "F"


def test_it_reads_the_trf_fields_no_real_example_carries_together():
    # Written here: a woman's title with sex "f", a full slash birth date, a four-digit year alone.
    data = trf(
        [
            trf_player(
                1, "Ivanova,Anna Petrovna", 2301, "RUS", 4100018, "1990/05/17", "1.0", 1, [(2, "w", "1")], "f", "WGM"
            ),
            trf_player(2, "Petrov,Ivan", 1800, "KAZ", 13700000, "1985", "0.0", 2, [(1, "b", "0")], "m", "FM"),
        ]
    )
    parsed = read_result_file("cup.trf", data)
    assert not parsed.errors
    anna, ivan = parsed.player(1), parsed.player(2)
    assert (anna.family_name, anna.given_names, anna.sex, anna.title) == ("Ivanova", "Anna Petrovna", "F", "WGM")
    assert (anna.rating, anna.country, anna.fide_id) == (2301, "RUS", 4100018)
    assert (anna.birth_date, anna.birth_precision) == (datetime.date(1990, 5, 17), "day")
    assert (anna.points, anna.rank) == (Decimal("1.0"), 1)
    assert (ivan.sex, ivan.title, ivan.birth_date.year, ivan.birth_precision) == ("M", "FM", 1985, "year")


# --- Swiss-Manager's own files (.TUNX, .TURX, .TUMX) -----------------------------------------------


def test_it_reads_every_swiss_manager_player_field_from_the_real_examples():
    """Swiss-Manager keeps per player: name (family, given), title, FIDE id, national id, federation,
    club, birth date (the files seen store the year), sex, FIDE rating and national rating; every one is
    in a real example."""
    passover = read_result_file("p.TUNX", example("sm-passover-rapid-2026.TUNX")).player(1)
    assert (passover.family_name, passover.given_names, passover.title) == ("Givon", "Asaf", "IM")
    assert (passover.fide_id, passover.national_id, passover.country) == (2801841, "16774", "ISR")
    assert (passover.rating, passover.national_rating) == (2405, 2402)
    assert passover.club == "מועדון השחמט כפר סבא"
    assert (passover.birth_date.year, passover.birth_precision, passover.sex) == (1994, "year", "M")
    feldkirch = read_result_file("f.TUNX", example("sm-feldkirch-club-2025.TUNX")).player(1)
    assert (feldkirch.national_id, feldkirch.club, feldkirch.national_rating) == ("105733", "Frastanz", 1716)
    round_robin = read_result_file("r.TURX", example("sm-round-robin-6.TURX")).player(1)
    assert (round_robin.national_id, round_robin.club, round_robin.country) == ("3741", "Jtc", "BRA")
    team = read_result_file("t.TUMX", example("sm-team-swiss-93.TUMX")).player(1)
    assert (team.title, team.national_rating, team.club, team.birth_date.year) == ("IM", 2496, "Aflux", 1955)
    women = read_result_file("w.TUNX", example("sm-sesc-women-2026-unfinished.TUNX"))
    assert {player.sex for player in women.players} <= {"M", "F"} and women.player(1).sex


# --- chess-results (HTML pages and xlsx/xls downloads) ----------------------------------------------


def test_it_reads_every_chess_results_column_of_the_real_examples():
    """Columns chess-results shows: No./SNo, Rk., Title, Name, FideID, ID (national), Rtg/RtgI/Elo,
    RtgN/DWZ, FED, Club/City, B-day/Birth, sex (Typ shows it only in some views), Pts; in English, German,
    Portuguese, Russian, Spanish."""
    keshmat = read_result_file("k.xlsx", example("cr-keshmat-rapid-2024-12-ranking-crosstable.xlsx")).player(1)
    assert (keshmat.family_name, keshmat.given_names, keshmat.title) == ("Arkadan", "Adib", "CM")
    assert (keshmat.rating, keshmat.country, keshmat.points, keshmat.rank) == (2274, "LBN", Decimal(7), 1)
    portimao = read_result_file("p.html", example("cr-portimao-2026-final-ranking-pt.html"))  # Portuguese
    assert portimao.player(2).club == "A.Xat - Montemor O Novo"
    assert portimao.player(12).sex == "F"
    british = read_result_file("b.html", example("cr-british-2026-r9-unplayed.html")).player(1)
    assert (british.rating, british.country, british.title) == (2597, "ENG", "GM")
    aicf = read_result_file("a.xls", example("aicf-starting-rank.xls")).player(1)  # legacy .xls
    assert (aicf.fide_id, aicf.rating, aicf.country) == (5009197, 2017, "IND")


HEADERS = {
    "en": ["Rk.", "SNo", "Name", "Title", "FideID", "ID", "Rtg", "RtgN", "FED", "Club/City", "B-day", "sex", "Pts."],
    "de": ["Rang", "Snr", "Name", "Titel", "FIDE-Nr", "ID", "Elo", "DWZ", "Land", "Verein/Ort", "Jg", "Geschl", "Pkt."],
    "ru": [
        "Место",
        "Ст.ном",
        "Имя",
        "Титул",
        "ФИДЕ ID",
        "ИД",
        "Рейт",
        "Нрт",
        "Фед",
        "Клуб/Город",
        "Г.р.",
        "Пол",
        "Очки",
    ],
}


def test_it_reads_the_chess_results_columns_no_real_example_carries():
    # Written here: no real example shows FideID, the national ID and rating, birth and sex together.
    for language, header in HEADERS.items():
        rows = [
            [*header[:-1], "1.Rd", header[-1]],
            [1, 1, "Ivanova, Anna", "WGM", 4100018, 24112, 2301, 2290, "RUS", "Kazan", 1990, "w", "2b1", 1],
            [2, 2, "Petrov, Ivan", "FM", 13700000, 55001, 1800, 1850, "KAZ", "Almaty", 1985, "m", "1w0", 0],
        ]
        parsed = read_result_file(f"{language}.xlsx", xlsx(rows))
        assert not parsed.errors, (language, [str(e) for e in parsed.errors])
        anna = parsed.player(1)
        assert (anna.family_name, anna.given_names, anna.title, anna.fide_id) == ("Ivanova", "Anna", "WGM", 4100018)
        assert (anna.national_id, anna.rating, anna.national_rating) == ("24112", 2301, 2290), language
        assert (anna.country, anna.club, anna.sex, anna.birth_date.year) == ("RUS", "Kazan", "F", 1990), language
        assert (anna.points, anna.rank) == (Decimal(1), 1)
        assert parsed.player(2).sex == "M"


# --- Vega HTML ---------------------------------------------------------------------------------------


def test_it_reads_every_vega_column_of_the_real_examples():
    """Vega's crosstables and standings show: N/# (start number), name, title, rating, federation (or the
    state), sex (crosstable's M/F column in some templates), points, position."""
    crosstable = read_result_file("v.html", example("vega-best-in-the-west-2025-crosstable.html")).player(1)
    assert (crosstable.family_name, crosstable.given_names, crosstable.title) == ("Morris", "James", "IM")
    assert (crosstable.rating, crosstable.country, crosstable.sex, crosstable.points) == (2554, "VIC", "M", Decimal(5))
    standings = read_result_file("v.html", example("vega-best-in-the-west-2025-standings.html")).player(1)
    assert (standings.rank, standings.title, standings.rating) == (1, "IM", 2554)
    robin = read_result_file("v.html", example("vega-bob-grieves-blitz-2024-double-round-robin.html")).player(6)
    assert (robin.family_name, robin.rating, robin.rank, robin.points) == ("Parker", 765, 1, Decimal(13))


# --- PGN -----------------------------------------------------------------------------------------------


def test_it_reads_every_pgn_player_tag_of_the_real_example():
    """Tags with player data: White/Black (name), WhiteElo, WhiteFideId, WhiteTitle, WhiteTeam (a federation
    code in FIDE's broadcasts, a club elsewhere), WhiteTeamCountry (ChessBase)."""
    caruana = read_result_file("g.pgn", example("fide-grand-swiss-2021.pgn")).player(1)
    assert (caruana.family_name, caruana.given_names, caruana.title) == ("Caruana", "Fabiano", "GM")
    assert (caruana.fide_id, caruana.rating) == (2020009, 2800)


def test_it_reads_the_pgn_team_tags_no_real_example_carries():
    # Written here: the real example has no team tags. WhiteTeam was dropped unless 3 letters long.
    game = (
        '[Event "League"]\n[Round "1"]\n[White "Ivanov, Petr"]\n[Black "Petrov, Ivan"]\n[Result "1-0"]\n'
        '[WhiteTeam "NOR"]\n[BlackTeam "Kazan Chess Club"]\n[BlackTeamCountry "RUS"]\n\n1. e4 e5 1-0\n'
    )
    parsed = read_result_file("league.pgn", game.encode())
    ivanov, petrov = parsed.player(1), parsed.player(2)
    assert (ivanov.country, ivanov.club) == ("NOR", "")
    assert (petrov.club, petrov.country) == ("Kazan Chess Club", "RUS")
