"""`manage.py play_game_new` and `manage.py play_message`: games created and messages fed through
the real services, bad input refused with a clear error and nothing written."""

import datetime
import io

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from play import services
from play.models import MobileGame, Transmission
from tests.players.factories import PlayerFactory

UTC = datetime.UTC
START = "2026-05-01T10:00:00Z"


@pytest.fixture(autouse=True)
def _console(settings):
    settings.PLAY_CONSOLE_STREAM = io.StringIO()
    return settings.PLAY_CONSOLE_STREAM


def run(*args) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


@pytest.fixture
def players():
    return PlayerFactory(), PlayerFactory(), PlayerFactory()


@pytest.fixture
def event(django_user_model, players):
    td = django_user_model.objects.create_user("td")
    return services.event_create(
        created_by=td, td=td, code="spring", name="Spring mobile", control="7200/20+600/5", norm=120, weight=150,
        pairing="td", start=datetime.datetime(2026, 5, 1, tzinfo=UTC), players=players[:2],
    )  # fmt: skip


@pytest.mark.django_db
class TestGameNew:
    def test_it_creates_a_challenge_game_and_prints_its_code(self, players):
        white, black, _ = players
        out = run("play_game_new", "--white", str(white.federation_id), "--black", str(black.federation_id),
                  "--start", START)  # fmt: skip
        game = MobileGame.objects.get()
        assert out.splitlines()[0] == game.code
        assert (game.white, game.black, game.event) == (white, black, None)
        assert game.start == datetime.datetime(2026, 5, 1, 10, tzinfo=UTC)
        assert (game.status, game.on_move, game.weight) == ("open", "white", 250)
        assert "challenge game" in out and "W = 250" in out

    def test_it_takes_the_event_control_norm_and_weight(self, players, event):
        white, black, _ = players
        out = run("play_game_new", "--white", str(black.federation_id), "--black", str(white.federation_id),
                  "--event", "spring", "--start", "2026-05-02T13:00:00+03:00")  # fmt: skip
        game = MobileGame.objects.get(code=out.splitlines()[0])
        assert game.event == event
        assert (game.control, game.norm, game.weight) == ("7200/20+600/5", 120, 150)
        assert game.start == datetime.datetime(2026, 5, 2, 10, tzinfo=UTC)

    def test_it_starts_now_without_a_start(self, players):
        white, black, _ = players
        before = timezone.now().replace(microsecond=0)
        run("play_game_new", "--white", str(white.federation_id), "--black", str(black.federation_id))
        assert before <= MobileGame.objects.get().start <= timezone.now()

    @pytest.mark.parametrize(
        ("white", "black", "extra", "problem"),
        [
            ("999999", "b", [], "no player has the federation id 999999"),
            ("w", "abc", [], "'abc' is not a federation id"),
            ("w", "w", [], "are the same player"),
            ("w", "b", ["--event", "autumn"], "no mobile event has the code 'autumn'"),
            ("w", "c", ["--event", "spring"], "is not entered in the event spring"),
            ("w", "b", ["--start", "2026-05-01T10:00:00"], "has no time zone"),
            ("w", "b", ["--start", "1 May 2026"], "is not an ISO date and time"),
        ],
    )
    def test_it_refuses_bad_input_and_creates_nothing(self, players, event, white, black, extra, problem):
        ids = {"w": str(players[0].federation_id), "b": str(players[1].federation_id),
               "c": str(players[2].federation_id)}  # fmt: skip
        with pytest.raises(CommandError, match=problem):
            run("play_game_new", "--white", ids.get(white, white), "--black", ids.get(black, black), *extra)
        assert not MobileGame.objects.exists()


