"""The round trip on the real files of examples/, uploaded in date order through the real upload
services (preview, confirmation, rating run): the Karl-Mala TRF (2005), the Grand Swiss PGN (2021)
and Keshmat's monthly rapid tournaments (December 2024, April and May 2025: the same club, so the
later files meet the players the list carries)."""

import datetime
import io

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.core.management import call_command

from accounts.roles import ARBITERS, ensure_roles
from ratings import services as rating_services
from tests.ratings.opening import season
from tests.tournaments.files import example
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

FIRST = [
    ("karl-mala-2005.trf", Tournament.TimeControl.CLASSICAL),
    ("fide-grand-swiss-2021.pgn", Tournament.TimeControl.CLASSICAL),
    ("cr-keshmat-rapid-2024-12-ranking-crosstable.xlsx", Tournament.TimeControl.RAPID),
]
LATER = [
    ("cr-keshmat-rapid-2025-04-ranking-crosstable.xlsx", Tournament.TimeControl.RAPID),
    ("cr-keshmat-rapid-2025-05-ranking-crosstable.xlsx", Tournament.TimeControl.RAPID),
]
CUT = datetime.date(2025, 1, 1)


def _arbiter():
    ensure_roles(Group, Permission)
    user, _ = get_user_model().objects.get_or_create(username="arbiter")
    user.groups.add(Group.objects.get(name=ARBITERS))
    return user


def _upload(name, time_control) -> Tournament:
    upload = services.upload_create(user=_arbiter(), file_name=name, data=example(name))
    details = services.details_from_file(upload.preview["file"], time_control=time_control, fide_rated=True)
    choices = {
        int(number): match["candidates"][0]["player_id"]
        for number, match in upload.preview["matches"].items()
        if match["status"] == "ambiguous"
    }
    tournament = services.tournament_confirm(upload=upload, user=_arbiter(), details=details, choices=choices)
    rating_services.rating_run(tournament_id=tournament.pk)
    return tournament


def test_it_gives_the_same_lists_on_the_real_examples():
    first = [_upload(name, control) for name, control in FIRST]
    assert max(t.end_date for t in first) < CUT
    exported = season.export_all()
    later = [_upload(name, control) for name, control in LATER]
    assert min(t.end_date for t in later) >= CUT
    one_site_lists, one_site_states = season.lists(), season.states()
    met = {row["federation_id"] for row in one_site_lists["orr"]}
    keshmat = {p.player.federation_id for p in first[-1].participants.select_related("player")}
    assert keshmat & {p.player.federation_id for t in later for p in t.participants.select_related("player")} & met

    season.empty_site()
    path = season.write(exported)
    call_command("import_list", str(path), "--date", CUT.isoformat(), "--confirm", stdout=io.StringIO())
    with pytest.raises(services.UploadRefused):  # the list holds it already
        services.upload_create(user=_arbiter(), file_name=FIRST[-1][0], data=example(FIRST[-1][0]))
    for name, control in LATER:
        _upload(name, control)
    assert season.lists() == one_site_lists
    assert season.states() == one_site_states
