"""Every player field each format can carry, read from the real examples (issue 26, section 0).

Swiss Perfect and Krause have their own modules (test_importers_swissperfect.py, test_importers_krause.py).
For each other format: the fields the format carries (its specification or the program's own output), the
example of examples/ that carries each, and the assertion that each reaches the ParsedFile (the preview).
Where no real example carries a field, a small file in the exact format is written here, and the test says so.
"""

import datetime
from decimal import Decimal

from tests.tournaments.files import example, trf, trf_player, xlsx
from tournaments.importers.chessresults import find_columns
from tournaments.importers.registry import read_result_file


def read(name):
    parsed = read_result_file(name, example(name))
    assert not parsed.errors
    return parsed


def fields(player, names):
    return {name: getattr(player, name) for name in names}


# --- FIDE TRF16 and TRF26 (FIDE Handbook C.04 Annex 2): the 001 line and the team and national records ---

TRF_FIELDS = {
    "sex (column 10: m, w)": "sex",
    "title (11-13: g m f c wg wm wf wc, or GM IM ...)": "title",
    "name (15-47: 'Family,Given' or 'Family Given')": "family_name",
    "FIDE rating (49-52)": "rating",
    "federation (54-56)": "country",
    "FIDE id (58-68)": "fide_id",
    "birth date (70-79: YYYY/MM/DD, YYYY.MM.DD, YYYY, YYYY/00/00)": "birth_date",
    "points (81-84)": "points",
    "rank (86-89)": "rank",
    "team (013 in TRF16, 310 in TRF26)": "club",
    "national rating (TRF26 national record, 49-52)": "national_rating",
    "national id (TRF26 national record, 58-68)": "local_id",
}


def test_it_reads_every_player_field_of_trf16():
    # karl-mala-2005.trf: one-letter titles, dates "1969.12.06", "Family,Given".
    vasquez = read("karl-mala-2005.trf").player(1)
    assert fields(vasquez, ["family_name", "given_names", "title", "rating", "country", "fide_id"]) == {
        "family_name": "Vasquez",
        "given_names": "Rodrigo",
        "title": "GM",
        "rating": 2558,
        "country": "CHI",
        "fide_id": 3400042,
    }
    assert (vasquez.birth_date, vasquez.birth_precision, vasquez.points, vasquez.rank) == (
        datetime.date(1969, 12, 6),
        "day",
        Decimal("6.0"),
        4,
    )
    assert {p.sex for p in read("karl-mala-2005.trf").players} == {"", "F"}  # 8 "f" (read as women), else blank
    # trf-gros-open-2010-unfinished.trf: sex "m"/"w", names without a comma, the birth year alone.
    gros = read("trf-gros-open-2010-unfinished.trf")
    hernandez = gros.player(3)
    assert fields(hernandez, ["family_name", "given_names", "sex", "title", "fide_id", "birth_precision"]) == {
        "family_name": "Hernandez",
        "given_names": "Elvis",
        "sex": "M",
        "title": "FM",
        "fide_id": 6400353,
        "birth_precision": "year",
    }
    assert hernandez.birth_date.year == 1981
    assert sum(1 for p in gros.players if p.sex == "F") == 2
    # trf-crete-team-cup-2024.trf: "2014/00/00" is a year; the 013 team records give the clubs.
    crete = read("trf-crete-team-cup-2024.trf")
    psarianos = crete.player(1)
    assert (psarianos.birth_date.year, psarianos.birth_precision, psarianos.club) == (2014, "year", "ΣΑΧ")
    assert all(p.club for p in crete.players)


