import factory

from ratings.models import PlayerRating, RatingChange, System
from tests.players.factories import PlayerFactory
from tests.tournaments.factories import TournamentFactory


class PlayerRatingFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = PlayerRating

    player = factory.SubFactory(PlayerFactory)
    system = System.ORR
    rating = 1200
    games = 12
    tournaments = 2


class RatingChangeFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = RatingChange

    player = factory.SubFactory(PlayerFactory)
    tournament = factory.SubFactory(TournamentFactory)
    system = System.ORR
    rating_before = 1200
    rating_after = 1215
    games = 9
    score = 5
