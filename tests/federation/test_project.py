"""Project-wide guarantees: migrations, Celery configuration, the admin bootstrap."""

import io

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command

from federation.celery import app


@pytest.mark.django_db
def test_it_has_a_migration_for_every_model_change():
    out = io.StringIO()
    call_command("makemigrations", "--check", "--dry-run", stdout=out)
    assert "No changes detected" in out.getvalue()


def test_it_configures_celery_for_json_and_safe_retries():
    conf = app.conf
    assert conf.task_serializer == "json"
    assert conf.accept_content == ["json"]
    assert conf.task_acks_late is True
    assert conf.task_reject_on_worker_lost is True
    assert conf.worker_prefetch_multiplier == 1
    assert conf.task_time_limit > conf.task_soft_time_limit > 0
    assert conf.timezone == "UTC"
    assert isinstance(conf.beat_schedule, dict)


def test_it_schedules_the_monthly_jobs_in_one_place():
    app.loader.import_default_modules()  # the tasks register when their modules load (alone, nothing has yet)
    schedule = app.conf.beat_schedule
    penalty = schedule["mchess-inactivity-penalty"]
    assert penalty["task"] == "ratings.tasks.mchess_monthly_penalty"
    cron = penalty["schedule"]
    assert (cron.minute, cron.hour, cron.day_of_month) == ({1}, {0}, {1})  # 00:01 UTC on the 1st
    lists = schedule["publish-monthly-lists"]
    assert lists["task"] == "ratings.tasks.publish_monthly_lists"
    assert (lists["schedule"].hour, lists["schedule"].day_of_month) == ({0}, {1})
    for entry in schedule.values():
        assert entry["task"] in app.tasks, entry["task"]


@pytest.mark.django_db
def test_it_creates_the_admin_once_and_prints_the_password_once(monkeypatch):
    monkeypatch.delenv("ADMIN_PASSWORD", raising=False)
    out = io.StringIO()
    call_command("ensure_admin", stdout=out)
    password = out.getvalue().split("password: ")[1].split()[0]
    admin = get_user_model().objects.get(username="admin")
    assert admin.is_superuser
    assert admin.check_password(password)
    again = io.StringIO()
    call_command("ensure_admin", stdout=again)
    assert "exists already" in again.getvalue()
    assert password not in again.getvalue()


@pytest.mark.django_db
def test_it_takes_the_admin_password_from_the_environment(monkeypatch):
    monkeypatch.setenv("ADMIN_PASSWORD", "from-the-environment-42")
    out = io.StringIO()
    call_command("ensure_admin", stdout=out)
    assert "from-the-environment-42" not in out.getvalue()
    assert get_user_model().objects.get(username="admin").check_password("from-the-environment-42")


def test_it_keeps_private_files_out_of_static_and_media():
    private = settings.STORAGES["private"]["OPTIONS"]
    assert private["base_url"] is None
    assert str(private["location"]) != str(settings.MEDIA_ROOT)
    assert str(settings.STATIC_ROOT) not in str(private["location"])


def test_it_stands_alone_reading_nothing_beside_the_repository():
    """The code, tests and demo read their files from the repository, never from the folder beside it
    (.ci/run proves it by running the suite from a clone in an empty temporary folder)."""
    import re

    root = settings.BASE_DIR
    files = [*root.glob("*.toml"), root / "Makefile"]
    files += [p for p in root.rglob("*.py") if not {".venv", "node_modules", "build"} & set(p.relative_to(root).parts)]
    tracked = [str(p.relative_to(root)) for p in files]
    pattern = re.compile(r"""parents?\[?\d*\]?\s*/\s*["']shared["']|\.\./shared|["']\.\.["']\s*/\s*["']shared""")
    offenders = []
    for name in tracked:
        if name.endswith((".py", "Makefile", ".cfg", ".toml")) and name != "tests/federation/test_project.py":
            text = (root / name).read_text(errors="replace")
            offenders += [f"{name}: {line.strip()}" for line in text.splitlines() if pattern.search(line)]
    assert offenders == []
    assert (root / "examples" / "karl-mala-2005.trf").is_file()
    assert (root / "examples" / "README.md").read_text().count("MIT") >= 5  # every file's source and licence
    assert (root / "docs" / "rules" / "orr.md").is_file()


def test_it_loads_a_settings_module_that_star_imports_the_sites_settings():
    """The load benchmark's settings (benchmarks/load_settings.py) import federation.settings, which
    loads this package and its Celery app first: a schedule read from the settings at import read
    them half-made ("no attribute PLAY_DIGEST_HOUR") and `make bench-load` could not start."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    code = (
        "import django; django.setup(); from federation.celery import app;"
        "print(app.conf.beat_schedule['mobile-daily-digest']['schedule'].hour)"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "benchmarks.load_settings", "PLAY_DIGEST_HOUR": "5"}
    result = subprocess.run([sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True)  # noqa: S603
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["{5}"]
