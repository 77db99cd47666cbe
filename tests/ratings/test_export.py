import csv
import datetime
import io
import json

import openpyxl
import pytest
from django.core.management import call_command

from players.models import Club
from ratings import services
from tests.ratings.scenario import children, make_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated():
    kids = children(8, seed=21)
    kids[0].club = Club.objects.create(name="Белая ладья", city="Казань")
    kids[0].save()
    tournament = make_tournament("Cup", datetime.date(2025, 9, 6), kids, seed=21)
    services.rating_run(tournament_id=tournament.pk)
    return kids


def test_it_exports_the_list_as_json_objects(rated):
    out = io.StringIO()
    call_command("export_list", "--system", "orr", "--format", "json", stdout=out)
    rows = json.loads(out.getvalue())
    assert rows
    first = rows[0]
    for key in ("federation_id", "name", "birth_year", "rating", "provisional", "games"):
        assert key in first
    assert isinstance(first["rating"], int)
    assert first["provisional"] is True  # all newcomers after one tournament
    assert ", " in first["name"]  # "Family, Given"
    assert [r["rating"] for r in rows] == sorted((r["rating"] for r in rows), reverse=True)


def test_it_exports_csv_and_xlsx_files(rated, tmp_path):
    out = io.StringIO()
    call_command("export_list", "--system", "mchess", "--format", "csv", stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("rank,federation_id,name,birth_year")
    target = tmp_path / "orr.xlsx"
    call_command("export_list", "--format", "xlsx", "--output", str(target), stderr=io.StringIO())
    sheet = openpyxl.load_workbook(target).active
    header = [cell.value for cell in sheet[1]]
    assert header[:3] == ["rank", "federation_id", "name"]
    assert sheet.max_row == len(json.loads(_json("orr"))) + 1
    assert any(row[6] == "Белая ладья" for row in sheet.iter_rows(values_only=True))


def _json(system):
    out = io.StringIO()
    call_command("export_list", "--system", system, "--format", "json", stdout=out)
    return out.getvalue()


# --- Formula injection (OWASP's CSV-injection rule) -------------------------------------------

HOSTILE_NAME = '=HYPERLINK("http://x","y")'


@pytest.fixture
def hostile(rated):
    from players.models import Region

    player = rated[1]
    player.family_name = HOSTILE_NAME
    player.given_names = ""
    player.club = Club.objects.create(name="+SUM(1,2)", city="Казань")
    player.region = Region.objects.create(name="@cmd")
    player.save()
    return player


def _xlsx_cells(content: bytes):
    sheet = openpyxl.load_workbook(io.BytesIO(content)).active
    return [cell for row in sheet.iter_rows() for cell in row]


def _assert_inert(cells, hostile):
    assert not [cell.coordinate for cell in cells if cell.data_type == "f"]
    values = {cell.value for cell in cells}
    assert "'" + HOSTILE_NAME in values
    assert "'+SUM(1,2)" in values
    assert "'@cmd" in values
    row = next(r for r in cells if r.value == hostile.federation_id)
    assert row.data_type == "n"  # numbers stay numbers


def test_it_neutralises_formulas_in_the_downloaded_csv_and_xlsx(hostile, client):
    content = client.get("/ratings/orr/?download=csv").content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(content)))
    row = next(r for r in rows if r[1] == str(hostile.federation_id))
    assert row[2] == "'" + HOSTILE_NAME
    assert row[6] == "'+SUM(1,2)"
    assert row[7] == "'@cmd"
    assert not [cell for r in rows for cell in r if cell.startswith(("=", "+", "@", "\t", "\r"))]
    _assert_inert(_xlsx_cells(client.get("/ratings/orr/?download=xlsx").content), hostile)


def test_it_neutralises_formulas_in_the_export_command_too(hostile, tmp_path):
    out = io.StringIO()
    call_command("export_list", "--format", "csv", stdout=out)
    assert "'" + HOSTILE_NAME.replace('"', '""') in out.getvalue()
    target = tmp_path / "orr.xlsx"
    call_command("export_list", "--format", "xlsx", "--output", str(target), stderr=io.StringIO())
    _assert_inert(_xlsx_cells(target.read_bytes()), hostile)


@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t", "\r"])
def test_it_neutralises_every_formula_start_but_not_numbers(start):
    from ratings import exports

    row = dict.fromkeys(exports.COLUMNS, None) | {"name": f"{start}1+1", "rating": -5, "games": 0}
    cells = _xlsx_cells(exports.to_xlsx([row]))
    name = next(cell for cell in cells if cell.column_letter == "C" and cell.row == 2)
    assert name.value.replace("\n", "\r") == f"'{start}1+1"  # XML reads a CR as a line feed
    assert name.data_type == "s"
    rating = next(cell for cell in cells if cell.column_letter == "I" and cell.row == 2)
    assert (rating.value, rating.data_type) == (-5, "n")
    rows = list(csv.reader(io.StringIO(exports.to_csv([row]).decode("utf-8-sig"), newline="")))
    assert rows[1][2] == f"'{start}1+1"
