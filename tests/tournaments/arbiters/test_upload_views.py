"""The arbiter's upload flow through the views, for every persona."""

from django.urls import reverse

from players.models import Player
from tests.base import ArbiterTestCase
from tests.players.factories import PlayerFactory
from tests.tournaments.files import example, small_trf
from tournaments import services
from tournaments.models import Tournament, Upload


class UploadViewsTestCase(ArbiterTestCase):
    def confirm_data(self, **extra):
        return {
            "action": "confirm",
            "name": "Spring Cup",
            "city": "Kazan",
            "start_date": "2026-03-01",
            "end_date": "2026-03-01",
            "rounds": 1,
            "time_control": "rapid",
            "time_control_detail": "15+10",
            "mchess_weight": 250,
            "rate_mchess": "on",
            "rate_playchess": "on",
            **extra,
        }

    def test_it_sends_the_anonymous_to_log_in(self):
        for url in (reverse("arbiter:upload"), reverse("arbiter:preview", args=[1])):
            response = self.client.get(url)
            assert response.status_code == 302
            assert response["Location"].startswith(reverse("login"))

    def test_it_keeps_players_and_parents_out(self):
        self.login(self.player_user)
        assert self.client.get(reverse("arbiter:upload")).status_code == 403
        assert self.post_file("a.trf", small_trf()).status_code == 403
        assert not Upload.objects.exists()
        self.assertContains(self.client.get(reverse("arbiter:home")), "not an arbiter")

    def test_it_runs_upload_preview_confirm(self):
        self.login(self.arbiter)
        response = self.post_file("cup.trf", small_trf())
        upload = Upload.objects.get()
        self.assertRedirects(response, reverse("arbiter:preview", args=[upload.pk]))
        response = self.client.get(reverse("arbiter:preview", args=[upload.pk]))
        self.assertContains(response, "Ivanov")
        self.assertContains(response, "new player")
        self.assertContains(response, 'id="crosstable"')
        self.assertContains(response, "2w1")  # Ivanov's round 1 cell
        self.assertContains(response, "Birth date of Ivanov, Petr")  # the file has no birth date for him
        self.assertContains(response, "ORR uses the players")
        response = self.client.post(
            reverse("arbiter:preview", args=[upload.pk]), self.confirm_data(birth_1="2013"), follow=True
        )
        tournament = Tournament.objects.get()
        self.assertContains(response, "Spring Cup is saved with 1 game")
        assert (tournament.time_control, tournament.time_control_detail, tournament.city) == ("rapid", "15+10", "Kazan")
        assert Player.objects.get(family_name="Ivanov").birth_year == 2013
        self.assertContains(self.client.get(reverse("arbiter:home")), "Spring Cup")

    def test_it_offers_a_choice_for_a_namesake(self):
        namesake = PlayerFactory(family_name="Иванов", given_names="Пётр", birth_date=None, birth_precision="unknown")
        self.login(self.arbiter)
        self.post_file("cup.trf", small_trf())
        upload = Upload.objects.get()
        url = reverse("arbiter:preview", args=[upload.pk])
        response = self.client.get(url)
        self.assertContains(response, "Who is Ivanov, Petr?")
        self.assertContains(response, f'value="{namesake.pk}"')
        response = self.client.post(url, self.confirm_data())
        assert response.status_code == 400
        assert "player_1" in response.context["form"].errors
        self.client.post(url, self.confirm_data(player_1=str(namesake.pk)))
        assert Tournament.objects.get().participants.get(start_number=1).player == namesake

    def test_it_shows_bad_files_with_their_places_and_saves_nothing(self):
        self.login(self.arbiter)
        response = self.post_file("grenke.xlsx", example("grenke-open-2025-crosstable.xlsx"))
        assert response.status_code == 400
        self.assertContains(response, "nothing was saved", status_code=400)
        self.assertContains(response, "row 2, column G, round 1", status_code=400)
        response = self.post_file("photo.xlsx", b"\x89PNG\r\n\x1a\n0000")
        self.assertContains(response, "this is a PNG image, not a result file", status_code=400)
        assert not Upload.objects.exists()

    def test_it_hides_an_upload_from_other_arbiters(self):
        upload = services.upload_create(user=self.arbiter, file_name="cup.trf", data=small_trf())
        self.login(self.other_arbiter)
        url = reverse("arbiter:preview", args=[upload.pk])
        assert self.client.get(url).status_code == 404
        assert self.client.post(url, self.confirm_data()).status_code == 404
        assert self.client.post(url, {"action": "cancel"}).status_code == 404
        assert Upload.objects.filter(pk=upload.pk, status="preview").exists()
        self.assertNotContains(self.client.get(reverse("arbiter:home")), "cup.trf")

    def test_it_lets_a_federation_admin_see_every_upload(self):
        upload = services.upload_create(user=self.arbiter, file_name="cup.trf", data=small_trf())
        self.login(self.admin)
        assert self.client.get(reverse("arbiter:preview", args=[upload.pk])).status_code == 200

    def test_it_cancels_an_upload(self):
        upload = services.upload_create(user=self.arbiter, file_name="cup.trf", data=small_trf())
        self.login(self.arbiter)
        response = self.client.post(reverse("arbiter:preview", args=[upload.pk]), {"action": "cancel"}, follow=True)
        self.assertContains(response, "nothing was saved")
        assert not Upload.objects.exists()

    def test_it_registers_a_player_list(self):
        upload = services.upload_create(user=self.arbiter, file_name="aicf.xls", data=example("aicf-starting-rank.xls"))
        self.login(self.arbiter)
        url = reverse("arbiter:preview", args=[upload.pk])
        response = self.client.get(url)
        self.assertContains(response, "Register these players")
        self.assertNotContains(response, 'id="crosstable"')
        self.client.post(url, {"action": "confirm"})
        assert Player.objects.count() == 150

    def test_it_refuses_an_end_before_the_start(self):
        upload = services.upload_create(user=self.arbiter, file_name="cup.trf", data=small_trf())
        self.login(self.arbiter)
        response = self.client.post(
            reverse("arbiter:preview", args=[upload.pk]), self.confirm_data(end_date="2026-02-01")
        )
        assert response.status_code == 400
        assert "end_date" in response.context["form"].errors
        assert not Tournament.objects.exists()

    def test_it_speaks_russian_to_a_russian_arbiter(self):
        upload = services.upload_create(user=self.arbiter, file_name="cup.trf", data=small_trf())
        self.login(self.arbiter)
        response = self.client.get(reverse("arbiter:preview", args=[upload.pk]), HTTP_ACCEPT_LANGUAGE="ru")
        self.assertContains(response, "Ничего не сохраняется и не обсчитывается, пока вы не подтвердите.")
        self.assertContains(response, "Подтвердить и поставить в очередь на обсчёт")

    def test_it_tells_which_file_each_pairing_program_gives(self):
        self.login(self.arbiter)
        page = self.client.get(reverse("arbiter:upload"))
        for text in (
            "Swiss-Manager",
            ".TUMX (teams",
            "Final ranking crosstable",
            "Cross table by score",
            ".sco and .ini",
        ):
            self.assertContains(page, text)
        russian = self.client.get(reverse("arbiter:upload"), HTTP_ACCEPT_LANGUAGE="ru")
        self.assertContains(russian, "Какой файл загружать из вашей жеребьёвочной программы")
        self.assertContains(russian, "выбранные вместе в окне выбора файлов")

    def test_it_does_not_query_per_player_in_the_preview(self):
        upload = services.upload_create(user=self.arbiter, file_name="km.trf", data=example("karl-mala-2005.trf"))
        self.login(self.arbiter)
        # session, user, the user's and his groups' permissions, the upload; the prediction: the last
        # rated tournament's end (all 283 players are new: no standing or FIDE approval to read)
        with self.assertNumQueries(6):
            self.client.get(reverse("arbiter:preview", args=[upload.pk]))
