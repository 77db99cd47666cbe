"""The public report carries the tie-breaks: the tournament's own order, or the regulations' defaults."""

import pytest
from django.urls import reverse

from tests.tournaments.factories import GameFactory, ParticipantFactory, TournamentFactory
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def swiss(order=(), unplayed=Tournament.UnplayedRule.FIDE_2023):
    """Four players, two rounds: 1 beats 2 and 3; 4 beats 3 ... 1 and 4 end on 2 and 1 points."""
    tournament = TournamentFactory(rounds=2, tiebreaks=list(order), tiebreak_unplayed=unplayed)
    people = [
        ParticipantFactory(tournament=tournament, start_number=n, rating_in_file=2000 - 100 * n) for n in (1, 2, 3, 4)
    ]
    p = [None, *(person.player for person in people)]
    GameFactory(tournament=tournament, round=1, white=p[1], black=p[2], result="1-0")
    GameFactory(tournament=tournament, round=1, white=p[3], black=p[4], result="0-1")
    GameFactory(tournament=tournament, round=2, white=p[4], black=p[1], result="0-1")
    GameFactory(tournament=tournament, round=2, white=p[2], black=p[3], result="1-0")
    return tournament


def test_it_shows_the_regulations_swiss_defaults_to_anonymous(client):
    tournament = swiss()
    response = client.get(tournament.get_absolute_url())
    assert [code for code, _ in response.context["tiebreak_columns"]] == ["BH-C1", "BH", "SB", "DE", "WIN"]
    assert b'id="tiebreak-order"' in response.content
    # 2 and 4 have one point each: 2's opponents 1 (2) and 3 (0), 4's 3 (0) and 1 (2): equal Buchholz;
    # both beat 3 (0 points): SB 0; they did not meet (DE 0); one win each: still tied, by start number.
    rows = response.context["rows"]
    assert [row["participant"].start_number for row in rows] == [1, 2, 4, 3]
    # 1 beat 2 and 4 (one point each): BH-C1 1, BH 2, SB 2, DE 0 (alone on 2 points), two wins.
    assert rows[0]["tiebreaks"] == [1, 2, 2, 0, 2]
    assert rows[1]["tiebreaks"] == rows[2]["tiebreaks"] == [2, 2, 0, 0, 1]  # the cut takes 3's 0


def test_it_keeps_the_files_order_and_ranks_by_it(client):
    tournament = swiss(order=["SB", "BH"])
    response = client.get(tournament.get_absolute_url())
    assert [code for code, _ in response.context["tiebreak_columns"]] == ["SB", "BH"]
    assert "The order is the result file" in response.content.decode()
    assert "FIDE 2023" in response.content.decode()


def test_it_reads_the_report_in_a_fixed_number_of_queries(client, django_assert_max_num_queries):
    tournament = swiss()
    url = reverse("tournaments:detail", args=[tournament.pk])
    with django_assert_max_num_queries(8):
        client.get(url)