@pytest.mark.django_db
class TestMessage:
    @pytest.fixture(autouse=True)
    def _game(self, players):
        self.white, self.black, self.other = players
        self.game = services.game_create(
            white=self.white, black=self.black, start=datetime.datetime(2026, 5, 1, 10, tzinfo=UTC)
        )

    def send(self, player, text, *extra):
        return run("play_message", "--from", str(player.federation_id), "--text", text, *extra)

    def test_it_applies_a_move_and_prints_the_replies(self, _console, django_capture_on_commit_callbacks):
        with django_capture_on_commit_callbacks(execute=True):
            out = self.send(self.white, "1. e4", "--at", "2026-05-01T10:05:30Z")
        self.game.refresh_from_db()
        assert (self.game.plies, self.game.on_move) == (1, "black")
        lines = out.splitlines()
        assert lines[0] == f"Applied: move (#{self.game.code}, * in progress, 1 plies, black to move)"
        replies = Transmission.objects.filter(game=self.game, direction="out").order_by("pk")
        assert [r.party for r in replies] == ["white", "black"]
        for reply in replies:
            assert reply.text in out
        assert f"-> white [console {self.white.federation_id}] #{self.game.code}" in out
        inbound = Transmission.objects.get(direction="in")
        assert (inbound.channel, inbound.text, inbound.kind) == ("console", "1. e4", "move")
        assert inbound.at == datetime.datetime(2026, 5, 1, 10, 5, 30, tzinfo=UTC)
        # The white reply went to the console channel and was printed on delivery.
        assert f"#{self.game.code}" in _console.getvalue()
        assert replies.get(party="white").delivery == "sent"

    def test_it_reports_a_referral_with_its_reason(self):
        self.send(self.white, "1. e4", "--at", "2026-05-01T10:05:30Z")
        out = self.send(self.black, "1. e4 Ke7", "--at", "2026-05-01T10:10:00Z", "--sent", "2026-05-01T10:09:40Z")
        assert out.startswith("Applied: referral")
        reply = Transmission.objects.get(direction="out", kind="referral")
        assert reply.party == "black" and reply.text in out
        self.game.refresh_from_db()
        assert (self.game.plies, self.game.on_move) == (1, "black")

    def test_it_finds_the_game_by_its_code_among_several(self):
        services.game_create(white=self.white, black=self.other, start=datetime.datetime(2026, 5, 1, 10, tzinfo=UTC))
        out = self.send(self.white, "1. d4", "--at", "2026-05-01T10:05:30Z")
        assert out.startswith("Applied: unknown game")
        assert "You play several games" in out
        out = self.send(self.white, "1. d4", "--at", "2026-05-01T10:06:00Z", "--game", f"#{self.game.code.lower()}")
        assert out.startswith(f"Applied: move (#{self.game.code}")

    def test_it_resigns_and_prints_the_result(self):
        self.send(self.white, "1. e4", "--at", "2026-05-01T10:05:30Z")
        out = self.send(self.black, "resign", "--at", "2026-05-01T10:07:00Z")
        assert out.startswith(f"Applied: resign (#{self.game.code}, 1-0 resignation, 1 plies)")
        assert out.count("->") == 3  # both players and the TD

    @pytest.mark.parametrize(
        ("sender", "extra", "problem"),
        [
            ("424242", [], "no player has the federation id 424242"),
            ("x1", [], "is not a federation id"),
            ("w", ["--at", "2026-05-01T10:05:30"], "--at '2026-05-01T10:05:30' has no time zone"),
            ("w", ["--sent", "yesterday"], "--sent 'yesterday' is not an ISO date and time"),
        ],
    )
    def test_it_refuses_bad_input_and_records_nothing(self, sender, extra, problem):
        who = str(self.white.federation_id) if sender == "w" else sender
        with pytest.raises(CommandError, match=problem):
            run("play_message", "--from", who, "--text", "1. e4", *extra)
        assert not Transmission.objects.exists()
        self.game.refresh_from_db()
        assert self.game.plies == 0

    def test_it_refuses_an_empty_message(self):
        with pytest.raises(CommandError, match="--text is empty"):
            self.send(self.white, "   ")
        assert not Transmission.objects.exists()
