"""The ladder of computer opponents (issue 17): eight levels from a beginner a child can beat to
the engine's full strength. Each level's Player (kind computer; Mchess starts a computer at 1000,
by the rating rule) is made when the level first plays. The settings are copied here, not
imported: a migration must create what it created on the day it was written."""

from django.db import migrations

# number, name, engine settings, think time in seconds
LADDER = [
    (1, "Beginner", {"skill": 0, "depth": 1}, 5),
    (2, "Novice", {"skill": 2, "depth": 2}, 5),
    (3, "Casual", {"skill": 4, "depth": 3}, 5),
    (4, "Improver", {"skill": 8, "depth": 5}, 6),
    (5, "Club player", {"elo": 1500, "movetime_ms": 200}, 8),
    (6, "Strong club player", {"elo": 1900, "movetime_ms": 300}, 8),
    (7, "Expert", {"elo": 2300, "movetime_ms": 500}, 10),
    (8, "Full strength", {"movetime_ms": 1000}, 10),
]


def create_ladder(apps, schema_editor):
    ComputerLevel = apps.get_model("play", "ComputerLevel")
    if ComputerLevel.objects.exists():
        return
    ComputerLevel.objects.bulk_create(
        ComputerLevel(number=number, name=name, think_seconds=think, **engine) for number, name, engine, think in LADDER
    )


class Migration(migrations.Migration):
    dependencies = [("play", "0005_engine_levels")]

    operations = [migrations.RunPython(create_ladder, migrations.RunPython.noop)]
