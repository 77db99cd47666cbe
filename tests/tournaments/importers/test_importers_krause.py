"""Issue 26, section 0: the Krause format (the report layout before TRF16).

Its dates carry two-digit years, written year first ("10.09.13" for 13 September 2010; the round dates of
examples/krause-bunratty-masters-2011.tab are "11.25.02", YY.DD.MM). The order is decided from every date
of the file (start 042, end 052, rounds 132) and the tournament's name, and the preview says which.
"""

from __future__ import annotations

import datetime
from decimal import Decimal

from django.utils import translation

from tests.tournaments.files import example, trf, trf_player
from tournaments.importers.dates import name_years, read_file_dates
from tournaments.importers.registry import read_result_file

PLAYERS = [trf_player(1, "Ivanov,Petr", rounds=[(2, "w", "1")]), trf_player(2, "Petrov,Ivan", rounds=[(1, "b", "0")])]


def krause(name: str, start: str, end: str, rounds: list[str] = ()) -> bytes:
    header = [f"012 {name}", f"042 {start}", f"052 {end}"]
    if rounds:
        header.append("132" + " " * 88 + "".join(f"{text:<10}" for text in rounds).rstrip())
    return trf(PLAYERS, header=header)


def date_note(parsed) -> str:
    return next(str(note) for note in parsed.notes if str(note).startswith("Dates read as"))


# --- The season: September 2010 to March 2011, written year first -------------------------------


def test_it_reads_a_season_written_year_first_from_its_round_dates():
    data = krause("Winter League", "10.09.13", "11.03.20", ["10.09.13", "10.10.25", "10.12.05", "11.03.20"])
    parsed = read_result_file("league.tab", data)
    assert not parsed.errors
    assert (parsed.start_date, parsed.end_date) == (datetime.date(2010, 9, 13), datetime.date(2011, 3, 20))
    assert parsed.round_dates == {
        1: datetime.date(2010, 9, 13),
        2: datetime.date(2010, 10, 25),
        3: datetime.date(2010, 12, 5),
        4: datetime.date(2011, 3, 20),
    }
    # Day first, "10.10.25" would be 10 October 2025, after the end (11 March 2020): only year first fits.
    note = date_note(parsed)
    assert note.startswith("Dates read as year.month.day (10.09.13 = 2010-09-13): no other order")
    assert "11.03.20 = 2011-03-20" in note


def test_it_reads_a_season_year_first_by_the_years_in_its_name():
    # Without round dates, day first (10 September 2013 to 11 March 2020) would be a possible tournament
    # too; "2010/11" in the name says year first.
    parsed = read_result_file("league.tab", krause("Winter League 2010/11", "10.09.13", "11.03.20"))
    assert (parsed.start_date, parsed.end_date) == (datetime.date(2010, 9, 13), datetime.date(2011, 3, 20))
    assert "the one that agrees with the year in its name" in date_note(parsed)


def test_it_shows_the_order_used_in_russian():
    parsed = read_result_file("league.tab", krause("Winter League 2010/11", "10.09.13", "11.03.20"))
    with translation.override("ru"):
        note = str(parsed.notes[-1])
    assert note.startswith("Даты прочитаны как год.месяц.день (10.09.13 = 2010-09-13)")


# --- Each rule with concrete dates -------------------------------------------------------------


def test_it_reads_year_first_when_a_round_date_can_only_be_year_first():
    # "10.09.25" day first is 10 September 2025: inside 10 September 2013 - 10 September 2026 day first,
    # but that tournament lasts 13 years; year first it is 25 September 2010, inside 13-26 September.
    reading = read_file_dates({"042": "10.09.13", "052": "10.09.26"}, {1: "10.09.13", 2: "10.09.25"})
    assert (reading.header_order, reading.round_order, reading.reason) == ("ymd", "ymd", "span")
    assert reading.dates[2] == datetime.date(2010, 9, 25)


def test_it_takes_the_order_putting_the_rounds_between_start_and_end():
    # Start and end written with four digits; round dates "11.25.02" only fit year.day.month.
    reading = read_file_dates({"042": "25.02.2011", "052": "27.02.2011"}, {1: "11.25.02", 2: "11.27.02"})
    assert (reading.header_order, reading.round_order, reading.reason) == (None, "ydm", "only")
    # "2013/10/09" to "13.10.10": day first the end (13 October 2010) is before the start.
    reading = read_file_dates({"042": "2013/10/09", "052": "13.10.10"}, {})
    assert reading.dates["052"] == datetime.date(2013, 10, 10) and reading.reason == "only"


def test_it_takes_the_order_matching_the_year_in_the_name():
    header = {"042": "04.05.06", "052": "04.05.07"}
    # Day first: 4 May 2006 - 4 May 2007; year first: 6-7 May 2004.
    assert read_file_dates(header, {}, name="Spring Open 2004").header_order == "ymd"
    assert read_file_dates(header, {}, name="Spring Open 2006").header_order == "dmy"
    assert name_years("Leinster League 2010/11") == {2010, 2011}
    assert name_years("Bunratty 2011") == {2011}
    assert name_years("Cup 1999-2000") == {1999, 2000}


