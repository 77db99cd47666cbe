"""import_fide_list: the stored list, replaced kind by kind, and left intact by a bad file."""

from __future__ import annotations

import datetime
import shutil
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from benchmarks.operations import fide_list as bench
from players.models import FideListEntry

DATA = Path(__file__).resolve().parents[1] / "data" / "fide"


def stored():
    return dict(FideListEntry.objects.values_list("kind", "month").distinct().order_by("kind"))


@pytest.mark.django_db
def test_it_imports_the_combined_list_and_replaces_each_kind(tmp_path):
    call_command("import_fide_list", str(DATA / "players_list_foa.txt"), "--month", "2026-09")
    assert FideListEntry.objects.count() == 21
    carlsen = FideListEntry.objects.get(fide_id=1503014, kind="blitz")
    assert (carlsen.rating, carlsen.month, carlsen.name) == (2860, datetime.date(2026, 9, 1), "Carlsen, Magnus")
    # October's standard list replaces September's standard entries only.
    call_command("import_fide_list", str(DATA / "standard_oct26frl.txt"))
    assert stored() == {"blitz": datetime.date(2026, 9, 1), "rapid": datetime.date(2026, 9, 1),
                        "standard": datetime.date(2026, 10, 1)}  # fmt: skip
    assert FideListEntry.objects.filter(kind="standard").count() == 5
    assert not FideListEntry.objects.filter(kind="standard", fide_id=34101234).exists()


@pytest.mark.django_db
def test_it_leaves_the_previous_list_intact_when_a_line_is_bad(tmp_path):
    call_command("import_fide_list", str(DATA / "standard_oct26frl.txt"))
    bad = tmp_path / "standard_nov26frl.txt"
    lines = (DATA / "standard_oct26frl.txt").read_text().splitlines()
    lines.append(lines[1].replace("1990", "19x0"))
    bad.write_text("\n".join(lines) + "\n")
    with pytest.raises(CommandError, match=r"standard_nov26frl.txt: line 7, column 127: the birth year '19x0'"):
        call_command("import_fide_list", str(bad))
    assert stored() == {"standard": datetime.date(2026, 10, 1)} and FideListEntry.objects.count() == 5


@pytest.mark.django_db
def test_it_refuses_a_list_with_a_fide_id_twice_and_changes_nothing(tmp_path):
    call_command("import_fide_list", str(DATA / "standard_oct26frl.txt"))
    twice = tmp_path / "standard_nov26frl.txt"
    lines = (DATA / "standard_oct26frl.txt").read_text().splitlines()
    twice.write_text("\n".join([*lines, lines[1]]) + "\n")
    with pytest.raises(CommandError, match=r"1503014|twice"):
        call_command("import_fide_list", str(twice))
    assert stored() == {"standard": datetime.date(2026, 10, 1)}


@pytest.mark.django_db
def test_it_asks_for_the_month_when_neither_file_nor_name_says(tmp_path):
    copy = tmp_path / "players_list_xml_foa.xml"
    shutil.copy(DATA / "players_list_xml_foa.xml", copy)
    with pytest.raises(CommandError, match="give --month"):
        call_command("import_fide_list", str(copy))
    call_command("import_fide_list", str(copy), "--month", "2026-10", "--kind", "rapid")
    assert stored() == {"rapid": datetime.date(2026, 10, 1)}
    with pytest.raises(CommandError, match="YYYY-MM"):
        call_command("import_fide_list", str(copy), "--month", "October")


@pytest.mark.django_db(transaction=True)
def test_it_runs_the_benchmark_in_smoke_mode(capsys):
    assert bench.main(["--smoke"]) == 0
    table = capsys.readouterr().out
    assert "| TXT | 1,000 |" in table and "| XML | 1,000 |" in table
    assert FideListEntry.objects.filter(kind="standard").count() == 1000
