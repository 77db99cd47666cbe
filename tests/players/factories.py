import datetime

import factory

from players.models import Club, Player, Region
from players.services import allocate_federation_ids


class RegionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Region
        django_get_or_create = ["name"]

    name = factory.Sequence(lambda n: f"Region {n}")


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Chess club {n}")
    city = "Moscow"
    region = factory.SubFactory(RegionFactory)


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    federation_id = factory.LazyFunction(lambda: allocate_federation_ids(1)[0])
    family_name = factory.Sequence(lambda n: f"Playerov{n}")
    given_names = "Ivan"
    sex = Player.Sex.MALE
    birth_date = datetime.date(2014, 5, 17)
    birth_precision = Player.BirthPrecision.DAY