def test_it_reads_every_player_field_of_trf26_with_its_national_records():
    # trf26-grandmommys-cup-2024-team.trf: the 001 line gives "1987/00/00"; the national record
    # "IND    1   GM Player0001 Test0001   2634 CG  70100010001 1987/07/05" gives the day, the national
    # rating, the national id and the title. Before, the national records were ignored.
    parsed = read("trf26-grandmommys-cup-2024-team.trf")
    first = parsed.player(1)
    assert fields(first, ["fide_id", "rating", "country", "club", "national_rating", "local_id", "title"]) == {
        "fide_id": 70123454321,
        "rating": 2586,
        "country": "IND",
        "club": "India",
        "national_rating": 2634,
        "local_id": "IND 70100010001",
        "title": "GM",
    }
    assert (first.birth_date, first.birth_precision) == (datetime.date(1987, 7, 5), "day")
    # Another federation's id is never taken for this site's federation id.
    assert first.national_id is None
    assert sum(1 for p in parsed.players if p.national_rating) == 15
    # Without a national record the 001 line's year stays.
    assert parsed.player(2).birth_precision == "year"


def test_it_warns_of_a_national_record_for_a_player_not_in_the_file():
    # No real file has one: a small TRF26 file written here.
    data = trf(
        [
            trf_player(1, "Ivanov,Petr", 1800, birth="2010/00/00", rounds=[(2, "w", "1")]),
            trf_player(2, "Petrov,Ivan", rounds=[(1, "b", "0")]),
            "RUS    1 m    Ivanov,Petr                       1750 MOW     4100123 2010/03/04",
            "RUS    9 m    Nobody,Here                       1500 MOW     4100999 2011/01/01",
        ]
    )
    parsed = read_result_file("n.trf", data)
    ivanov = parsed.player(1)
    assert (ivanov.national_rating, ivanov.local_id) == (1750, "RUS 4100123")
    assert (ivanov.birth_date, ivanov.birth_precision) == (datetime.date(2010, 3, 4), "day")
    assert [str(w) for w in parsed.warnings if w.code == "missing_player"] == [
        "n.trf, line 8, column 5-8: a national record (RUS) names start rank '9', which no player line has"
    ]


def test_it_reads_every_player_field_of_krause():
    # krause-bunratty-masters-2011.tab: sex "M"/"F", title "GM", "Family, Given"; no FIDE ids or birth dates.
    parsed = read("krause-bunratty-masters-2011.tab")
    short = parsed.player(1)
    assert fields(short, ["family_name", "given_names", "sex", "title", "rating", "country", "points", "rank"]) == {
        "family_name": "Short",
        "given_names": "Nigel",
        "sex": "M",
        "title": "GM",
        "rating": 2658,
        "country": "ENG",
        "points": Decimal("4.0"),
        "rank": 5,
    }
    assert sum(1 for p in parsed.players if p.sex == "F") == 1


# --- Swiss-Manager's binary files (.TUNX Swiss, .TURX round robin, .TUMX team) ---------------------------

SWISS_MANAGER_FIELDS = [
    "family_name",
    "given_names",
    "title",
    "fide_id",
    "national_id",
    "rating",
    "national_rating",
    "country",
    "club",
    "birth_date",
    "sex",
]


def test_it_reads_every_player_field_of_swiss_manager():
    # sm-passover-rapid-2026.TUNX carries every one of them for its first player.
    givon = read("sm-passover-rapid-2026.TUNX").player(1)
    assert fields(givon, SWISS_MANAGER_FIELDS) == {
        "family_name": "Givon",
        "given_names": "Asaf",
        "title": "IM",
        "fide_id": 2801841,
        "national_id": "16774",
        "rating": 2405,
        "national_rating": 2402,
        "country": "ISR",
        "club": "מועדון השחמט כפר סבא",
        "birth_date": datetime.date(1994, 1, 1),
        "sex": "M",
    }
    assert givon.birth_precision == "year"
    # Women: Swiss-Manager's one "female" mark.
    assert sum(1 for p in read("sm-passover-rapid-2026.TUNX").players if p.sex == "F") == 3
    assert sum(1 for p in read("sm-elllobregat-open-2023.TUNX").players if p.sex == "F") == 15
    # The round robin (.TURX) and the team file (.TUMX): the same fields.
    marcio = read("sm-round-robin-6.TURX").player(1)
    assert (marcio.national_id, marcio.national_rating, marcio.club) == ("3741", 1816, "Jtc")
    assert marcio.birth_date.year == 1964
    carlos = read("sm-team-swiss-93.TUMX").player(1)
    assert (carlos.title, carlos.national_id, carlos.national_rating, carlos.country) == ("IM", "2041", 2496, "BRA")


