"""What the upload flow says to arbiters: in their language, naming only what is theirs, and the
chief arbiter of the file kept apart from the uploader."""

import ast
import datetime
import re
from pathlib import Path

from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from tests.base import ArbiterTestCase
from tests.players.factories import PlayerFactory
from tests.tournaments.files import example, trf, trf_player, xlsx
from tournaments import services
from tournaments.importers.base import ResultFileError
from tournaments.importers.registry import read_result_file
from tournaments.models import Tournament, Upload

ROOT = Path(__file__).resolve().parents[2]
CATALOGUE = ROOT / "locale" / "ru" / "LC_MESSAGES" / "django.po"
# Every module whose words arbiters read while uploading, previewing and confirming.
UPLOAD_FLOW = [
    *sorted((ROOT / "tournaments" / "importers").glob("*.py")),
    ROOT / "tournaments" / "services.py",
    ROOT / "tournaments" / "arbiters" / "forms.py",
    ROOT / "tournaments" / "arbiters" / "views.py",
    ROOT / "players" / "matching.py",
]
MARKERS = {"gettext_noop", "gettext", "gettext_lazy", "_"}
PLACEHOLDER = re.compile(r"%\(\w+\)s")


def catalogue() -> dict[str, str]:
    """msgid -> msgstr of the Russian catalogue (obsolete #~ entries left out)."""
    entries = {}
    for block in re.split(r"\n\s*\n", CATALOGUE.read_text(encoding="utf-8")):
        lines = [line for line in block.splitlines() if not line.startswith("#")]
        text = "\n".join(lines)
        match = re.search(r"^msgid ((?:\".*\"\n?)+)msgstr ((?:\".*\"\n?)+)", text + "\n", re.M)
        if match:

            def join(part):
                return "".join(ast.literal_eval(piece) for piece in re.findall(r'"(?:[^"\\]|\\.)*"', part))

            entries[join(match.group(1))] = join(match.group(2))
    return entries


