"""The audit log's content type follows its model from `federation` to `accounts`: the same row,
renamed, so its permissions (and the groups and users holding them) and admin history stay."""

from django.db import migrations


def relabel(apps, old: str, new: str) -> None:
    content_type = apps.get_model("contenttypes", "ContentType")
    moved = content_type.objects.filter(app_label=old, model="auditentry").first()
    if moved is None:
        return
    # A row made under the new label in the meantime holds nothing yet: the old one replaces it.
    content_type.objects.filter(app_label=new, model="auditentry").delete()
    moved.app_label = new
    moved.save(update_fields=["app_label"])


def forwards(apps, schema_editor):
    relabel(apps, "federation", "accounts")


def backwards(apps, schema_editor):
    relabel(apps, "accounts", "federation")


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0001_initial"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
