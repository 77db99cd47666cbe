"""Federation admins read the audit log: give the role the new model's permissions."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

from accounts.roles import ensure_roles


def grant(apps, schema_editor):
    for config in apps.get_app_configs():
        config.models_module = True
        create_permissions(config, apps=apps, verbosity=0)
        config.models_module = None
    ensure_roles(apps.get_model("auth", "Group"), apps.get_model("auth", "Permission"), strict=False)


class Migration(migrations.Migration):
    dependencies = [
        ("federation", "0001_initial"),
        ("tournaments", "0003_roles"),
        ("ratings", "0003_ratingoverride"),
    ]

    operations = [migrations.RunPython(grant, migrations.RunPython.noop)]