# --- chess-results: its Excel (xlsx, xls) and HTML pages, in the languages it uses ------------------------

CHESS_RESULTS_HEADINGS = {
    # heading as chess-results writes it -> the field read
    "No.": "start",
    "Nº.Inic.": "start",  # Portuguese (cr-portimao-2026-final-ranking-pt.html); lost before
    "Rk.": "rank",
    "Name": "name",
    "Nome": "name",
    "Фамилия": "family",
    "Отчество": "patronymic",
    "Title": "title",
    "FideID": "fide_id",
    "ID": "national_id",
    "Rtg": "rating",
    "RtgI": "rating",
    "EloI": "rating",  # Portuguese and Spanish: lost before
    "RtgN": "national_rating",
    "EloN": "national_rating",  # lost before
    "FED": "federation",
    "Club/City": "club",
    "Clube/Cidade": "club",
    "Birth": "birth",
    "Год": "birth",
    "sex": "sex",
    "sexo": "sex",
    "Pts.": "points",
}


def test_it_knows_every_column_chess_results_shows():
    found = find_columns(list(CHESS_RESULTS_HEADINGS))
    for heading, key in CHESS_RESULTS_HEADINGS.items():
        assert key in found, heading
    for heading, key in CHESS_RESULTS_HEADINGS.items():
        assert find_columns([heading]).get(key) == 0, heading


def test_it_reads_every_player_field_of_chess_results_pages():
    # Portuguese ranking: Nº.Inic., Nome, sexo, FED, EloI, Clube/Cidade, Pts.; before, the start numbers
    # and the ratings (EloI) were lost.
    portimao = read("cr-portimao-2026-final-ranking-pt.html")
    grigoryan = portimao.player(1)
    assert fields(grigoryan, ["family_name", "given_names", "title", "rating", "country", "club", "rank"]) == {
        "family_name": "GRIGORYAN",
        "given_names": "Karen H.",
        "title": "GM",
        "rating": 2629,
        "country": "ARM",
        "club": "Gd Dias Ferreira",
        "rank": 9,
    }
    assert sum(1 for p in portimao.players if p.rating) == 93
    assert sum(1 for p in portimao.players if p.sex == "F") == 9
    # English crosstable page: the unlabelled title column, Rtg and FED.
    mcshane = read("cr-british-2026-r9-unplayed.html").player(1)
    assert (mcshane.title, mcshane.rating, mcshane.country, mcshane.rank) == ("GM", 2597, "ENG", 4)
    # The Excel downloads: xlsx (ranking crosstable) and xls (starting rank with FideID).
    arkadan = read("cr-keshmat-rapid-2024-12-ranking-crosstable.xlsx").player(1)
    assert (arkadan.title, arkadan.rating, arkadan.country, arkadan.points) == ("CM", 2274, "LBN", Decimal(7))
    aicf = read("aicf-starting-rank.xls").player(1)
    assert (aicf.fide_id, aicf.rating, aicf.country) == (5009197, 2017, "IND")


