"""The synthetic federation of the scale benchmark: deterministic, realistic, and ratable."""

import datetime
import io
from collections import Counter

import pytest
from django.core.management import CommandError, call_command

from players.models import Club, Player, Region
from ratings.models import PlayerRating, RatingChange
from tournaments.demo import generator
from tournaments.models import Game, Participant, Tournament


def digest(plan):
    return (
        [(p.family_name, p.given_names, p.birth_date, p.birth_precision, p.fide_id, p.club) for p in plan.people],
        [(e.name, e.start_date, e.rounds, [(g.round, g.white, g.black, g.result, g.kind) for g in e.games])
         for e in plan.events],
    )  # fmt: skip


def test_it_is_the_same_federation_for_the_same_seed():
    first = generator.federation(players=400, tournaments=30, seed=7)
    assert digest(first) == digest(generator.federation(players=400, tournaments=30, seed=7))
    assert digest(first) != digest(generator.federation(players=400, tournaments=30, seed=8))


def test_it_looks_like_a_federation():
    plan = generator.federation(players=3000, tournaments=300, seed=1)
    assert len(plan.events) == 300
    people = plan.people
    children = sum(1 for p in people if p.born.year >= 1998)
    assert 0.4 < children / len(people) < 0.6
    precisions = Counter(p.birth_precision for p in people)
    assert set(precisions) == {"day", "year", "unknown"}
    assert all(p.birth_date is None for p in people if p.birth_precision == "unknown")
    assert all(p.birth_date.month == 7 for p in people if p.birth_precision == "year")
    assert 0.2 < sum(p.sex == "F" for p in people) / len(people) < 0.3
    fide_ids = [p.fide_id for p in people if p.fide_id]
    assert len(fide_ids) == len(set(fide_ids)) > 100
    kinds = Counter(g.kind for e in plan.events for g in e.games)
    assert {"played", "forfeit", "bye", "half_bye", "unplayed"} <= set(kinds)
    assert kinds["played"] / sum(kinds.values()) > 0.9
    round_robins = [
        e for e in plan.events if len(e.entries) <= 12 and e.rounds == len(e.entries) - 1 + len(e.entries) % 2
    ]
    assert round_robins
    assert any(e.fide_rated for e in plan.events)
    assert any(en.fide_rating_in_file for e in plan.events for en in e.entries)
    years = Counter(e.start_date.year for e in plan.events)
    assert min(years) == generator.FIRST_YEAR and max(years) == generator.LAST_YEAR
    for event in plan.events:
        assert event.start_date <= event.end_date <= datetime.date(generator.LAST_YEAR, 12, 31)
        numbers = {entry.start_number for entry in event.entries}
        assert numbers == set(range(1, len(event.entries) + 1))
        seen = Counter((g.round, n) for g in event.games for n in (g.white, g.black) if n is not None)
        assert max(seen.values()) == 1  # nobody plays twice in a round


def test_it_pairs_everyone_once_in_every_round_robin():
    for count in (6, 7, 10, 11, 12):
        rounds = generator.round_robin(count)
        met = Counter(frozenset((w, b)) for pairs in rounds for w, b in pairs if b is not None)
        assert len(met) == count * (count - 1) // 2 and set(met.values()) == {1}


@pytest.mark.django_db
def test_it_writes_the_history_by_the_command_and_rates_it():
    call_command("generate_federation", players=300, tournaments=12, seed=3, rate=True, stdout=io.StringIO())
    plan = generator.federation(players=300, tournaments=12, seed=3)
    assert Player.objects.count() == 300
    assert Region.objects.count() == len(plan.regions) and Club.objects.count() == len(plan.clubs)
    assert Tournament.objects.count() == 12
    assert Game.objects.count() == plan.game_count
    assert Participant.objects.count() == sum(len(e.entries) for e in plan.events)
    assert set(Tournament.objects.values_list("status", flat=True)) == {"rated"}
    assert RatingChange.objects.filter(system="orr").exists()
    assert PlayerRating.objects.filter(system="mchess").count() > 100
    with pytest.raises(CommandError, match="empty federation"):
        call_command("generate_federation", players=300, tournaments=12, seed=3)
