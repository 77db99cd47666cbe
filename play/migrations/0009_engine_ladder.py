"""The ladder of computer opponents (issue 17): eight levels from a beginner a child can beat to
the engine's full strength. Each level's Player (kind computer; Mchess starts a computer at 1000,
by the rating rule) is made when the level first plays. The settings are copied here, not
imported: a migration must create what it created on the day it was written."""

from django.db import migrations

# number, name, engine settings, think time in seconds
LADDER = [
    (1, "Beginner", {"skill": 0, "depth": 1}, 5),
    (2, "Novice", {"skill": 1, "depth": 2}, 5),
    (3, "Casual", {"skill": 3, "depth": 3}, 5),
    (4, "Improver", {"skill": 5, "depth": 5}, 6),
    # Stockfish 15.1 turns UCI_Elo into a Skill Level of ((Elo - 1346.6) / 143.4) ** (1 / 0.806):
    # 2000 is about 6.3, 2300 about 10.5, 2600 about 14.8, so these stay above level 4 (a first
    # calibration with 1500 put level 5, about Skill 1, below level 4).
    (5, "Club player", {"elo": 2000, "movetime_ms": 200}, 8),
    (6, "Strong club player", {"elo": 2300, "movetime_ms": 300}, 8),
    (7, "Expert", {"elo": 2600, "movetime_ms": 500}, 10),
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
    dependencies = [("play", "0008_engine_levels")]

    operations = [migrations.RunPython(create_ladder, migrations.RunPython.noop)]
