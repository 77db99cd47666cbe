"""The audit log moved from the project package to accounts (issue 25): a database made before the
move keeps its rows, and the permissions given on the old model work on the new one."""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from accounts.models import AuditEntry

BEFORE = [("federation", "0002_admin_audit_permission")]


@pytest.mark.django_db(transaction=True)
def test_the_audit_log_moves_with_its_rows_and_permissions():
    executor = MigrationExecutor(connection)
    executor.migrate([("accounts", None)])  # back to the schema of before the move
    old = executor.loader.project_state(BEFORE).apps
    content_type = old.get_model("contenttypes", "ContentType").objects.get(model="auditentry")
    assert content_type.app_label == "federation"
    user = old.get_model("auth", "User").objects.create(username="auditor")
    permission = old.get_model("auth", "Permission").objects.get(content_type=content_type, codename="view_auditentry")
    user.user_permissions.add(permission)
    old.get_model("federation", "AuditEntry").objects.create(
        actor=user, action="test", object_type="auth.user", object_id=str(user.pk), summary="before the move"
    )

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    ContentType.objects.clear_cache()

    assert AuditEntry.objects.get().summary == "before the move"
    assert ContentType.objects.get(model="auditentry").app_label == "accounts"
    assert get_user_model().objects.get(username="auditor").has_perm("accounts.view_auditentry")
