"""The demo federation of `make run` is loaded through the real pipeline."""

import io

import pytest
from django.core.management import call_command

from ratings.models import PlayerRating, RatingChange, RatingList, RatingRequest
from tournaments.demo import season
from tournaments.importers.registry import read_result_file
from tournaments.models import Tournament


def test_it_generates_a_season_of_valid_trf_files():
    files = season()
    assert len(files) == 10
    for file in files:
        parsed = read_result_file(file.name, file.data)
        assert not parsed.errors, parsed.errors[:3]
        assert not [p for p in parsed.problems if p.code == "points_differ"]
        ages = [(file.start - p.birth_date).days / 365.25 for p in parsed.players]
        assert min(ages) >= 5 and max(ages) < 14.5


@pytest.mark.django_db(transaction=True)
def test_it_loads_and_rates_the_demo_federation_once(django_capture_on_commit_callbacks):
    out = io.StringIO()
    with django_capture_on_commit_callbacks(execute=True):
        call_command("load_demo", stdout=out)
    assert "Demo federation loaded: 12 tournaments rated." in out.getvalue()
    assert Tournament.objects.filter(status="rated").count() == 12
    # Corridors, provisional stars and their removal all show in the children's season.
    assert PlayerRating.objects.filter(system="orr", provisional=True).exists()
    assert RatingChange.objects.filter(system="orr", provisional_before=True, provisional_after=False).exists()
    assert PlayerRating.objects.filter(system="gcr").exists()
    assert RatingList.objects.count() == 4
    # The uploads confirmed and the mobile games played, one rating run rated them all (issue 35).
    assert len(set(RatingRequest.objects.filter(state="done").values_list("run_token", flat=True))) == 1
    again = io.StringIO()
    call_command("load_demo", stdout=again)
    assert "no demo data loaded" in again.getvalue()
