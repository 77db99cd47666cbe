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
