"""The staff roles as Django groups: arbiters upload tournaments, federation admins run the federation."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

ARBITER_PERMISSIONS = [
    ("tournaments", "add_upload"),
    ("tournaments", "view_upload"),
    ("tournaments", "change_upload"),
    ("tournaments", "delete_upload"),
    ("tournaments", "view_tournament"),
    ("players", "view_player"),
]


def create_roles(apps, schema_editor):
    # Permissions are normally made after all migrations ran; make them now so the groups can hold them.
    for config in apps.get_app_configs():
        config.models_module = True
        create_permissions(config, apps=apps, verbosity=0)
        config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    arbiters, _ = Group.objects.get_or_create(name="Arbiters")
    for app_label, codename in ARBITER_PERMISSIONS:
        arbiters.permissions.add(Permission.objects.get(content_type__app_label=app_label, codename=codename))
    admins, _ = Group.objects.get_or_create(name="Federation admins")
    admins.permissions.add(
        *Permission.objects.filter(content_type__app_label__in=["players", "tournaments", "ratings"])
    )


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