def msgids_in(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in MARKERS
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            found.append(node.args[0].value)
    return found


def test_it_has_a_russian_translation_for_every_message_of_the_upload_flow():
    russian = catalogue()
    msgids = {msgid for path in UPLOAD_FLOW for msgid in msgids_in(path)}
    assert len(msgids) > 100
    missing = sorted(msgid for msgid in msgids if not russian.get(msgid))
    assert not missing, missing
    for msgid in msgids:
        assert set(PLACEHOLDER.findall(russian[msgid])) == set(PLACEHOLDER.findall(msgid)), msgid


def test_it_builds_no_importer_message_from_a_formatted_string():
    # A message made with an f-string or % cannot be translated where it is read.
    reporting = {"error", "warn", "note", "refusal", "of", "_fail"}
    for path in (ROOT / "tournaments" / "importers").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name not in reporting:
                continue
            message = node.args[1] if name in ("of", "_fail") and len(node.args) > 1 else node.args[0]
            if name == "of" and isinstance(node.args[0], ast.Constant):
                message = node.args[0]  # Text.of(msgid, ...)
            assert not isinstance(message, ast.JoinedStr | ast.BinOp), f"{path.name}:{node.lineno}"
            if isinstance(message, ast.Constant):
                raise AssertionError(f"{path.name}:{node.lineno}: a message without gettext_noop")


def test_it_translates_every_problem_real_bad_files_give():
    russian = catalogue()
    bad_files = {
        "grenke.xlsx": example("grenke-open-2025-crosstable.xlsx"),
        "bad.trf": trf(
            [
                trf_player(1, "Ivanov,Petr", "18x0", rounds=[(2, "w", "X")]),
                trf_player(1, "Petrov,Ivan", birth="31/31/2014", rounds=[(3, "b", "0")]),
            ]
        ),
        "photo.pdf": b"%PDF-1.4",
        "cells.xlsx": xlsx([["No.", "Name", "Rtg", "1.Rd"], [1, "A  B", "high", "2q9"], [2, "C  D", 1500, "1b0"]]),
    }
    seen = 0
    for name, data in bad_files.items():
        try:
            problems = read_result_file(name, data).problems
        except ResultFileError as refused:
            problems = refused.problems
        for problem in problems:
            seen += 1
            assert russian.get(problem.msgid), problem.msgid
    assert seen > 10


class UploadMessagesTestCase(ArbiterTestCase):
    def post_file(self, name, data, **headers):
        return self.client.post(reverse("arbiter:upload"), {"file": SimpleUploadedFile(name, data)}, **headers)

    def cup(self):
        return trf(
            [
                trf_player(1, "Ivanov,Petr", 1800, birth="2010/01/01", rounds=[(2, "w", "1")]),
                trf_player(2, "Petrov,Ivan", birth="2014/05/17", rounds=[(1, "b", "0")]),
            ],
            header=["012 Spring Cup", "022 Kazan", "042 2026/03/01", "052 2026/03/01", "102 IA Marina Orlova"],
        )

    # --- the same file twice ------------------------------------------------------------------

    def test_it_does_not_name_another_arbiters_upload_of_the_same_file(self):
        first = services.upload_create(user=self.arbiter, file_name="cup.trf", data=self.cup())
        self.login(self.other_arbiter)
        response = self.post_file("mine.trf", self.cup())
        self.assertContains(response, "this very file is in the federation&#x27;s records already", status_code=400)
        self.assertNotContains(response, "uploaded already", status_code=400)
        self.assertNotContains(response, "by arbiter", status_code=400)
        self.assertNotContains(response, f"upload {first.pk}", status_code=400)
        self.assertNotContains(response, reverse("arbiter:preview", args=[first.pk]), status_code=400)
        assert Upload.objects.get() == first

    def test_it_links_the_arbiter_to_his_own_earlier_upload(self):
        first = services.upload_create(user=self.arbiter, file_name="cup.trf", data=self.cup())
        self.login(self.arbiter)
        response = self.post_file("again.trf", self.cup())
        self.assertContains(response, f"by arbiter (upload {first.pk})", status_code=400)
        self.assertContains(response, f'href="{reverse("arbiter:preview", args=[first.pk])}"', status_code=400)

    # --- Russian ------------------------------------------------------------------------------

    def test_it_refuses_a_bad_file_in_russian_with_its_places(self):
        self.login(self.arbiter)
        response = self.post_file("grenke.xlsx", example("grenke-open-2025-crosstable.xlsx"), HTTP_ACCEPT_LANGUAGE="ru")
        assert response.status_code == 400
        self.assertContains(
            response,
            "grenke.xlsx, лист «Sheet1», строка 2, столбец G, тур 1</strong>: соперника на позиции 256 в таблице "
            "нет (участников в ней: 150)",
            status_code=400,
        )
        self.assertContains(response, "похоже, таблица обрезана", status_code=400)
        self.assertNotContains(response, "is not in the table", status_code=400)
        bad = trf([trf_player(1, "Ivanov,Petr", rounds=[(2, "w", "X")]), trf_player(2, "Petrov,Ivan")])
        response = self.post_file("bad.trf", bad, HTTP_ACCEPT_LANGUAGE="ru")
        self.assertContains(
            response,
            "bad.trf, строка 5, столбец 92-99, тур 1</strong>: неизвестный код результата «X»",
            status_code=400,
        )
        response = self.post_file("photo.xlsx", b"\x89PNG\r\n\x1a\n0000", HTTP_ACCEPT_LANGUAGE="ru")
        self.assertContains(response, "это изображение PNG, а не файл результатов", status_code=400)

    def test_it_shows_a_preview_read_in_english_to_a_russian_arbiter_in_russian(self):
        # The preview is built once (in English here, as a worker might) and read in the reader's language.
        with translation.override("en"):
            upload = services.upload_create(user=self.arbiter, file_name="km.trf", data=example("karl-mala-2005.trf"))
            pgn = services.upload_create(
                user=self.arbiter,
                file_name="g.pgn",
                data=b'[Event "E"]\n[Round "1"]\n[White "A, B"]\n[Black "C, D"]\n[Result "1-0"]\n\n1. e4 1-0\n',
            )
        self.login(self.arbiter)
        response = self.client.get(reverse("arbiter:preview", args=[upload.pk]), HTTP_ACCEPT_LANGUAGE="ru")
        self.assertContains(response, "km.trf, строка 26</strong>: у Bakhmatov, Eduard нет ни одной сыгранной партии")
        self.assertContains(response, "нет ни одной сыгранной партии: для него ничего не будет обсчитано")
        self.assertContains(response, "(стартовый номер 284) — не участник, а заглушка жеребьёвочной программы")
        self.assertNotContains(response, "has no played game")
        response = self.client.get(reverse("arbiter:preview", args=[pgn.pk]), HTTP_ACCEPT_LANGUAGE="ru")
        self.assertContains(response, "В PGN нет свободных от игры, неявок и пропусков туров")
        response = self.client.get(reverse("arbiter:preview", args=[upload.pk]), HTTP_ACCEPT_LANGUAGE="en")
        self.assertContains(response, "has no played game: nothing of his will be rated")

    def test_it_names_the_kind_of_spreadsheet_in_russian(self):
        rows = [["Starting rank"], ["No.", "Name", "Rtg"], [1, "Smirnov  Petr", 1450], [2, "Kozlova  Maria", 1320]]
        upload = services.upload_create(user=self.arbiter, file_name="list.xlsx", data=xlsx(rows))
        self.login(self.arbiter)
        response = self.client.get(reverse("arbiter:preview", args=[upload.pk]), HTTP_ACCEPT_LANGUAGE="ru")
        self.assertContains(response, "стартовый список")
        self.assertNotContains(response, "starting-rank list")

    def test_it_says_how_players_were_found_in_russian(self):
        PlayerFactory(family_name="Ivanov", given_names="Petr", birth_date=None, birth_precision="unknown")
        PlayerFactory(family_name="Petrov", given_names="Ivan", birth_date=datetime.date(2014, 5, 17))
        upload = services.upload_create(user=self.arbiter, file_name="cup.trf", data=self.cup())
        self.login(self.arbiter)
        response = self.client.get(reverse("arbiter:preview", args=[upload.pk]), HTTP_ACCEPT_LANGUAGE="ru")
        self.assertContains(response, "(то же имя, даты рождения для сравнения нет)")
        self.assertContains(response, "по имени и дате рождения")
        self.assertNotContains(response, "birth date not known")

    # --- the chief arbiter of the file --------------------------------------------------------

    def confirm(self, upload):
        url = reverse("arbiter:preview", args=[upload.pk])
        form = self.client.get(url).context["form"]
        data = {key: value for key, value in form.initial.items() if value not in (None, False)}
        self.client.post(url, {**data, "action": "confirm", "time_control": "rapid"})
        return Tournament.objects.get()

    def test_it_keeps_the_chief_arbiter_of_a_trf_apart_from_the_uploader(self):
        self.login(self.arbiter)
        self.post_file("cup.trf", self.cup())
        tournament = self.confirm(Upload.objects.get())
        assert tournament.chief_arbiter_name == "IA Marina Orlova"
        assert tournament.chief_arbiter == self.arbiter  # the uploader, in charge on the site
        assert Upload.objects.get().uploaded_by == self.arbiter
        public = self.client.get(tournament.get_absolute_url())
        self.assertContains(public, '<dd id="chief-arbiter"><bdi>IA Marina Orlova</bdi></dd>', html=False)
        area = self.client.get(reverse("arbiter:tournament", args=[tournament.pk]))
        self.assertContains(area, '<dd id="chief-arbiter">IA Marina Orlova</dd>', html=False)
        self.assertContains(area, "Anna")  # the uploader's account, shown apart
        listed = self.client.get(reverse("tournaments:list"), {"arbiter": "orlova"})
        self.assertContains(listed, '<td class="minor"><bdi>IA Marina Orlova</bdi></td>', html=False)
        self.assertContains(listed, "Spring Cup")

    def test_it_keeps_the_chief_arbiter_of_a_spreadsheet_header(self):
        rows = [
            ["Kazan Open"],
            ["Chief Arbiter : FA Ivanova Anna"],
            ["Date : 2026/03/01"],
            ["Starting rank crosstable"],
            ["No.", "Name", "Rtg", "1.Rd", "Pts"],
            [1, "Smirnov  Petr", 1450, "2w1", 1],
            [2, "Kozlova  Maria", 1320, "1b0", 0],
        ]
        upload = services.upload_create(user=self.other_arbiter, file_name="kazan.xlsx", data=xlsx(rows))
        tournament = services.tournament_confirm(
            upload=upload, user=self.other_arbiter, details=services.details_from_file(upload.preview["file"])
        )
        tournament.refresh_from_db()
        assert (tournament.chief_arbiter_name, tournament.chief_arbiter) == ("FA Ivanova Anna", self.other_arbiter)
        self.assertContains(self.client.get(tournament.get_absolute_url()), "FA Ivanova Anna")
