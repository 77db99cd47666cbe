"""The production server: gunicorn with federation/gunicorn.conf.py, configured from the environment."""

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GUNICORN = str(Path(sys.executable).with_name("gunicorn"))
CONFIG = ["-c", "federation/gunicorn.conf.py", "federation.wsgi"]


def clean_env(**extra):
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("GUNICORN_", "WEB_CONCURRENCY", "DJANGO", "DATABASE", "CELERY", "FORWARDED"))
    }
    return {**env, **extra}


def printed_config(**extra) -> dict:
    result = subprocess.run(  # noqa: S603
        [GUNICORN, "--print-config", *CONFIG], cwd=ROOT, env=clean_env(**extra), capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    config = {}
    for line in result.stdout.splitlines():
        name, _, value = line.partition("=")
        config[name.strip()] = value.strip()
    return config


def test_it_runs_threaded_workers_for_two_cores_by_default():
    config = printed_config()
    assert config["worker_class"] == "gthread"
    assert int(config["workers"]) == 2 * (os.cpu_count() or 1)
    assert config["threads"] == "4"
    assert config["bind"] == "['127.0.0.1:8000']"
    assert config["accesslog"] == "-"
    assert config["timeout"] == "60"
    assert config["control_socket_disable"] == "True"


def test_it_takes_workers_threads_address_and_log_from_the_environment():
    config = printed_config(
        WEB_CONCURRENCY="3",
        GUNICORN_THREADS="8",
        GUNICORN_BIND="unix:/run/federation.sock",
        GUNICORN_TIMEOUT="120",
        GUNICORN_ACCESS_LOG="off",
    )
    assert (config["workers"], config["threads"], config["timeout"]) == ("3", "8", "120")
    assert config["bind"] == "['unix:/run/federation.sock']"
    assert config["accesslog"] == "None"


def test_it_stops_at_a_bad_value_naming_the_variable():
    result = subprocess.run(  # noqa: S603
        [GUNICORN, "--check-config", *CONFIG],
        cwd=ROOT,
        env=clean_env(GUNICORN_THREADS="many"),
        capture_output=True,
        text=True,
    )
    assert result.returncode != 0
    assert "GUNICORN_THREADS='many' is not a whole number" in result.stderr


def test_it_serves_the_site(tmp_path, migrated_sqlite_template):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = clean_env(
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        GUNICORN_BIND=f"127.0.0.1:{port}",
        WEB_CONCURRENCY="1",
        GUNICORN_THREADS="2",
        DEBUG="false",
    )
    shutil.copyfile(migrated_sqlite_template, tmp_path / "db.sqlite3")  # migrated once for the run
    server = subprocess.Popen(  # noqa: S603
        [GUNICORN, *CONFIG], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    try:
        body = None
        for _ in range(100):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/ratings/about/", timeout=5) as response:
                    body = response.read().decode()
                    break
            except OSError:
                time.sleep(0.2)
        assert body is not None and "ORR" in body
    finally:
        server.terminate()
        log = server.communicate(timeout=30)[0]
    assert '"GET /ratings/about/ HTTP/1.1" 200' in log  # the access log
