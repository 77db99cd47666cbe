"""The opening list's reader: pure, no database."""

import datetime

from ratings.opening import reader
from ratings.opening.columns import stored_parse, stored_text


def _rows(text: str):
    return reader.rows_of("list.csv", text.encode())


def test_it_reads_russian_headings_and_every_field():
    sheet = reader.read(
        _rows(
            "Id федерации;Фамилия;Имя;Дата рождения;Пол;Клуб;Регион;FIDE id;Рейтинг FIDE;"
            "ORR рейтинг;ORR предварительный;ORR партии;ORR турниры;ORR последняя партия;ORR сохранённые партии;"
            "Mchess рейтинг;Mchess партии;Mchess последняя партия\n"
            "100007;Иванова;Анна;2012;Ж;Ладья;Казань;34000001;1500;"
            '1234;да;9;2;2025-12-20;"1300:2;1100:1";1500;9;2025-12-20\n'
        )
    )
    assert not sheet.problems and not sheet.unknown
    (entry,) = sheet.entries
    assert (entry.federation_id, entry.family_name, entry.given_names) == (100007, "Иванова", "Анна")
    assert (entry.birth_date, entry.birth_precision, entry.sex) == (datetime.date(2012, 7, 1), "year", "F")
    assert (entry.club, entry.region, entry.fide_id, entry.fide_rating) == ("Ладья", "Казань", 34000001, 1500)
    assert entry.states["orr"] == {
        "rating": 1234,
        "provisional": True,
        "games": 9,
        "tournaments": 2,
        "last_played": "2025-12-20",
        "stored": [[1300, 2, None, 0, None], [1100, 1, None, 0, None]],
    }
    assert entry.states["mchess"]["rating"] == 1500 and entry.states["mchess"]["provisional"] is False
    assert entry.states["playchess"] is None  # no column: no standing there


def test_it_asks_for_a_mapping_of_an_unknown_heading_and_uses_it():
    rows = _rows("federation_id,family_name,Elo nat.\n5,Smith,1700\n")
    assert reader.read(rows).unknown == ["Elo nat."]
    sheet = reader.read(rows, {"Elo nat.": "orr_rating"})
    assert not sheet.unknown and sheet.entries[0].states["orr"]["rating"] == 1700


def test_it_names_the_row_and_column_of_each_error():
    sheet = reader.read(
        _rows(
            "federation_id,family_name,birth,sex,orr_rating,orr_games,orr_stored\n"
            "x1,Smith,1990,M,1500,3,\n"
            "2,,1990,M,1500,3,\n"
            "3,Brown,31.02.1990,Q,1500,three,1500:3\n"
            "3,Green,1990,F,,,\n"
        )
    )
    found = {(p.row, p.column, p.message) for p in sheet.problems}
    assert (2, "federation_id", "not a whole number") in found
    assert (3, "family_name", "the family name is missing") in found
    assert (4, "birth", "not a date (YYYY-MM-DD, DD.MM.YYYY) or a year (YYYY)") in found
    assert (4, "sex", "not M or F") in found
    assert (4, "orr_games", "not a whole number") in found
    assert any(row == 4 and column == "orr_stored" for row, column, _ in found)
    assert [e.family_name for e in sheet.entries] == ["Green"]


def test_it_refuses_the_same_federation_id_twice():
    sheet = reader.read(_rows("federation_id,family_name\n7,A\n7,B\n"))
    assert [(p.row, p.column, str(p)) for p in sheet.problems] == [
        (3, "federation_id", "row 3, column federation_id: the same as row 2 ('7')")
    ]


def test_it_writes_stored_games_compactly_and_reads_them_back():
    stored = ((1300, 2, 17, 3, 99), (1100, 0, None, 0, None))
    assert stored_text(stored) == "1300:2;1100:0"
    assert stored_parse("1300:2;1100:0") == ((1300, 2, None, 0, None), (1100, 0, None, 0, None))
