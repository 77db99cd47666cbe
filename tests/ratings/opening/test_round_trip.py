"""The round trip of issue 26: export the list after the first part of a season, import it into
an empty site, rate the later tournaments there: the same lists as rating everything in one site."""

import datetime
import io

import pytest
from django.core.management import call_command

from ratings import services
from tests.ratings.opening import season
from tournaments.demo.generated import federation_generate
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_it_gives_the_same_lists_after_export_import_and_the_later_tournaments():
    federation_generate(players=150, tournaments=30, seed=26)
    ordered = list(Tournament.objects.order_by("end_date", "start_date", "id"))
    cut = ordered[len(ordered) // 2].end_date + datetime.timedelta(days=1)
    later = [t for t in ordered if t.end_date >= cut]
    assert 5 <= len(later) < len(ordered) - 5

    # One site: the first part, the export, then the later tournaments on top.
    Tournament.objects.filter(pk__in=[t.pk for t in later]).update(status=Tournament.Status.DRAFT)
    services.rerate_since(since=None)
    exported = season.export_all()
    Tournament.objects.filter(pk__in=[t.pk for t in later]).update(status=Tournament.Status.CONFIRMED)
    for tournament in later:
        services.rating_run(tournament_id=tournament.pk)
    one_site_lists, one_site_states = season.lists(), season.states()
    services.rerate_since(since=None)
    assert season.lists() == one_site_lists  # rating it all at once agrees with the runs one by one
    captured = season.capture(later)
    provisional = sum(1 for row in one_site_lists["orr"] if row["provisional"])
    assert provisional and provisional < len(one_site_lists["orr"])  # both kinds of players carried

    # A new site: the list, then the later tournaments.
    season.empty_site()
    path = _write(exported)
    call_command("import_list", str(path), "--date", cut.isoformat(), "--confirm", stdout=io.StringIO())
    for tournament in season.recreate(captured):
        services.rating_run(tournament_id=tournament.pk)
    assert season.lists() == one_site_lists
    assert season.states() == one_site_states
    # A full re-rating of the new site starts from the list.
    services.rerate_since(since=None)
    assert season.lists() == one_site_lists
    assert Tournament.objects.filter(status=Tournament.Status.RATED).count() == len(later)


def _write(data: bytes):
    import tempfile
    from pathlib import Path

    path = Path(tempfile.mkdtemp()) / "opening.csv"
    path.write_bytes(data)
    return path
