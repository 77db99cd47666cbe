"""Every player field Swiss Perfect's files carry, read from the real examples (issue 26, section 0):
the native .trn table (sp-gonzaga-2010, sp-mulcahy-2010, sp-drogheda-2010-a.zip) and the
tab-separated export (sp-gonzaga-2010-export.txt)."""

import datetime

from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.base import ArbiterTestCase
from tests.tournaments.files import example
from tournaments.importers.bundles import combine
from tournaments.importers.registry import read_result_file
from tournaments.importers.swissperfect import column_of
from tournaments.importers.swissperfect_native import dbf_fields
from tournaments.models import Upload

# The .trn's player fields and where the importer puts each.
NATIVE_FIELDS = {
    "SURNAME": "family_name",
    "FIRSTNAME": "given_names",
    "BIRTH_DATE": "birth_date",
    "SEX": "sex",
    "TITLE": "title",
    "INTL_ID": "fide_id",
    "INTL_RTG": "rating",
    "LOC_ID": "national_id",
    "LOC_RTG": "national_rating",
    "CLUB": "club",
    "FEDER": "country",
}


def native(stem):
    """The tournament's .trn, .sco and .ini as the upload form joins them."""
    return read_result_file(*combine([(f"{stem}.{ext}", example(f"{stem}.{ext}")) for ext in ("trn", "sco", "ini")]))


def fields(player):
    return {attribute: getattr(player, attribute) for attribute in NATIVE_FIELDS.values()}


def test_it_reads_every_player_field_of_the_swiss_perfect_players_table():
    for trn in ("sp-gonzaga-2010.trn", "sp-mulcahy-2010.trn"):
        assert set(NATIVE_FIELDS) <= {name for name, _ in dbf_fields(example(trn))}
    mulcahy = native("sp-mulcahy-2010")
    assert not mulcahy.errors and not mulcahy.warnings
    assert (mulcahy.name, len(mulcahy.players)) == ("Mulcahy Cup 2010", 50)
    # SURNAME "Keogh               N M", BIRTH_DATE 19440216, INTL_ID "16-02-1944" (a date, not a FIDE id).
    assert fields(mulcahy.player(6)) == {
        "family_name": "Keogh N M",
        "given_names": "Eamon",
        "birth_date": datetime.date(1944, 2, 16),
        "sex": "",
        "title": "",
        "fide_id": None,
        "rating": None,
        "national_id": "731",
        "national_rating": 1909,
        "club": "Kilkenny",
        "country": "",
    }
    assert mulcahy.player(6).birth_precision == "day"
    doyle = mulcahy.player(7)
    assert (doyle.display_name, doyle.birth_date, doyle.club) == ("Doyle, Hugh", datetime.date(1995, 5, 17), "Cork")
    assert sum(1 for p in mulcahy.players if p.birth_date) == 32
    assert {p.birth_precision for p in mulcahy.players if p.birth_date} == {"day"}
    rivera = mulcahy.player(1)  # no BIRTH_DATE
    assert (rivera.birth_date, rivera.birth_precision, rivera.national_id) == (None, "unknown", "12330")
    # The zipped Drogheda files: SEX 1, TITLE 5, INTL_ID, INTL_RTG and FEDER.
    drogheda = read_result_file("drog_a.zip", example("sp-drogheda-2010-a.zip"))
    assert not drogheda.errors
    assert fields(drogheda.player(2)) == {
        "family_name": "Delaney",
        "given_names": "John",
        "birth_date": None,
        "sex": "M",
        "title": "FM",
        "fide_id": None,
        "rating": None,
        "national_id": "318",
        "national_rating": 2198,
        "club": "Blanchardstown Juniors",
        "country": "",
    }
    erkki = drogheda.player(5)
    assert (erkki.fide_id, erkki.rating, erkki.country, erkki.national_id) == (4690540, 1944, "XYZ", None)
    assert (drogheda.player(6).rating, drogheda.player(6).country) == (2033, "ESP")
    assert {p.sex for p in drogheda.players} == {"M"}
    # Gonzaga: SEX 0 (not given) for all, no birth dates (BIRTH_DATE empty in all 56 records), clubs and
    # local ids for some.
    gonzaga = native("sp-gonzaga-2010")
    assert sum(1 for p in gonzaga.players if p.birth_date) == 0
    assert {p.sex for p in gonzaga.players} == {""}
    duffy = gonzaga.player(9)
    assert (duffy.display_name, duffy.club, duffy.national_id, duffy.national_rating) == (
        "Duffy, Sinead",
        "Wicklow",
        "12185",
        800,
    )


