"""What `make run` says: a few lines per step, the demo's log in var/log/, and a closing block with the
address, every account with a password that logs in, what to try with it, and where to start."""

import io
import logging
import logging.config
import re
import stat

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client, override_settings

from accounts import devcredentials
from operations import logs
from toolkit.management.commands.runserver import Command as Runserver

ADDRESS = "http://127.0.0.1:8731"
# `make run HOST=0.0.0.0`: every interface.
EVERYWHERE = "0.0.0.0"  # noqa: S104
ACCOUNTS = {"admin", "demo-arbiter", "demo-td", "demo-player-1", "demo-player-2"}
# A plain log line: its time with the zone it is in (Moscow's by default), then the level.
LINE = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} [+-]\d{4} (DEBUG|INFO|WARNING|ERROR|CRITICAL) ")


def block_accounts(block: str) -> dict[str, tuple[str, str]]:
    """username -> (password, link to try) as the closing block lists them."""
    listed = block.split(" as:\n", 1)[1].split("\n  (development passwords", 1)[0].splitlines()
    found = {}
    for first, second in zip(listed[::2], listed[1::2], strict=True):
        username, password = first.split()[:2]
        found[username] = (password, second.strip())
    return found


@pytest.fixture
def var(tmp_path):
    """The development settings of `make run`, with var/ in a folder of the test's own."""
    folder = tmp_path / "var"
    with override_settings(VAR_DIR=folder, DEV_CREDENTIALS_FILE=folder / "credentials.json"):
        yield folder


@pytest.fixture
def demo_log(var, capsys):
    """The logging `make run` gives the demo (LOG_FILE=var/log/demo.log), standard error captured."""
    path = var / "log" / "demo.log"
    config = logs.logging_config("plain", "INFO", str(path))
    # In the settings too: Celery's Django fix-up runs django.setup() again at the first task, which
    # configures the logging anew from them.
    with override_settings(LOGGING=config):
        logging.config.dictConfig(config)
        yield path
    logging.config.dictConfig(settings.LOGGING)


