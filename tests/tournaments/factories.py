import datetime

import factory

from tests.players.factories import PlayerFactory
from tournaments.models import Game, Participant, Tournament


class TournamentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Tournament

    name = factory.Sequence(lambda n: f"Spring Cup {n}")
    city = "Kazan"
    start_date = datetime.date(2026, 3, 1)
    end_date = factory.LazyAttribute(lambda t: t.start_date + datetime.timedelta(days=4))
    rounds = 9
    status = Tournament.Status.RATED


class ParticipantFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Participant

    tournament = factory.SubFactory(TournamentFactory)
    player = factory.SubFactory(PlayerFactory)
    start_number = factory.Sequence(lambda n: n + 1)


class GameFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Game

    tournament = factory.SubFactory(TournamentFactory)
    round = 1
    white = factory.SubFactory(PlayerFactory)
    black = factory.SubFactory(PlayerFactory)
    result = Game.Result.WHITE_WINS
    kind = Game.Kind.PLAYED
