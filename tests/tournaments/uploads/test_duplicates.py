"""A tournament uploaded again (one byte changed) is recognised by its games, refused unless the
arbiter says it replaces the earlier one, and then rated once (issue #13)."""

import datetime

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse
from django.utils import translation

from accounts.models import AuditEntry
from accounts.roles import FEDERATION_ADMINS
from players.models import Player
from ratings import services as rating_services
from ratings.models import PlayerRating, RatingChange
from tests.base import ArbiterTestCase
from tests.tournaments.files import trf, trf_player
from tournaments import services
from tournaments.models import Tournament, Upload
from tournaments.selectors import preview_duplicates
from tournaments.uploads.duplicates import duplicates_of_preview

pytestmark = pytest.mark.django_db

D = datetime.date
NAMES = ["Adams,Ann", "Brown,Bob", "Clark,Cid", "Drake,Dan", "Evans,Eve", "Flynn,Fay", "Green,Gus", "Hayes,Hal"]
# Three rounds of four boards: (white, black) by start number.
CUP = [[(1, 5), (2, 6), (3, 7), (4, 8)], [(3, 1), (4, 2), (7, 5), (8, 6)], [(1, 2), (3, 4), (5, 6), (7, 8)]]
# Another tournament of the same eight players: two of its twelve games are games of CUP (1-5 and 2-6).
OTHER = [[(1, 8), (2, 7), (3, 6), (4, 5)], [(5, 1), (6, 2), (7, 3), (8, 4)], [(1, 5), (2, 6), (8, 3), (7, 4)]]


def event(pairings, *, name="Club Cup", start="2026/03/01", end="2026/03/03", rating=1500, extra=""):
    """A TRF of eight players with birth dates (so a second upload matches them); white always wins."""
    cells = {n: [] for n in range(1, 9)}
    for games in pairings:
        for white, black in games:
            cells[white].append((black, "w", "1"))
            cells[black].append((white, "b", "0"))
    lines = [
        trf_player(n, NAMES[n - 1], rating if n == 1 else 1400, birth=f"{2010 + n}/03/0{n}", rounds=cells[n]) + extra
        for n in range(1, 9)
    ]
    return trf(lines, header=[f"012 {name}", "022 Kazan", f"042 {start}", f"052 {end}"])


def details(name="Club Cup", start=None, end=None):
    start, end = start or D(2026, 3, 1), end or D(2026, 3, 3)
    return services.TournamentDetails(name=name, start_date=start, end_date=end, rounds=3)


@pytest.fixture
def arbiters(django_user_model):
    group = Group.objects.get(name="Arbiters")
    users = {}
    for name in ("arbiter", "other_arbiter"):
        users[name] = django_user_model.objects.create_user(name, password="x")
        users[name].groups.add(group)
    users["federation"] = django_user_model.objects.create_user("federation", password="x")
    users["federation"].groups.add(group, Group.objects.get(name=FEDERATION_ADMINS))
    return users


def confirm(user, data, name="cup.trf", **kwargs):
    upload = services.upload_create(user=user, file_name=name, data=data)
    return services.tournament_confirm(upload=upload, user=user, details=details(), **kwargs)


def state():
    return (Tournament.objects.count(), Player.objects.count(), AuditEntry.objects.count())


def test_it_recognises_the_same_file_with_one_rating_changed(arbiters):
    earlier = confirm(arbiters["arbiter"], event(CUP))
    upload = services.upload_create(user=arbiters["arbiter"], file_name="cup2.trf", data=event(CUP, rating=1501))
    [duplicate] = duplicates_of_preview(upload.preview)
    assert duplicate.tournament == earlier
    assert (duplicate.same, duplicate.found, duplicate.games) == (True, 12, 12)
    before = state()
    with pytest.raises(services.ConfirmError, match="holds this tournament already: Club Cup"):
        services.tournament_confirm(upload=upload, user=arbiters["arbiter"], details=details())
    assert state() == before
    assert Upload.objects.get(pk=upload.pk).status == Upload.Status.PREVIEW


