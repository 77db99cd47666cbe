"""FIDE's rating list files, parsed without the database (players/fide/lists.py)."""

from __future__ import annotations

import datetime
import io
from pathlib import Path

import pytest

from benchmarks.operations.fide_list import FOA_HEADER, one_kind_header, txt_line
from players.fide.lists import ListError, month_from_name, open_list

DATA = Path(__file__).resolve().parents[1] / "data" / "fide"


def entries(name: str, **options):
    with (DATA / name).open("rb") as stream:
        info, found = open_list(stream, name=name, **options)
        return info, list(found)


def by(entries_, fide_id, kind):
    return next(e for e in entries_ if e.fide_id == fide_id and e.kind == kind)


def test_it_reads_the_combined_txt_with_foa_titles():
    info, found = entries("players_list_foa.txt")
    assert info.kinds == ("standard", "rapid", "blitz") and info.month is None
    carlsen = by(found, 1503014, "rapid")
    assert (carlsen.name, carlsen.federation, carlsen.sex, carlsen.title) == ("Carlsen, Magnus", "NOR", "M", "GM")
    assert (carlsen.rating, carlsen.games, carlsen.k, carlsen.birth_year) == (2801, 12, 10, 1990)
    anna = by(found, 24101605, "standard")
    assert (anna.women_title, anna.foa_title, anna.rating, anna.flag) == ("WFM", "AFM", 1834, "wi")
    # Unrated is 0 in the file, no rating here; birth year 0 is unknown.
    petrov = by(found, 34101234, "standard")
    assert (petrov.rating, petrov.k, petrov.birth_year, petrov.flag) == (None, None, None, "i")
    assert by(found, 34101234, "rapid").rating == 1420


def test_it_reads_a_line_whose_other_titles_overflow_into_the_next_column():
    _info, found = entries("players_list_foa.txt")
    novak = by(found, 13300474, "standard")
    assert (novak.name, novak.other_titles, novak.rating, novak.k, novak.birth_year) == (
        "Novák, Jan", "SI,FI,LSI,NAAFM", 1950, 20, 1975)  # fmt: skip
    assert by(found, 13300474, "rapid").rating == 1900


def test_it_reads_the_combined_txt_before_the_foa_column_in_latin_1_with_crlf():
    _info, found = entries("players_list.txt")
    assert len(found) == 18
    assert by(found, 4147103, "blitz").rating == 2491
    assert by(found, 4100018, "standard").other_titles == "FA,IA"


def test_it_reads_a_one_kind_txt_and_its_month_from_the_header():
    info, found = entries("standard_oct26frl.txt")
    assert info.kinds == ("standard",) and info.month == datetime.date(2026, 10, 1)
    assert [(e.fide_id, e.rating) for e in found][:2] == [(1503014, 2823), (8603677, 2723)]


def test_it_reads_the_combined_xml_and_a_one_kind_xml_by_its_name():
    _info, found = entries("players_list_xml_foa.xml")
    assert len(found) == 18
    assert by(found, 1503014, "blitz").rating == 2860
    assert by(found, 4147103, "standard").women_title == "WGM"
    _info, rapid = entries("rapid_oct26frl_xml.xml")
    assert {e.kind for e in rapid} == {"rapid"}
    assert by(rapid, 1503014, "rapid").games == 12


def test_it_takes_one_kind_of_a_combined_file_when_asked():
    _info, found = entries("players_list_xml_foa.xml", kind="blitz")
    assert {e.kind for e in found} == {"blitz"} and len(found) == 6


def test_it_takes_columns_from_the_header_when_a_year_is_wider():
    # A header with a wider name column: every column after it moves, and still parses.
    header = one_kind_header("JAN24").replace("Name ", "Name      ")
    line = txt_line(header, ["1503014", "Carlsen, Magnus", "NOR", "M", "GM", "", "", "", "2830", "3", "10", "1990", ""])
    _info, found = open_list(io.BufferedReader(io.BytesIO(f"{header}\n{line}\n".encode())))
    (entry,) = list(found)
    assert (entry.rating, entry.games, entry.birth_year) == (2830, 3, 1990)
    assert _info.month == datetime.date(2024, 1, 1)


