"""Invisible and direction-changing characters in result files: removed on import, and the preview
says which character, from which field, where in the file."""

from django.contrib.auth.models import Group
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from players.models import Club, Player
from players.names import is_invisible
from tests.base import BaseTestCase
from tests.tournaments.files import trf, trf_player, xlsx
from tournaments import services
from tournaments.arbiters.forms import ConfirmForm
from tournaments.models import Tournament, Upload

RLO, ZWSP, LRI, SHY, BOM = "\u202e", "\u200b", "\u2066", "\u00ad", "\ufeff"


def dirty_trf():
    return trf(
        [
            trf_player(1, f"Ivanov{RLO},Petr", 1800, birth="2010/01/01", rounds=[(2, "w", "1")]),
            trf_player(2, f"Pet{ZWSP}rov,Ivan", birth="2014/05/17", rounds=[(1, "b", "0")]),
        ],
        header=[
            f"012 Spring{LRI} Cup",
            "022 Kaz\u200fan",
            "042 2026/03/01",
            "052 2026/03/01",
            f"102 Anna{SHY} Ivanova",
        ],
    )


def dirty_xlsx():
    return xlsx(
        [
            [f"Kazan {RLO}Open"],
            [f"Chief Arbiter : Anna {BOM}Ivanova"],
            ["Starting rank crosstable"],
            ["No.", "Name", "Rtg", "FED", "Club/City", "1.Rd", "Pts"],
            [1, f"Smirnov{ZWSP}  Petr", 1450, "RUS", f"Chess{RLO} Club", "2w1", 1],
            [2, "Kozlova  Maria", 1320, "RUS", "Kazan", "1b0", 0],
        ]
    )


def dirty_pgn():
    return (
        f'[Event "Blitz{RLO} Night"]\n[Site "Kazan"]\n[Date "2026.03.01"]\n[Round "1"]\n'
        f'[White "Ivanov{ZWSP}, Petr"]\n[Black "Petrov, Ivan"]\n[Result "1-0"]\n\n1. e4 e5 1-0\n'
    ).encode()


def texts_of(preview: dict) -> list[str]:
    file = preview["file"]
    values = [file["name"], file["city"], file["chief_arbiter"], *file["deputy_arbiters"]]
    for player in file["players"]:
        values += [player["family_name"], player["given_names"], player["club"], player["country"], player["title"]]
    return values


