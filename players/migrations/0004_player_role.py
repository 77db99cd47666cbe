"""The role of every confirmed account, "Players and parents": apply for FIDE-rating imports, follow players."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

from accounts.roles import PLAYERS, ensure_roles


def grant(apps, schema_editor):
    for config in apps.get_app_configs():
        config.models_module = True
        create_permissions(config, apps=apps, verbosity=0)
        config.models_module = None
    Group = apps.get_model("auth", "Group")
    ensure_roles(Group, apps.get_model("auth", "Permission"), strict=False)
    # Accounts confirmed before the role existed could apply already: they keep that.
    players = Group.objects.get(name=PLAYERS)
    for user in apps.get_model("auth", "User").objects.filter(is_active=True):
        user.groups.add(players)


def revoke(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=PLAYERS).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("players", "0003_follows"),
        ("tournaments", "0004_follows"),
        ("federation", "0002_admin_audit_permission"),
    ]

    operations = [migrations.RunPython(grant, revoke)]
