"""An uploaded FIDE-rated tournament: an entrant with a FIDE id but no rating in the file gets the
stored FIDE list's rating (ORR rates such tournaments with FIDE ratings), and the preview says so."""

import datetime
from pathlib import Path

from django.core.management import call_command
from django.urls import reverse

from tests.base import ArbiterTestCase
from tests.players.factories import PlayerFactory
from tests.tournaments.files import trf, trf_player
from tournaments import services
from tournaments.models import Participant

DATA = Path(__file__).resolve().parents[1] / "data" / "fide"


NOVEMBER = ["012 Test Cup", "022 Kazan", "042 2026/11/01", "052 2026/11/03"]


def cup(header=NOVEMBER) -> bytes:
    """Dated after the stored list's month (October 2026) unless told otherwise."""
    return trf(
        header=header,
        lines=[
            # Carlsen: FIDE id in the file, no rating; Ding: rating in the file; Petrov: no FIDE id
            # in the file but the federation's player has one (unrated in the standard list).
            trf_player(1, "Carlsen,Magnus", "", "NOR", 1503014, rounds=[(2, "w", "1")]),
            trf_player(2, "Ding,Liren", 2700, "CHN", 8603677, rounds=[(1, "b", "0")]),
            trf_player(3, "Kostenko,Sergei", "", "KAZ", "", "1961/05/10", rounds=[(4, "w", "=")]),
            trf_player(4, "Zubov,Yuri", "", "RUS", "", "2012/01/02", rounds=[(3, "b", "=")]),
        ],
    )


class FideListUploadTestCase(ArbiterTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        PlayerFactory(
            family_name="Kostenko", given_names="Sergei", birth_date=datetime.date(1961, 5, 10), fide_id=4100018
        )

    def setUp(self):
        call_command("import_fide_list", str(DATA / "standard_oct26frl.txt"))

    def details(self, fide_rated, start=datetime.date(2026, 11, 1), time_control="classical"):
        return services.TournamentDetails(
            name="Cup", start_date=start, end_date=start + datetime.timedelta(days=2), rounds=1,
            fide_rated=fide_rated, time_control=time_control,
        )  # fmt: skip

    def test_it_says_per_player_what_the_list_supplies(self):
        upload = services.upload_create(user=self.arbiter, file_name="cup.trf", data=cup())
        self.login(self.arbiter)
        response = self.client.get(reverse("arbiter:preview", args=[upload.pk]))
        rows = {p["start_number"]: p.get("fide_list") for p, *_ in response.context["form"].player_fields}
        assert rows == {1: (2823, datetime.date(2026, 10, 1)), 2: None, 3: (2310, datetime.date(2026, 10, 1)),
                        4: None}  # fmt: skip
        self.assertContains(response, "from the FIDE list of 2026-10, if the tournament is FIDE-rated", count=2)
        response = self.client.get(reverse("arbiter:preview", args=[upload.pk]), HTTP_ACCEPT_LANGUAGE="ru")
        self.assertContains(response, "из списка ФИДЕ за 2026-10, если турнир с обсчётом ФИДЕ", count=2)

    def test_it_supplies_the_rating_to_a_fide_rated_tournament(self):
        upload = services.upload_create(user=self.arbiter, file_name="cup.trf", data=cup())
        tournament = services.tournament_confirm(upload=upload, user=self.arbiter, details=self.details(True))
        ratings = dict(
            Participant.objects.filter(tournament=tournament).values_list("start_number", "fide_rating_in_file")
        )
        assert ratings == {1: 2823, 2: 2700, 3: 2310, 4: None}

    def test_it_leaves_a_tournament_that_is_not_fide_rated_as_the_file_says(self):
        upload = services.upload_create(user=self.arbiter, file_name="cup.trf", data=cup())
        tournament = services.tournament_confirm(upload=upload, user=self.arbiter, details=self.details(False))
        ratings = dict(
            Participant.objects.filter(tournament=tournament).values_list("start_number", "fide_rating_in_file")
        )
        assert ratings == {1: None, 2: 2700, 3: None, 4: None}

    def carlsen_in(self, time_control):
        upload = services.upload_create(user=self.arbiter, file_name=f"{time_control}.trf", data=cup())
        tournament = services.tournament_confirm(
            upload=upload, user=self.arbiter, details=self.details(True, time_control=time_control)
        )
        return Participant.objects.get(tournament=tournament, start_number=1).fide_rating_in_file

    def test_it_takes_nothing_from_the_standard_list_for_a_rapid_tournament(self):
        """The stored list is the standard one: a rapid tournament's entrants' FIDE ratings are the
        rapid list's, which is not stored here."""
        assert self.carlsen_in("rapid") is None

    def test_it_takes_nothing_from_the_standard_list_for_a_blitz_tournament(self):
        assert self.carlsen_in("blitz") is None

    def test_it_takes_the_standard_list_for_a_classical_tournament(self):
        assert self.carlsen_in("classical") == 2823

    def test_it_takes_no_rating_from_a_list_published_after_the_tournament(self):
        """The October 2026 list did not exist in March: its rating is not the one the entrant had."""
        march = ["012 Test Cup", "022 Kazan", "042 2026/03/01", "052 2026/03/03"]
        upload = services.upload_create(user=self.arbiter, file_name="march.trf", data=cup(march))
        self.login(self.arbiter)
        response = self.client.get(reverse("arbiter:preview", args=[upload.pk]))
        assert all(p.get("fide_list") is None for p, *_ in response.context["form"].player_fields)
        tournament = services.tournament_confirm(
            upload=upload, user=self.arbiter, details=self.details(True, start=datetime.date(2026, 3, 1))
        )
        ratings = dict(
            Participant.objects.filter(tournament=tournament).values_list("start_number", "fide_rating_in_file")
        )
        assert ratings == {1: None, 2: 2700, 3: None, 4: None}