def test_it_reads_every_player_field_the_swiss_perfect_export_can_carry():
    # Swiss Perfect's export columns (its own header words) and the fields they fill.
    assert {
        header: column_of(header) for header in ("No", "Name", "Feder", "Intl Id", "Loc Id", "Rtg", "Loc", "Title")
    } == {
        "No": "start",
        "Name": "name",
        "Feder": "country",
        "Intl Id": "fide_id",
        "Loc Id": "national_id",
        "Rtg": "rating",
        "Loc": "national_rating",
        "Title": "title",
    }
    # The real export has No, Name, Loc Id and Total: each read.
    export = read_result_file("gonzaga.txt", example("sp-gonzaga-2010-export.txt"))
    header = example("sp-gonzaga-2010-export.txt").decode().splitlines()[0].split("\t")
    assert [column_of(h) for h in header[:4]] == ["start", "name", "national_id", "points"]
    neil = export.player(2)
    assert (neil.family_name, neil.given_names, neil.national_id, neil.points) == ("Mullooly", "Neil M.", "6438", 6)
    assert sum(1 for p in export.players if p.national_id) == 33
    # Where both name a player, the native table says the same local id.
    together = native("sp-gonzaga-2010")
    assert {p.start_number: p.national_id for p in export.players} == {
        p.start_number: p.national_id for p in together.players
    }


class SwissPerfectBirthDatesTestCase(ArbiterTestCase):
    def test_it_shows_the_birth_dates_of_the_three_native_files_in_the_preview(self):
        self.login(self.arbiter)
        files = [
            SimpleUploadedFile(f"mulcahy.{ext}", example(f"sp-mulcahy-2010.{ext}")) for ext in ("trn", "sco", "ini")
        ]
        response = self.client.post(reverse("arbiter:upload"), {"file": files})
        upload = Upload.objects.get()
        self.assertRedirects(response, reverse("arbiter:preview", args=[upload.pk]))
        keogh = next(p for p in upload.preview["file"]["players"] if p["start_number"] == 6)
        assert (keogh["family_name"], keogh["birth_date"], keogh["birth_precision"]) == (
            "Keogh N M",
            "1944-02-16",
            "day",
        )
        preview = self.client.get(reverse("arbiter:preview", args=[upload.pk]))
        self.assertContains(preview, "1944-02-16")
        self.assertContains(preview, "1995-05-17")  # Doyle, Hugh
        # A field to enter the birth date only for the 18 players the file gives none.
        births = [name for name in preview.context["form"].fields if name.startswith("birth_")]
        assert len(births) == 18 and "birth_6" not in births and "birth_1" in births


def test_it_warns_of_a_birth_date_it_cannot_read_naming_the_row_and_field():
    # Keogh's BIRTH_DATE 19440216 turned into a 13th month.
    trn = example("sp-mulcahy-2010.trn").replace(b"19440216", b"19441316")
    name, data = combine([("m.trn", trn), ("m.sco", example("sp-mulcahy-2010.sco"))])
    parsed = read_result_file(name, data)
    assert not parsed.errors
    assert [str(p) for p in parsed.warnings] == [
        "m.trn, m.sco, row 2, column BIRTH_DATE, m.trn: the birth date '19441316' cannot be read"
    ]
    keogh = parsed.player(6)
    assert (keogh.birth_date, keogh.birth_precision) == (None, "unknown")
