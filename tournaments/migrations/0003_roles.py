"""The staff roles as Django groups: arbiters upload tournaments, federation admins run the federation."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

from accounts.roles import ensure_roles


def create_roles(apps, schema_editor):
    # Permissions are normally made after all migrations ran; make them now so the groups can hold them.
    for config in apps.get_app_configs():
        config.models_module = True
        create_permissions(config, apps=apps, verbosity=0)
        config.models_module = None
    ensure_roles(apps.get_model("auth", "Group"), apps.get_model("auth", "Permission"), strict=False)


def remove_roles(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name__in=["Arbiters", "Federation admins"]).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0002_upload_registered"),
        ("players", "0001_initial"),
        ("ratings", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [migrations.RunPython(create_roles, remove_roles)]