class InvisibleCharactersTestCase(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        cls.arbiter.groups.add(Group.objects.get(name="Arbiters"))

    def upload(self, name, data):
        self.login(self.arbiter)
        response = self.client.post(reverse("arbiter:upload"), {"file": SimpleUploadedFile(name, data)})
        upload = Upload.objects.get()
        self.assertRedirects(response, reverse("arbiter:preview", args=[upload.pk]))
        return upload, self.client.get(reverse("arbiter:preview", args=[upload.pk]))

    def assert_clean(self, upload):
        for value in texts_of(upload.preview):
            assert not any(is_invisible(char) for char in value), repr(value)

    def test_it_strips_a_trf_and_says_what_where(self):
        upload, response = self.upload("cup.trf", dirty_trf())
        self.assert_clean(upload)
        file = upload.preview["file"]
        assert (file["name"], file["city"], file["chief_arbiter"]) == ("Spring Cup", "Kazan", "Anna Ivanova")
        assert [(p["family_name"], p["given_names"]) for p in file["players"]] == [
            ("Ivanov", "Petr"),
            ("Petrov", "Ivan"),
        ]
        for warning in (
            "cup.trf, line 6, column 15-47</strong>: RIGHT-TO-LEFT OVERRIDE (U+202E) removed from the player&#x27;s "
            "name",
            "cup.trf, line 7, column 15-47</strong>: ZERO WIDTH SPACE (U+200B) removed from the player&#x27;s name",
            "cup.trf, line 1</strong>: LEFT-TO-RIGHT ISOLATE (U+2066) removed from the tournament&#x27;s name",
            "cup.trf, line 2</strong>: RIGHT-TO-LEFT MARK (U+200F) removed from the city",
            "cup.trf, line 5</strong>: SOFT HYPHEN (U+00AD) removed from the chief arbiter",
        ):
            self.assertContains(response, warning)
        self.assertNotContains(response, RLO)
        self.assertNotContains(response, ZWSP)

    def test_it_saves_only_clean_names(self):
        upload, _ = self.upload("cup.trf", dirty_trf())
        self.client.post(
            reverse("arbiter:preview", args=[upload.pk]),
            {
                "action": "confirm",
                **ConfirmForm(preview=upload.preview).initial,
                "time_control": "rapid",
                "mchess_weight": 250,
            },
        )
        tournament = Tournament.objects.get()
        assert (tournament.name, tournament.city, tournament.chief_arbiter_name) == (
            "Spring Cup",
            "Kazan",
            "Anna Ivanova",
        )
        assert sorted(Player.objects.values_list("family_name", "given_names")) == [
            ("Ivanov", "Petr"),
            ("Petrov", "Ivan"),
        ]

    def test_it_strips_a_spreadsheet_naming_sheet_row_and_column(self):
        upload, response = self.upload("kazan.xlsx", dirty_xlsx())
        self.assert_clean(upload)
        file = upload.preview["file"]
        assert (file["name"], file["chief_arbiter"]) == ("Kazan Open", "Anna Ivanova")
        assert (file["players"][0]["family_name"], file["players"][0]["club"]) == ("Smirnov", "Chess Club")
        for warning in (
            "kazan.xlsx, sheet &#x27;Sheet1&#x27;, row 5, column B</strong>: ZERO WIDTH SPACE (U+200B) removed from "
            "the player&#x27;s name",
            "kazan.xlsx, sheet &#x27;Sheet1&#x27;, row 5, column E</strong>: RIGHT-TO-LEFT OVERRIDE (U+202E) removed "
            "from the club",
            "kazan.xlsx, sheet &#x27;Sheet1&#x27;, row 1</strong>: RIGHT-TO-LEFT OVERRIDE (U+202E) removed from the "
            "tournament&#x27;s name",
            "kazan.xlsx, sheet &#x27;Sheet1&#x27;, row 2</strong>: ZERO WIDTH NO-BREAK SPACE (U+FEFF) removed from "
            "the chief arbiter",
        ):
            self.assertContains(response, warning)

    def test_it_strips_a_pgn(self):
        upload, response = self.upload("blitz.pgn", dirty_pgn())
        self.assert_clean(upload)
        assert upload.preview["file"]["name"] == "Blitz Night"
        self.assertContains(response, "line 1, game 1</strong>: RIGHT-TO-LEFT OVERRIDE (U+202E) removed from the tour")
        self.assertContains(response, "line 1, game 1</strong>: ZERO WIDTH SPACE (U+200B) removed from the player")

    def test_it_strips_the_file_name(self):
        # Django drops unprintable characters of names that come through a form; the import
        # command passes the name of a file on disk as it is.
        upload = services.upload_create(user=self.arbiter, file_name=f"results{RLO}xslx.trf", data=dirty_trf())
        assert upload.original_name == "resultsxslx.trf"
        self.login(self.arbiter)
        response = self.client.get(reverse("arbiter:preview", args=[upload.pk]))
        self.assertContains(response, "RIGHT-TO-LEFT OVERRIDE (U+202E) removed from the file name")

    def test_it_strips_what_the_arbiter_types_in_the_confirm_form(self):
        upload, _ = self.upload("cup.trf", dirty_trf())
        data = {
            "action": "confirm",
            **ConfirmForm(preview=upload.preview).initial,
            "name": f"Cup{RLO} 2026",
            "city": f"Ka{ZWSP}zan",
            "chief_arbiter_name": f"{LRI}Anna",
            "time_control_detail": f"15{SHY}+10",
            "time_control": "rapid",
            "mchess_weight": 250,
        }
        self.client.post(reverse("arbiter:preview", args=[upload.pk]), data)
        tournament = Tournament.objects.get()
        assert (tournament.name, tournament.city, tournament.chief_arbiter_name, tournament.time_control_detail) == (
            "Cup 2026",
            "Kazan",
            "Anna",
            "15+10",
        )
        assert not Club.objects.filter(name__contains=RLO).exists()
