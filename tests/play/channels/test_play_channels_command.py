"""`manage.py play_channels check`: each channel's back-end and its health over real HTTP (the fake
SMS gateway's GET /health, the fake Bot API's getMe), the outbox per channel as of `--now`, and
the exit status (run through run_from_argv, as manage.py runs it)."""

import datetime
import io
import socket

import pytest
from django.core.management import call_command

from play.management.commands.play_channels import Command
from play.models import ChannelOutage, Transmission
from tests.fakes.sms_gateway import BASE_PATH
from tests.players.factories import PlayerFactory

pytestmark = pytest.mark.django_db

UTC = datetime.UTC
NOW = datetime.datetime(2026, 11, 20, 12, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _console(settings):
    settings.PLAY_CONSOLE_STREAM = io.StringIO()


def run(capsys, *args) -> tuple[int, str, str]:
    """Run the command as manage.py does; (exit status, stdout, stderr)."""
    code = 0
    try:
        Command().run_from_argv(["manage.py", "play_channels", "check", "--now", NOW.isoformat(), *args])
    except SystemExit as exit_:
        code = exit_.code
    out, err = capsys.readouterr()
    return code, out, err


def line(out: str, channel: str) -> str:
    lines = out.splitlines()
    index = next(i for i, text in enumerate(lines) if text.startswith(f"{channel} "))
    return lines[index] + "\n" + lines[index + 1]


def test_it_says_console_is_the_default_with_nothing_configured_and_passes(capsys, settings):
    settings.PLAY_CHANNEL_BACKENDS = {
        "console": "play.channels.Console",
        "web": "play.channels.Web",
        "sms": "play.channels.Console",
        "telegram": "play.channels.Console",
        "email": "play.channels.Email",
    }
    code, out, err = run(capsys)
    assert code == 0, err
    assert [text.split()[0] for text in out.splitlines() if not text.startswith(" ")][:5] == [
        "console",
        "web",
        "sms",
        "telegram",
        "email",
    ]
    assert "play.channels.Console" in line(out, "sms") and "ok: prints and logs" in line(out, "sms")
    assert "ok: the game page shows the record" in line(out, "web")
    assert "No SMS or Telegram back-end is configured: their messages go to the console channel" in out


def test_it_reports_a_healthy_gateway_and_bot(capsys, gateway, bot):
    code, out, err = run(capsys)
    assert code == 0, err
    assert f"play.channels.sms.SmsGateway       ok: {gateway.url} pass (version 1.40.0)" in line(out, "sms")
    assert "ok: @federation_chess_bot" in line(out, "telegram")
    assert "No SMS or Telegram back-end" not in out
    assert [(r.method, r.path) for r in gateway.requests] == [("GET", "/3rdparty/v1/health")]
    assert [r.path.rsplit("/", 1)[1] for r in bot.requests] == ["getMe"]
    assert gateway.requests[0].headers["Authorization"].startswith("Basic ")


def test_it_exits_1_when_the_gateway_is_unreachable(capsys, gateway, bot, settings):
    gateway.stop()
    # The gateway's address moves to a port this test holds without listening (refused at once):
    # the port the stopped fake freed may be taken by another server of the machine meanwhile (seen
    # under load: a "401" from someone else's fake instead of "unreachable").
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        settings.SMS_GATEWAY_URL = f"http://127.0.0.1:{held.getsockname()[1]}{BASE_PATH}"
        code, out, err = run(capsys)
    assert code == 1
    assert "FAILED: SMS gateway unreachable" in line(out, "sms")
    assert "ok: @federation_chess_bot" in line(out, "telegram")  # the others are still reported
    assert "channel check failed: sms" in err


def test_it_fails_a_gateway_answering_5xx_or_reporting_fail(capsys, gateway):
    gateway.fail_next = 1
    code, out, _ = run(capsys)
    assert code == 1 and "FAILED: SMS gateway answered 503" in line(out, "sms")
    gateway.health = "fail"
    code, out, _ = run(capsys)
    assert code == 1 and "FAILED: SMS gateway reports failing: connection:status: Connection status" in out


def test_it_fails_wrong_gateway_credentials(capsys, gateway, settings):
    settings.SMS_GATEWAY_PASSWORD = "wrong"
    code, out, _ = run(capsys)
    assert code == 1 and "FAILED: SMS gateway answered 401" in line(out, "sms")


def test_it_fails_a_wrong_bot_token(capsys, bot, settings):
    settings.TELEGRAM_BOT_TOKEN = "7000001:wrong"
    code, out, err = run(capsys)
    assert code == 1
    assert "FAILED: Telegram getMe failed" in line(out, "telegram")
    assert "channel check failed: telegram" in err


def test_it_fails_a_back_end_that_cannot_be_loaded(capsys, settings):
    settings.PLAY_CHANNEL_BACKENDS = {**settings.PLAY_CHANNEL_BACKENDS, "sms": "play.channels.sms.NoSuchGateway"}
    code, out, _ = run(capsys)
    assert code == 1 and "FAILED: cannot load the back-end" in line(out, "sms")


def test_it_reports_each_channels_outbox_and_open_outage(capsys, gateway):
    white, black = PlayerFactory(), PlayerFactory()
    from play import services

    game = services.game_create(white=white, black=black, start=NOW - datetime.timedelta(days=2))

    def row(at, delivery, channel="sms"):
        return Transmission(
            game=game, direction="out", channel=channel, party="white", address="+7999", kind="status",
            text="x", at=at, delivery=delivery,
        )  # fmt: skip

    Transmission.objects.bulk_create(
        [
            row(NOW - datetime.timedelta(minutes=5), "pending"),
            row(NOW - datetime.timedelta(minutes=1), "pending"),
            row(NOW - datetime.timedelta(hours=23), "failed"),
            row(NOW - datetime.timedelta(hours=25), "failed"),  # before the last 24 hours
            row(NOW - datetime.timedelta(minutes=2), "pending", channel="telegram"),
        ]
    )
    outage = ChannelOutage.objects.create(
        channel="sms", started_at=NOW - datetime.timedelta(minutes=5), detected_at=NOW - datetime.timedelta(minutes=4)
    )
    outage.games.add(game)
    code, out, _ = run(capsys)
    assert code == 0
    assert line(out, "sms").splitlines()[1].split(" · ") == [
        " " * 10 + "pending 2",
        "oldest pending 0:05:00",
        "failed in 24 h 1",
        "inbound over the rate limit today 0",
        "outage: OPEN since 2026-11-20 11:55:00 UTC (0:05:00, 1 games)",
    ]
    assert "pending 1 · oldest pending 0:02:00 · failed in 24 h 0" in line(out, "telegram")
    assert "pending 0 · oldest pending - · failed in 24 h 0 · outage: none" in line(out, "console")


def test_it_takes_only_check_and_a_zoned_now(capsys):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="invalid choice"):
        call_command("play_channels", "status")
    with pytest.raises(CommandError, match="has no time zone"):
        call_command("play_channels", "check", "--now", "2026-11-20T12:00:00")