def test_it_keeps_day_first_when_still_ambiguous_and_says_so():
    parsed = read_result_file("cup.tab", krause("Cup", "10.09.13", "11.09.13"))
    assert (parsed.start_date, parsed.end_date) == (datetime.date(2013, 9, 10), datetime.date(2013, 9, 11))
    note = date_note(parsed)
    assert note.startswith("Dates read as day.month.year (10.09.13 = 2013-09-10), day first as usual, though")
    assert "year.month.day or month.day.year would give a possible tournament too" in note


def test_it_refuses_dates_that_fit_no_order_naming_line_and_column():
    # Day first the end (24 December 2013) is before the start; year first 2025 before 2024; 25 and 24 are
    # no months.
    parsed = read_result_file("bad.tab", krause("Cup", "25.12.13", "24.12.13"))
    assert str(parsed.errors[0]).startswith("bad.tab, line 3, column 5-12: the date '24.12.13' does not fit")
    assert parsed.start_date is None and parsed.end_date is None
    # A round date over a fortnight outside the tournament in every order: refused at its own columns.
    parsed = read_result_file("bad.tab", krause("Cup", "2011/02/25", "2011/02/27", ["11.25.02", "11.20.03"]))
    assert str(parsed.errors[0]).startswith("bad.tab, line 4, column 102-109: the date '11.20.03' does not fit")


def test_it_allows_a_round_a_little_outside_the_tournaments_dates_as_before():
    # 28 February, a day after the end: within the fortnight either side the reading always allowed.
    parsed = read_result_file("cup.tab", krause("Cup", "2011/02/25", "2011/02/27", ["11.25.02", "11.28.02"]))
    assert not parsed.errors
    assert parsed.round_dates == {1: datetime.date(2011, 2, 25), 2: datetime.date(2011, 2, 28)}


# --- The real example --------------------------------------------------------------------------


def test_it_reads_the_bunratty_dates_as_before_and_says_the_order():
    parsed = read_result_file("bunratty.tab", example("krause-bunratty-masters-2011.tab"))
    assert not parsed.errors
    assert (parsed.start_date, parsed.end_date) == (datetime.date(2011, 2, 25), datetime.date(2011, 2, 27))
    day = {25: datetime.date(2011, 2, 25), 26: datetime.date(2011, 2, 26), 27: datetime.date(2011, 2, 27)}
    assert parsed.round_dates == {1: day[25], 2: day[26], 3: day[26], 4: day[26], 5: day[27], 6: day[27]}
    assert date_note(parsed).startswith("Dates read as year.day.month (11.25.02 = 2011-02-25): no other order")


# --- Every field of the player line (001) ------------------------------------------------------


def test_it_reads_every_field_of_the_player_line_from_the_real_examples():
    """Start rank 5-8, sex 10, title 11-13, name 15-47, rating 49-52, federation 54-56, FIDE id 58-68,
    birth date 70-79, points 81-84, rank 86-89. The Bunratty file leaves FIDE id and birth date blank;
    the Karl-Mala file writes them (and the old one-letter titles)."""
    bunratty = read_result_file("bunratty.tab", example("krause-bunratty-masters-2011.tab"))
    wilson = bunratty.player(26)  # "001   26 FWFM Wilson, Alexandra  2020 ENG ...  2.0   29"
    assert (wilson.start_number, wilson.sex, wilson.title) == (26, "F", "WFM")
    assert (wilson.family_name, wilson.given_names) == ("Wilson", "Alexandra")
    assert (wilson.rating, wilson.country, wilson.points, wilson.rank) == (2020, "ENG", Decimal("2.0"), 29)
    short = bunratty.player(1)  # "001    1 M GM Short, Nigel  2658 ENG ...  4.0    5"
    assert (short.sex, short.title, short.rating, short.country, short.points, short.rank) == (
        "M",
        "GM",
        2658,
        "ENG",
        Decimal("4.0"),
        5,
    )
    assert short.fide_id is None and short.birth_date is None
    karl_mala = read_result_file("karl-mala.trf", example("karl-mala-2005.trf"))
    vasquez = karl_mala.player(1)  # "001    1    g Vasquez,Rodrigo  2558 CHI     3400042 1969.12.06  6.0    4"
    assert (vasquez.family_name, vasquez.given_names, vasquez.title) == ("Vasquez", "Rodrigo", "GM")
    assert (vasquez.rating, vasquez.country, vasquez.fide_id) == (2558, "CHI", 3400042)
    assert (vasquez.birth_date, vasquez.birth_precision) == (datetime.date(1969, 12, 6), "day")
    assert (vasquez.points, vasquez.rank) == (Decimal("6.0"), 4)
    assert karl_mala.player(186).sex == "F"  # "001  186 f    Fischer,Helena"
