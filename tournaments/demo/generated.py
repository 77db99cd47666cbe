"""A generated federation written in bulk (for benchmarks and load tests): the plan comes from the
pure tournaments.demo.generator; this module stores it."""

from __future__ import annotations

from decimal import Decimal

from django.db import connection, transaction
from django.utils.translation import gettext as _

from players.models import Club, Player
from tournaments.models import Game, Participant, Tournament


class GenerateRefused(Exception):
    pass


def federation_generate(*, players: int, tournaments: int, seed: int) -> dict:
    """Write a synthetic federation (tournaments.demo.generator) with bulk inserts, in one transaction.

    Into an empty federation only: the generated FIDE ids and names would mix with real ones.
    The tournaments are confirmed, waiting for a rating run (`rerate`, or `--rate`).
    """
    from players.models import Region
    from players.services import allocate_federation_ids
    from toolkit.bulk import copy_rows
    from tournaments.demo import generator

    if Player.objects.exists() or Tournament.objects.exists():
        raise GenerateRefused(
            _("generate_federation writes into an empty federation; this one has %(players)s players.")
            % {"players": Player.objects.count()}
        )
    plan = generator.federation(players=players, tournaments=tournaments, seed=seed)
    with transaction.atomic():
        regions = Region.objects.bulk_create([Region(name=region.name) for region in plan.regions])
        clubs = Club.objects.bulk_create(
            [Club(name=c.name, city=c.city, region=regions[c.region]) for c in plan.clubs], batch_size=2000
        )
        ids = allocate_federation_ids(len(plan.people))
        columns = ("federation_id", "family_name", "given_names", "family_name_latin", "given_names_latin",
                   "name_key", "latin_key", "sex", "birth_date", "birth_precision", "fide_id", "country",
                   "title", "club_id", "region_id", "kind")  # fmt: skip

        def player_rows():
            for federation_id, person in zip(ids, plan.people, strict=True):
                player = Player(
                    family_name=person.family_name,
                    given_names=person.given_names,
                    birth_date=person.birth_date,
                    birth_precision=person.birth_precision,
                )
                player.normalise()
                club = clubs[person.club] if person.club is not None else None
                yield (federation_id, player.family_name, player.given_names, "", "", player.name_key,
                       player.latin_key, person.sex, player.birth_date, person.birth_precision, person.fide_id,
                       "RUS" if person.fide_id else "", person.title, club.pk if club else None,
                       regions[person.region].pk, Player.Kind.HUMAN)  # fmt: skip

        copy_rows(Player, columns, player_rows())
        player_ids = dict(Player.objects.filter(federation_id__gte=ids.start).values_list("federation_id", "id"))
        person_ids = [player_ids[federation_id] for federation_id in ids]
        created = Tournament.objects.bulk_create(
            [
                Tournament(
                    name=event.name,
                    city=event.city,
                    start_date=event.start_date,
                    end_date=event.end_date,
                    rounds=event.rounds,
                    time_control=event.time_control,
                    fide_rated=event.fide_rated,
                    status=Tournament.Status.CONFIRMED,
                )
                for event in plan.events
            ],
            batch_size=2000,
        )
        participants = copy_rows(
            Participant,
            (
                "tournament_id",
                "player_id",
                "start_number",
                "rank",
                "points_in_file",
                "rating_in_file",
                "fide_rating_in_file",
                "is_guest",
                "club_in_file",
            ),
            (
                (
                    tournament.pk,
                    person_ids[entry.person],
                    entry.start_number,
                    entry.rank,
                    Decimal(str(entry.points)),
                    entry.rating_in_file,
                    entry.fide_rating_in_file,
                    entry.guest,
                    "",
                )
                for tournament, event in zip(created, plan.events, strict=True)
                for entry in event.entries
            ),
        )

        def game_rows():
            for tournament, event in zip(created, plan.events, strict=True):
                players_by_number = {entry.start_number: person_ids[entry.person] for entry in event.entries}
                for game in event.games:
                    black = players_by_number[game.black] if game.black is not None else None
                    yield (tournament.pk, game.round, game.board, players_by_number[game.white], black, game.result,
                           game.kind, "")  # fmt: skip

        games = copy_rows(Game, ("tournament_id", "round", "board", "white_id", "black_id", "result", "kind", "moves"),
                          game_rows())  # fmt: skip
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    return {
        "players": len(plan.people),
        "clubs": len(clubs),
        "regions": len(regions),
        "tournaments": len(created),
        "participants": participants,
        "games": games,
    }