def test_it_reads_the_columns_no_real_download_here_shows():
    # Written here: the columns of the site's own template and of chess-results' player lists with
    # national data (ID, RtgN, Club/City, Birth, sex), in English and in Russian.
    english = xlsx(
        [
            ["No.", "Name", "Title", "FideID", "ID", "RtgI", "RtgN", "FED", "Club/City", "Birth", "sex"],
            [1, "Ivanov, Petr", "FM", 4100123, "1234", 2301, 2290, "RUS", "Kazan", "2001/05/17", "m"],
            [2, "Petrova, Anna", "", "", "5678", "", 1500, "RUS", "Kazan", 2010, "w"],
        ]
    )
    russian = xlsx(
        [
            [
                "Ст.№",
                "Фамилия",
                "Имя",
                "Отчество",
                "Титул",
                "ФИДЕ ID",
                "ИД",
                "Рейт",
                "Нрт",
                "Фед",
                "Клуб",
                "Год",
                "Пол",
            ],
            [1, "Иванов", "Пётр", "Сергеевич", "FM", 4100123, "1234", 2301, 2290, "RUS", "Казань", 2001, "м"],
        ]
    )
    for name, data in (("en.xlsx", english), ("ru.xlsx", russian)):
        parsed = read_result_file(name, data)
        assert not parsed.errors, [str(e) for e in parsed.errors]
        first = parsed.player(1)
        assert fields(first, ["title", "fide_id", "national_id", "rating", "national_rating", "country"]) == {
            "title": "FM",
            "fide_id": 4100123,
            "national_id": "1234",
            "rating": 2301,
            "national_rating": 2290,
            "country": "RUS",
        }, name
        assert first.club in ("Kazan", "Казань") and first.birth_date.year == 2001, name
    petrova = read_result_file("en.xlsx", english).player(2)
    assert (petrova.sex, petrova.birth_precision, petrova.national_rating) == ("F", "year", 1500)
    ivanov = read_result_file("en.xlsx", english).player(1)
    assert (ivanov.sex, ivanov.birth_date) == ("M", datetime.date(2001, 5, 17))
    assert read_result_file("ru.xlsx", russian).player(1).given_names == "Пётр Сергеевич"


# --- Vega's HTML pages --------------------------------------------------------------------------------------


def test_it_reads_every_player_field_of_vega():
    # The crosstable: No., title, name, sex (the title box's class), Rtg, FED, Pts.
    west = read("vega-best-in-the-west-2025-crosstable.html")
    morris = west.player(1)
    assert fields(morris, ["family_name", "given_names", "title", "sex", "rating", "country", "points"]) == {
        "family_name": "Morris",
        "given_names": "James",
        "title": "IM",
        "sex": "M",
        "rating": 2554,
        "country": "VIC",
        "points": Decimal("5.0"),
    }
    # The standings page adds the rank; its title box's class gives the sex there too (lost before).
    standings = read("vega-best-in-the-west-2025-standings.html")
    assert (standings.player(1).rank, standings.player(1).sex, standings.player(1).title) == (1, "M", "IM")
    assert {p.start_number: p.sex for p in standings.players} == {p.start_number: p.sex for p in west.players}
    # "Origin" (Vega's club or town) is empty in every real page here: the standings with Morris's filled in
    # (before, the column was not known).
    page = example("vega-best-in-the-west-2025-standings.html").replace(
        b'VIC</td><td></td><td class="score"> 5.0', b'VIC</td><td>Box Hill CC</td><td class="score"> 5.0', 1
    )
    assert b"Box Hill CC" in page
    assert read_result_file("standings.html", page).player(1).club == "Box Hill CC"


# --- PGN: the tags that carry player data --------------------------------------------------------------------

PGN_TAGS = {"White": "family_name", "WhiteTitle": "title", "WhiteElo": "rating", "WhiteFideId": "fide_id"}


def test_it_reads_every_player_tag_of_pgn():
    # fide-grand-swiss-2021.pgn carries White/Black, *Title, *Elo and *FideId.
    caruana = next(p for p in read("fide-grand-swiss-2021.pgn").players if p.family_name == "Caruana")
    assert fields(caruana, [*PGN_TAGS.values(), "given_names"]) == {
        "family_name": "Caruana",
        "title": "GM",
        "rating": 2800,
        "fide_id": 2020009,
        "given_names": "Fabiano",
    }
    # WhiteTeam/BlackTeam with a federation's three letters (olympiad PGNs): no real example here.
    data = (
        b'[Event "Olympiad"]\n[Round "1"]\n[White "Ivanov, Petr"]\n[Black "Smith, John"]\n[Result "1-0"]\n'
        b'[WhiteTeam "RUS"]\n[BlackTeam "ENG"]\n[WhiteElo "2500"]\n[BlackElo "2400"]\n\n1. e4 e5 1-0\n'
    )
    parsed = read_result_file("o.pgn", data)
    assert {p.family_name: p.country for p in parsed.players} == {"Ivanov": "RUS", "Smith": "ENG"}
