"""Federation admins create mobile events and oversee every game (the TD's list, claim decisions):
give the role play's permissions (federation.roles.ADMIN_APPS lists play for a role made again;
written out here so this migration does not depend on that module's later changes)."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

FEDERATION_ADMINS = "Federation admins"


def grant(apps, schema_editor):
    config = apps.get_app_config("play")
    config.models_module = True
    create_permissions(config, apps=apps, verbosity=0)
    config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    admins, _ = Group.objects.get_or_create(name=FEDERATION_ADMINS)
    admins.permissions.add(*Permission.objects.filter(content_type__app_label="play"))


class Migration(migrations.Migration):
    dependencies = [
        ("play", "0002_challenges"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(grant, migrations.RunPython.noop)]