def test_it_recognises_trailing_spaces_another_name_and_shifted_dates_as_likely_the_same(arbiters):
    earlier = confirm(arbiters["arbiter"], event(CUP))
    data = event(CUP, name="Kazan Club Cup", start="2026/03/02", end="2026/03/04", extra=" ")
    upload = services.upload_create(user=arbiters["arbiter"], file_name="again.trf", data=data)
    [duplicate] = duplicates_of_preview(upload.preview)
    assert (duplicate.tournament, duplicate.same, duplicate.found) == (earlier, False, 12)


def test_it_recognises_the_same_name_on_other_dates_as_likely_the_same(arbiters):
    earlier = confirm(arbiters["arbiter"], event(CUP))
    data = event(CUP, name="club  cup", start="2027/03/01", end="2027/03/03")
    upload = services.upload_create(user=arbiters["arbiter"], file_name="again.trf", data=data)
    assert [d.tournament for d in duplicates_of_preview(upload.preview)] == [earlier]


def test_it_lets_the_same_pairing_table_played_again_on_other_days_through(arbiters):
    """A club's round robin next month: same players, same table, same results, but another event."""
    confirm(arbiters["arbiter"], event(CUP))
    data = event(CUP, name="Club Cup, April", start="2026/04/01", end="2026/04/03")
    upload = services.upload_create(user=arbiters["arbiter"], file_name="april.trf", data=data)
    assert duplicates_of_preview(upload.preview) == []


def test_it_recognises_a_re_upload_whose_players_are_still_to_choose(arbiters):
    """Without birth dates a second upload only offers the namesakes: they still count."""
    earlier = confirm(arbiters["arbiter"], event(CUP).replace(b"2011/03/01", b"          "))
    upload = services.upload_create(
        user=arbiters["arbiter"], file_name="b.trf", data=event(CUP, rating=1600).replace(b"2011/03/01", b"          ")
    )
    assert upload.preview["matches"]["1"]["status"] == "ambiguous"
    assert [d.tournament for d in duplicates_of_preview(upload.preview)] == [earlier]


def test_it_lets_a_different_tournament_with_a_few_shared_pairings_through(arbiters):
    confirm(arbiters["arbiter"], event(CUP))
    upload = services.upload_create(user=arbiters["arbiter"], file_name="other.trf", data=event(OTHER))
    assert all(m["status"] == "matched" for m in upload.preview["matches"].values())
    assert duplicates_of_preview(upload.preview) == []
    services.tournament_confirm(upload=upload, user=arbiters["arbiter"], details=details(name="Club Cup"))
    assert Tournament.objects.exclude(status="withdrawn").count() == 2


def test_it_ignores_a_withdrawn_tournament(arbiters):
    from tournaments.corrections.services import tournament_withdraw

    earlier = confirm(arbiters["arbiter"], event(CUP))
    tournament_withdraw(tournament=earlier, admin=arbiters["federation"], reason="entered by mistake")
    upload = services.upload_create(user=arbiters["arbiter"], file_name="b.trf", data=event(CUP, rating=1501))
    assert duplicates_of_preview(upload.preview) == []