def test_it_names_the_line_and_column_of_a_bad_value():
    bad = txt_line(FOA_HEADER, ["1503014", "Carlsen, Magnus", "NOR", "M", "GM", "", "", "", "28x3", "0", "10",
                                "0", "0", "0", "0", "0", "0", "1990", ""])  # fmt: skip
    stream = io.BufferedReader(io.BytesIO(f"{FOA_HEADER}\n{bad}\n".encode()))
    _info, found = open_list(stream)
    with pytest.raises(ListError, match=r"line 2, column 114: the rating '28x3' is not a number"):
        list(found)


def test_it_refuses_a_file_that_is_not_a_fide_list():
    with pytest.raises(ListError, match="line 1: not a FIDE rating list header"):
        open_list(io.BufferedReader(io.BytesIO(b"Name;Rating\nCarlsen;2830\n")))


def test_it_names_the_line_of_broken_xml():
    xml = b"<playerslist>\n<player>\n<fideid>1503014</fideid>\n<rating>2830</ratin>\n</player>\n</playerslist>\n"
    _info, found = open_list(io.BufferedReader(io.BytesIO(xml)))
    with pytest.raises(ListError, match=r"line 4, column \d+: not well-formed XML"):
        list(found)


def test_it_reads_the_month_from_fides_file_names():
    assert month_from_name("standard_oct26frl.txt") == datetime.date(2026, 10, 1)
    assert month_from_name("lists/blitz_jan24frl_xml.xml") == datetime.date(2024, 1, 1)
    assert month_from_name("players_list_foa.txt") is None


def xml_entries(xml: str, chunk: int | None = None, monkeypatch=None):
    if chunk is not None:
        monkeypatch.setattr("players.fide.lists._XML_CHUNK", chunk)
    _info, found = open_list(io.BufferedReader(io.BytesIO(xml.encode())))
    return list(found)


PLAYER = (
    "<player>\n<fideid>{id}</fideid>\n<name>{name}</name>\n<country>NOR</country>\n<sex>M</sex>\n"
    "<title>GM</title>\n<w_title></w_title>\n<o_title/>\n<foa_title></foa_title>\n<rating>{rating}</rating>\n"
    "<games>3</games>\n<k>10</k>\n<birthday>1990</birthday>\n<flag></flag>\n</player>\n"
)


def test_it_reads_every_player_of_an_xml_whatever_the_chunks_cut_through(monkeypatch):
    # Chunks of 7 bytes cut through tags, entities and the two bytes of every "á": the same players.
    players = [PLAYER.format(id=1000 + i, name=f"Novák &amp; Sons {i}", rating=2000 + i) for i in range(30)]
    xml = "<playerslist>\n" + "".join(players) + "</playerslist>\n"
    whole = xml_entries(xml)
    assert [(e.fide_id, e.name, e.rating, e.other_titles) for e in whole][:2] == [
        (1000, "Novák & Sons 0", 2000, ""), (1001, "Novák & Sons 1", 2001, "")]  # fmt: skip
    assert xml_entries(xml, chunk=7, monkeypatch=monkeypatch) == whole and len(whole) == 30


def test_it_reads_players_that_stray_from_the_files_layout(monkeypatch):
    # A comment, children in another order, a CDATA name: lxml reads those chunks, lines kept.
    odd = "<player><name><![CDATA[Lee, Ann]]></name><fideid>7</fideid><rating>1500</rating></player>\n"
    xml = "<playerslist>\n" + PLAYER.format(id=5, name="Kim, Bo", rating=2100) + "<!-- moved -->\n" + odd
    xml += "</playerslist>\n"
    found = xml_entries(xml, chunk=64, monkeypatch=monkeypatch)
    assert [(e.fide_id, e.name, e.rating) for e in found] == [(5, "Kim, Bo", 2100), (7, "Lee, Ann", 1500)]
    bad = xml.replace("<rating>1500</rating>", "<rating>15x0</rating>")
    with pytest.raises(ListError, match=r"line 18: <rating> '15x0' is not a number"):
        xml_entries(bad)


def test_it_names_the_line_of_a_bad_number_read_on_the_fast_path():
    players = [PLAYER.format(id=1000 + i, name="A", rating="2x00" if i == 2 else 2000) for i in range(4)]
    xml = "<playerslist>\n" + "".join(players) + "</playerslist>\n"
    # The line of the player's <player>, as lxml's sourceline gave: 15 lines a player, the third at 32.
    with pytest.raises(ListError, match=r"line 32: <rating> '2x00' is not a number"):
        xml_entries(xml)


def test_it_refuses_an_xml_without_players():
    with pytest.raises(ListError, match="no <player> element"):
        xml_entries("<playerslist>\n</playerslist>\n")