@pytest.mark.django_db(transaction=True)
def test_it_ends_with_every_demo_account_and_a_password_that_logs_in(
    var, demo_log, capsys, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.delenv("ADMIN_PASSWORD", raising=False)
    monkeypatch.delenv("DEMO_PLAYER_PASSWORD", raising=False)
    out = io.StringIO()
    call_command("ensure_admin", stdout=out)
    with django_capture_on_commit_callbacks(execute=True):
        call_command("load_demo", stdout=out)

    # The terminal: a few lines of progress, no INFO line of the thousands the demo logs...
    printed = out.getvalue().splitlines()
    assert 3 <= len(printed) <= 25, printed
    terminal = capsys.readouterr().err
    assert not re.search(r" (INFO|DEBUG) ", terminal), terminal[:2000]
    # ...which go to var/log/demo.log, private, each with its time zone.
    lines = demo_log.read_text().splitlines()
    # (the demo's one rating run, its GCR run and the tasks around them)
    assert any(" INFO ratings.timeline.walk: replayed " in line for line in lines), lines
    assert any(" INFO celery.app.trace: Task ratings.tasks.run_rating_requests" in line for line in lines), lines
    assert all(LINE.match(line) for line in lines if line[:1].isdigit())
    assert stat.S_IMODE(demo_log.stat().st_mode) == 0o600
    assert stat.S_IMODE(demo_log.parent.stat().st_mode) == 0o700

    block = devcredentials.welcome(ADDRESS)
    assert f"The site is running at {ADDRESS}/" in block
    assert f"Logs: {demo_log};" in block  # where the full log is (under the project: var/log/demo.log)
    for start in ("/", "/ratings/", "/tournaments/"):
        assert f"    {ADDRESS}{start} " in block
    accounts = block_accounts(block)
    assert set(accounts) == ACCOUNTS
    for username, (password, link) in accounts.items():
        client = Client()
        assert client.login(username=username, password=password), username
        # What the block says to try opens for that account.
        assert link.startswith(ADDRESS)
        assert client.get(link.removeprefix(ADDRESS)).status_code == 200, (username, link)

    # A second `make run`: nothing loaded again, the same block.
    call_command("ensure_admin", stdout=io.StringIO())
    call_command("load_demo", stdout=io.StringIO())
    assert block_accounts(devcredentials.welcome(ADDRESS)) == accounts
    credentials = var / "credentials.json"
    assert stat.S_IMODE(credentials.stat().st_mode) == 0o600
    assert stat.S_IMODE(var.stat().st_mode) == 0o700

    # A password changed since is not shown as if it still opened the account.
    user = get_user_model().objects.get(username="demo-td")
    user.set_password("changed-by-the-td-42")
    user.save()
    again = block_accounts(devcredentials.welcome(ADDRESS))
    assert again["demo-td"][0] == "(changed)"
    assert again["demo-arbiter"] == accounts["demo-arbiter"]


@pytest.mark.django_db
def test_it_keeps_no_password_in_production(tmp_path, monkeypatch):
    monkeypatch.delenv("ADMIN_PASSWORD", raising=False)
    with override_settings(DEV_CREDENTIALS_FILE=None, VAR_DIR=tmp_path / "var"):
        out = io.StringIO()
        call_command("ensure_admin", stdout=out)
        assert "password: " in out.getvalue()  # printed once, as ever
        assert not (tmp_path / "var").exists()
        assert "No passwords are kept" in devcredentials.welcome(ADDRESS)


@pytest.mark.django_db
@pytest.mark.parametrize(("addr", "raw_ipv6", "shown"), [(EVERYWHERE, False, "127.0.0.1"), ("::1", True, "[::1]")])
def test_it_replaces_djangos_banner_with_the_block(var, addr, raw_ipv6, shown):
    out = io.StringIO()
    command = Runserver(stdout=out)
    command.welcome, command.addr, command._raw_ipv6, command.protocol = True, addr, raw_ipv6, "http"
    command.on_bind(8731)
    text = out.getvalue()
    assert f"The site is running at http://{shown}:8731/" in text
    assert ("every interface" in text) is (addr == EVERYWHERE)
    assert "Django version" not in text
    assert "Starting development server" not in text
    plain = io.StringIO()
    command = Runserver(stdout=plain)
    command.welcome, command.addr, command._raw_ipv6, command.protocol = False, addr, raw_ipv6, "http"
    command.on_bind(8731)
    assert "Starting development server" in plain.getvalue()
    assert "The site is running" not in plain.getvalue()


def test_it_marks_the_time_zone_on_every_line_that_reaches_the_terminal():
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logs.PlainFormatter(logs.PLAIN))
    record = logging.LogRecord("django.server", logging.INFO, __file__, 1, '"GET / HTTP/1.1" 200 3693', None, None)
    handler.emit(record)
    assert LINE.match(stream.getvalue()), stream.getvalue()
    # runserver's request lines go through that handler, not Django's own (bare local time).
    config = logs.logging_config("plain", "INFO")
    assert config["loggers"]["django.server"] == {"handlers": [], "level": "INFO", "propagate": True}
    assert config["formatters"]["main"]["()"] is logs.PlainFormatter


def test_it_keeps_the_requests_on_the_terminal_and_the_jobs_in_the_servers_log(tmp_path, capsys):
    # `make run` serves with LOG_FILE=var/log/server.log: the periodic jobs' lines (several a minute)
    # would push the closing block out of sight; the requests are what a developer watches.
    path = tmp_path / "log" / "server.log"
    config = logs.logging_config("plain", "INFO", str(path))
    try:
        logging.config.dictConfig(config)
        logging.getLogger("django.server").info('"GET /ratings/ HTTP/1.1" 200 5120')
        logging.getLogger("celery.app.trace").info("Task play.tasks.sweep_games succeeded")
        logging.getLogger("django.request").warning("Not Found: /nowhere/")
    finally:
        logging.config.dictConfig(settings.LOGGING)
    terminal = capsys.readouterr().err.splitlines()
    assert [line.split(" ", 5)[-1] for line in terminal] == [
        '"GET /ratings/ HTTP/1.1" 200 5120',
        "Not Found: /nowhere/",
    ], terminal
    written = path.read_text()
    assert "sweep_games" in written and "GET /ratings/" in written and "Not Found" in written
