"""Name keys are folded until they no longer change: recompute the few stored keys that differ."""

from django.db import migrations

from players.names import name_key


def refold(apps, schema_editor):
    Player = apps.get_model("players", "Player")
    changed = []
    fields = ("id", "family_name", "given_names", "family_name_latin", "given_names_latin", "name_key", "latin_key")
    for player in Player.objects.only(*fields).iterator(chunk_size=5000):
        key = name_key(player.family_name, player.given_names)
        latin = name_key(player.family_name_latin, player.given_names_latin) if player.family_name_latin else key
        if (key, latin) != (player.name_key, player.latin_key):
            player.name_key, player.latin_key = key, latin
            changed.append(player)
    Player.objects.bulk_update(changed, ["name_key", "latin_key"], batch_size=2000)


class Migration(migrations.Migration):
    dependencies = [("players", "0004_player_role")]

    operations = [migrations.RunPython(refold, migrations.RunPython.noop)]
