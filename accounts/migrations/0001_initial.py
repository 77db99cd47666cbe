"""The audit log moves from the project package (federation) to accounts: only Django's idea of the
model moves, the table `federation_auditentry` and its rows stay where they are."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("federation", "0002_admin_audit_permission"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='AuditEntry',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('action', models.CharField(db_index=True, max_length=40, verbose_name='action')),
                        ('object_type', models.CharField(max_length=60, verbose_name='record type')),
                        ('object_id', models.CharField(max_length=40, verbose_name='record id')),
                        ('summary', models.CharField(max_length=300, verbose_name='summary')),
                        ('before', models.JSONField(blank=True, default=dict, verbose_name='before')),
                        ('after', models.JSONField(blank=True, default=dict, verbose_name='after')),
                        ('reason', models.TextField(blank=True, verbose_name='reason')),
                        ('created_at', models.DateTimeField(auto_now_add=True, db_index=True, verbose_name='when')),
                        ('actor', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='who')),
                    ],
                    options={
                        'verbose_name': 'audit entry',
                        'verbose_name_plural': 'audit log',
                        'ordering': ['-created_at', '-id'],
                        'db_table': 'federation_auditentry',
                        'indexes': [models.Index(fields=['object_type', 'object_id'], name='audit_object_idx')],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
