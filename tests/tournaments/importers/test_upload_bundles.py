"""Swiss Perfect's three files chosen together in the upload form (issue 18), and other choices of
several files, which are refused."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.base import ArbiterTestCase
from tests.tournaments.files import example, small_trf
from tournaments.importers.base import ResultFileError
from tournaments.importers.bundles import combine
from tournaments.importers.registry import read_result_file
from tournaments.models import Upload

SP = {role: example(f"sp-gonzaga-2010.{role}") for role in ("trn", "sco", "ini")}


def chosen(*roles, names=None):
    names = names or {role: f"gonzaga.{role}" for role in roles}
    return [(names[role], SP[role]) for role in roles]


def test_it_reads_the_three_files_chosen_together_like_the_export():
    name, data = combine(chosen("trn", "sco", "ini"))
    assert name == "gonzaga.trn, gonzaga.sco, gonzaga.ini"
    together = read_result_file(name, data)
    export = read_result_file("gonzaga.txt", example("sp-gonzaga-2010-export.txt"))
    assert not together.errors
    assert (together.name, together.rounds, len(together.players)) == (
        "Gonzaga Chess Classic 2010 Challengers Section",
        6,
        56,
    )
    played = {(g.round, g.white, g.black, g.result) for g in together.games}
    assert len(played) == len(together.games) > 150
    assert {p.start_number: p.points for p in export.players} == {
        p.start_number: sum(g.points(p.start_number) for g in together.games if p.start_number in (g.white, g.black))
        for p in together.players
    }


def test_it_tells_the_files_apart_by_their_content_not_their_names():
    # Renamed and in another order: the tables' fields and the settings' sections decide.
    names = {"trn": "b.dat", "sco": "a.dat", "ini": "c.txt"}
    _, data = combine(chosen("ini", "sco", "trn", names=names))
    assert len(read_result_file("x", data).players) == 56
    # The same three files make the same bytes, so a second upload of them is refused as the same file.
    assert combine(chosen("sco", "trn", "ini"))[1] == combine(chosen("trn", "ini", "sco"))[1]


def test_it_refuses_the_players_and_settings_without_the_games():
    with pytest.raises(ResultFileError) as refused:
        combine(chosen("trn", "ini"))
    assert [str(p) for p in refused.value.problems] == [
        "gonzaga.trn, gonzaga.ini: these Swiss Perfect files lack the .sco table; choose the .trn, .sco and .ini "
        "files of the tournament together"
    ]


def test_it_refuses_several_files_that_are_not_one_swiss_perfect_tournament():
    for files in ([("a.trf", small_trf()), ("b.trf", small_trf())], [*chosen("trn", "sco"), ("c.trf", small_trf())]):
        with pytest.raises(ResultFileError) as refused:
            combine(files)
        assert [p.code for p in refused.value.problems] == ["several_files"]
        assert "upload one result file at a time" in str(refused.value)


def test_it_says_what_a_lone_swiss_perfect_table_lacks():
    for role in ("trn", "sco"):
        with pytest.raises(ResultFileError) as refused:
            read_result_file(f"gonzaga.{role}", SP[role])
        assert refused.value.problems[0].message == (
            "this is one table of Swiss Perfect (the players' .trn or the games' .sco) alone; choose the .trn, .sco "
            "and .ini files of the tournament together, or upload them zipped"
        )


class ChosenTogetherTestCase(ArbiterTestCase):
    def post_files(self, *roles):
        files = [SimpleUploadedFile(f"gonzaga.{role}", SP[role]) for role in roles]
        return self.client.post(reverse("arbiter:upload"), {"file": files})

    def test_it_previews_the_three_files_chosen_together(self):
        self.login(self.arbiter)
        form = self.client.get(reverse("arbiter:upload"))
        self.assertContains(form, 'type="file" name="file" multiple')
        response = self.post_files("trn", "sco", "ini")
        upload = Upload.objects.get()
        self.assertRedirects(response, reverse("arbiter:preview", args=[upload.pk]))
        assert (upload.original_name, upload.format) == ("gonzaga.trn, gonzaga.sco, gonzaga.ini", "sp")
        self.assertContains(self.client.get(reverse("arbiter:preview", args=[upload.pk])), "Gonzaga Chess Classic")
        # The same three again are the same file.
        again = self.post_files("sco", "ini", "trn")
        assert again.status_code == 400
        assert Upload.objects.count() == 1

    def test_it_refuses_two_files_of_another_kind_and_saves_nothing(self):
        self.login(self.arbiter)
        files = [SimpleUploadedFile("a.trf", small_trf()), SimpleUploadedFile("gonzaga.trn", SP["trn"])]
        response = self.client.post(reverse("arbiter:upload"), {"file": files})
        self.assertContains(response, "upload one result file at a time", status_code=400)
        self.assertContains(response, "a.trf, gonzaga.trn", status_code=400)
        assert not Upload.objects.exists()

    def test_it_asks_for_a_file_when_none_is_chosen(self):
        self.login(self.arbiter)
        # A browser posts its CSRF token with the form: the form is bound even without a file.
        response = self.client.post(reverse("arbiter:upload"), {"file": [], "csrfmiddlewaretoken": "x"})
        self.assertContains(response, "This field is required.", status_code=400)
        assert not Upload.objects.exists()