def test_it_replaces_the_earlier_tournament_and_rates_the_history_as_if_uploaded_once(
    arbiters, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        earlier = confirm(arbiters["arbiter"], event(CUP))
    assert Tournament.objects.get(pk=earlier.pk).status == Tournament.Status.RATED
    once = RatingChange.objects.count()
    ratings = sorted(PlayerRating.objects.exclude(system="gcr").values_list("player_id", "system", "rating"))
    assert once == 8 * 3

    upload = services.upload_create(user=arbiters["arbiter"], file_name="b.trf", data=event(CUP, rating=1501))
    with django_capture_on_commit_callbacks(execute=True):
        tournament = services.tournament_confirm(
            upload=upload, user=arbiters["arbiter"], details=details(), replaces=earlier.pk
        )
    earlier.refresh_from_db()
    tournament.refresh_from_db()
    assert earlier.status == Tournament.Status.WITHDRAWN
    assert "replaced by" in earlier.status_detail
    assert tournament.status == Tournament.Status.RATED
    assert RatingChange.objects.count() == once
    assert not RatingChange.objects.filter(tournament=earlier).exists()
    assert sorted(PlayerRating.objects.exclude(system="gcr").values_list("player_id", "system", "rating")) == ratings
    actions = set(AuditEntry.objects.values_list("action", "object_id"))
    assert {("tournament_withdrawn", str(earlier.pk)), ("tournament_replaced", str(tournament.pk))} <= actions
    assert Player.objects.count() == 8


def test_it_re_rates_from_the_earlier_of_the_two_dates(arbiters, django_capture_on_commit_callbacks):
    """The re-upload moves the tournament a week earlier: the history from there is rated again, exactly as
    a full re-rating of the history as it now stands would rate it."""
    from tests.ratings.scenario import results_snapshot

    with django_capture_on_commit_callbacks(execute=True):
        earlier = confirm(arbiters["arbiter"], event(CUP))
        upload = services.upload_create(user=arbiters["arbiter"], file_name="other.trf", data=event(OTHER))
        later = services.tournament_confirm(
            upload=upload, user=arbiters["arbiter"], details=details(start=D(2026, 3, 10), end=D(2026, 3, 12))
        )
    upload = services.upload_create(user=arbiters["arbiter"], file_name="b.trf", data=event(CUP, rating=1501))
    with django_capture_on_commit_callbacks(execute=True):
        tournament = services.tournament_confirm(
            upload=upload,
            user=arbiters["arbiter"],
            details=details(start=D(2026, 2, 22), end=D(2026, 2, 24)),
            replaces=earlier.pk,
        )
    assert set(Tournament.objects.filter(status="rated").values_list("pk", flat=True)) == {tournament.pk, later.pk}
    assert RatingChange.objects.count() == 2 * 8 * 3
    stored = results_snapshot()
    rating_services.rerate_since(since=None)
    assert results_snapshot() == stored


def test_it_refuses_to_replace_for_another_arbiter_who_must_ask_the_federation(arbiters):
    earlier = confirm(arbiters["arbiter"], event(CUP))
    other = arbiters["other_arbiter"]
    upload = services.upload_create(user=other, file_name="b.trf", data=event(CUP, rating=1501))
    [duplicate] = preview_duplicates(upload=upload, user=other)
    assert (duplicate.tournament, duplicate.may_replace, duplicate.public) == (earlier, False, True)
    before = state()
    with pytest.raises(services.ConfirmError, match="ask the federation"):
        services.tournament_confirm(upload=upload, user=other, details=details())
    with pytest.raises(services.ConfirmError, match="ask the federation"):
        services.tournament_confirm(upload=upload, user=other, details=details(), replaces=earlier.pk)
    assert state() == before
    assert Tournament.objects.get(pk=earlier.pk).status == Tournament.Status.QUEUED


def test_it_lets_the_federation_replace_any_arbiters_tournament(arbiters):
    earlier = confirm(arbiters["arbiter"], event(CUP))
    admin = arbiters["federation"]
    upload = services.upload_create(user=admin, file_name="b.trf", data=event(CUP, rating=1501))
    assert preview_duplicates(upload=upload, user=admin)[0].may_replace
    services.tournament_confirm(upload=upload, user=admin, details=details(), replaces=earlier.pk)
    assert Tournament.objects.get(pk=earlier.pk).status == Tournament.Status.WITHDRAWN


def test_it_refuses_to_replace_a_tournament_the_file_does_not_repeat(arbiters):
    unrelated = confirm(arbiters["arbiter"], event(OTHER), name="other.trf")
    upload = services.upload_create(user=arbiters["arbiter"], file_name="b.trf", data=event(CUP[1:2]))
    with pytest.raises(services.ConfirmError, match="nothing to replace"):
        services.tournament_confirm(upload=upload, user=arbiters["arbiter"], details=details(), replaces=unrelated.pk)
    assert Tournament.objects.get(pk=unrelated.pk).status == Tournament.Status.QUEUED


class DuplicateViewsTestCase(ArbiterTestCase):
    def confirm_data(self, **extra):
        return {
            "action": "confirm",
            "name": "Club Cup",
            "start_date": "2026-03-01",
            "end_date": "2026-03-03",
            "rounds": 3,
            "time_control": "classical",
            "mchess_weight": 250,
            **extra,
        }

    def test_it_shows_the_duplicate_and_confirms_only_with_the_explicit_choice(self):
        earlier = confirm(self.arbiter, event(CUP))
        upload = services.upload_create(user=self.arbiter, file_name="b.trf", data=event(CUP, rating=1501))
        self.login(self.arbiter)
        url = reverse("arbiter:preview", args=[upload.pk])
        response = self.client.get(url)
        self.assertContains(response, "The federation holds this tournament already")
        self.assertContains(response, f'href="{reverse("tournaments:detail", args=[earlier.pk])}"')
        self.assertContains(response, "12 of this file's 12 games (100 %) are its games")
        self.assertContains(response, f'name="replaces" value="{earlier.pk}"')
        self.assertNotContains(response, "checked>\n it replaces")  # never preselected

        response = self.client.post(url, self.confirm_data())
        self.assertContains(response, "Say that this upload replaces it", status_code=400)
        response = self.client.post(url, self.confirm_data(replaces=""))
        assert response.status_code == 400
        assert Tournament.objects.count() == 1

        response = self.client.post(url, self.confirm_data(replaces=str(earlier.pk)), follow=True)
        self.assertContains(response, "Club Cup is saved with 12 games")
        assert Tournament.objects.get(pk=earlier.pk).status == Tournament.Status.WITHDRAWN
        assert Tournament.objects.exclude(pk=earlier.pk).get().status == Tournament.Status.QUEUED

    def test_it_shows_another_arbiter_the_duplicate_but_lets_only_the_federation_replace_it(self):
        earlier = confirm(self.arbiter, event(CUP))
        upload = services.upload_create(user=self.other_arbiter, file_name="b.trf", data=event(CUP, rating=1501))
        self.login(self.other_arbiter)
        url = reverse("arbiter:preview", args=[upload.pk])
        response = self.client.get(url)
        self.assertContains(response, f'href="{reverse("tournaments:detail", args=[earlier.pk])}"')
        self.assertContains(response, "Only its arbiter or the federation can replace it: ask the federation")
        self.assertNotContains(response, 'name="replaces"')
        response = self.client.post(url, self.confirm_data(replaces=str(earlier.pk)))
        self.assertContains(response, "ask the federation", status_code=400)
        assert Tournament.objects.get().status == Tournament.Status.QUEUED

        self.login(self.admin)
        response = self.client.get(url)
        self.assertContains(response, f'name="replaces" value="{earlier.pk}"')
        self.client.post(url, self.confirm_data(replaces=str(earlier.pk)))
        assert Tournament.objects.get(pk=earlier.pk).status == Tournament.Status.WITHDRAWN

    def test_it_looks_for_duplicates_with_the_dates_the_arbiter_gives_when_the_file_has_none(self):
        earlier = confirm(self.arbiter, event(CUP))
        data = event(CUP, name="Kazan Club Cup", rating=1501).replace(b"042 2026/03/01\n052 2026/03/03\n", b"")
        upload = services.upload_create(user=self.arbiter, file_name="b.trf", data=data)
        assert upload.preview["file"]["start_date"] is None
        self.login(self.arbiter)
        url = reverse("arbiter:preview", args=[upload.pk])
        self.assertNotContains(self.client.get(url), "holds this tournament already")
        response = self.client.post(url, self.confirm_data(name="Kazan Club Cup"))
        self.assertContains(response, "holds this tournament already: Club Cup", status_code=400)
        self.assertContains(response, f'name="replaces" value="{earlier.pk}"', status_code=400)
        self.client.post(url, self.confirm_data(name="Kazan Club Cup", replaces=str(earlier.pk)))
        assert Tournament.objects.get(pk=earlier.pk).status == Tournament.Status.WITHDRAWN

    def test_it_warns_a_russian_arbiter_of_the_duplicate_in_russian(self):
        # A request leaves its language active in the thread: messages made outside requests later must be English.
        self.addCleanup(translation.activate, "en")
        confirm(self.arbiter, event(CUP))
        upload = services.upload_create(user=self.arbiter, file_name="b.trf", data=event(CUP, rating=1501))
        self.login(self.arbiter)
        url = reverse("arbiter:preview", args=[upload.pk])
        page = self.client.get(url, HTTP_ACCEPT_LANGUAGE="ru")
        self.assertContains(page, "Этот турнир уже есть в федерации")
        self.assertContains(page, "12 из 12 партий этого файла (100 %) — его партии.")
        response = self.client.post(url, self.confirm_data(), HTTP_ACCEPT_LANGUAGE="ru")
        self.assertContains(response, "Укажите, что эта загрузка его заменяет", status_code=400)
