"""The audit log now belongs to accounts (accounts/migrations/0001): the project package forgets the
model, its table stays for accounts."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("federation", "0002_admin_audit_permission"),
        ("accounts", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="AuditEntry")],
            database_operations=[],
        ),
    ]
