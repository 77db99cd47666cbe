"""The message service over the database: every sample transcript played through
`message_receive` (console channel) and the sweeper gives the spec's outcome, the continuous
record keeps every transmission, and the game rebuilt from the record alone is the stored one."""

import datetime
import io

import pytest

from play import rulings, services, state
from play.channels import outbox
from play.models import ChannelAddress, MobileGame, Transmission
from play.rules import transcript
from play.rules.message import parse_message
from tests.play import examples
from tests.players.factories import PlayerFactory

UTC = datetime.UTC


@pytest.fixture(autouse=True)
def _quiet_console(settings):
    settings.PLAY_CONSOLE_STREAM = io.StringIO()


def at(text: str) -> datetime.datetime:
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))


def two_players():
    return PlayerFactory(), PlayerFactory()


def play_transcript(name: str):
    read = transcript.read(examples.transcript(name).splitlines())
    white, black = two_players()
    game = services.game_create(
        white=white, black=black, start=read.start, control=str(read.control), norm=read.control.norm
    )
    tags = {parse_message(line.text).game for line in read.lines} - {None}
    if tags:  # the transcript names its game: give ours that code
        MobileGame.objects.filter(pk=game.pk).update(code=tags.pop().upper())
    ids = {"white": white.federation_id, "black": black.federation_id}
    for line in read.lines:
        services.message_receive(
            channel="console", sender=str(ids[line.sender]), text=line.text, arrival=line.at, sent=line.sent
        )
    if read.end is not None:
        services.games_sweep(now=read.end)
    game.refresh_from_db()
    return game, read


@pytest.mark.django_db
@pytest.mark.parametrize("name", examples.names())
def test_it_plays_every_sample_transcript_through_the_message_service(name):
    game, read = play_transcript(name)
    got = transcript.outcome(state.load(game))
    want = examples.expected(name)
    for move in (*got["moves"], *want["moves"]):
        move.pop("sent"), move.pop("receipt")
    assert got == want
    assert game.result == want["result"]
    assert game.termination == want["termination"]
    # The record holds every inbound message unchanged, in order.
    inbound = list(game.transmissions.filter(direction="in").values_list("text", flat=True))
    assert inbound == [line.text for line in read.lines]
    # And the game rebuilt from the record alone is the stored one.
    rebuilt, stored = state.rebuild(game, until=read.end or read.lines[-1].at), state.load(game)
    assert rebuilt == stored
    assert rebuilt.board.fen() == stored.board.fen()


@pytest.mark.django_db
class TestMessages:
    def setup_method(self):
        self.white, self.black = two_players()
        self.start = datetime.datetime(2026, 5, 1, 10, 0, tzinfo=UTC)
        self.game = services.game_create(white=self.white, black=self.black, start=self.start)

    def send(self, player, text, minutes, **kwargs):
        return services.message_receive(
            channel="console", sender=str(player.federation_id), text=text,
            arrival=self.start + datetime.timedelta(minutes=minutes), **kwargs,
        )  # fmt: skip

    def test_it_acknowledges_a_move_and_forwards_it_with_the_clocks(self):
        receipt = self.send(self.white, "1. e4", 5)
        assert receipt.applied == "move"
        kinds = sorted((r.party, r.kind) for r in receipt.replies)
        assert kinds == [("black", "move"), ("white", "acknowledgement")]
        forwarded = next(r for r in receipt.replies if r.kind == "move")
        assert forwarded.text.startswith(f"#{self.game.code} Your opponent played 1. e4")
        assert "used 0:04:00" in forwarded.text  # receipt at start + 60 s, sent at start + 5 min
        self.game.refresh_from_db()
        assert (self.game.plies, self.game.on_move) == (1, "black")
        assert self.game.next_due is not None

    def test_it_refers_back_an_illegal_move_with_the_reason_and_position(self):
        receipt = self.send(self.white, "1. e5", 5)
        assert receipt.applied == "referral"
        (reply,) = receipt.replies
        assert reply.kind == "referral" and reply.party == "white"
        assert reply.data["reason"] == "illegal"
        assert self.game.transmissions.filter(direction="in", kind="referral").count() == 1

    def test_it_applies_a_message_delivered_twice_once(self):
        assert self.send(self.white, "1. e4", 5, external_id="sms-1").applied == "move"
        assert self.send(self.white, "1. e4", 6, external_id="sms-1").applied == "duplicate"
        self.game.refresh_from_db()
        assert self.game.plies == 1
        assert Transmission.objects.filter(direction="in").count() == 1

    def test_it_changes_nothing_for_an_unknown_sender(self):
        receipt = services.message_receive(channel="console", sender="999999999", text="1. e4", arrival=self.start)
        assert receipt.applied == "unknown sender"
        assert Transmission.objects.count() == 0
        receipt = services.message_receive(channel="sms", sender="+79990000000", text="1. e4", arrival=self.start)
        assert receipt.applied == "unknown sender"

    def test_it_asks_which_game_when_the_sender_plays_several(self):
        other = PlayerFactory()
        second = services.game_create(white=other, black=self.white, start=self.start)
        receipt = self.send(self.white, "1. e4", 5)
        assert receipt.applied == "unknown game"
        assert second.code in receipt.replies[0].text and self.game.code in receipt.replies[0].text
        assert self.send(self.white, f"#{self.game.code} 1. e4", 6).applied == "move"

    def test_it_files_a_failure_to_reply_claim_in_the_sweep_and_tells_the_td(self):
        # White never moves: A(1) = 10800 s from receipt start + 60 s; the claim is filed at
        # receipt + A + 1 + N (spec, Clocks), by the first sweep after it. The reminder is due at
        # receipt + ceil(4R/5) = 10:01:00 + 8640 s = 12:25:00.
        assert services.games_sweep(now=self.start + datetime.timedelta(seconds=60 + 8640)) == 0
        assert services.games_sweep(now=self.start + datetime.timedelta(seconds=60 + 8640 + 1)) == 1
        services.games_sweep(now=self.start + datetime.timedelta(seconds=60 + 10_800 + 1 + 60 + 1))
        self.game.refresh_from_db()
        assert self.game.result == "*" and self.game.termination == "pending claim"
        claim = self.game.transmissions.get(direction="out", kind="claim", party="td")
        assert claim.data["filed"] == "2026-05-01T13:02:01Z"
        assert self.game.transmissions.filter(direction="out", kind="reminder", party="white").count() == 1

    def test_it_refuses_to_decide_a_claim_twice(self):
        services.games_sweep(now=self.start + datetime.timedelta(seconds=60 + 10_800 + 1 + 60 + 1))
        decided = self.start + datetime.timedelta(hours=4)
        rulings.claim_decide(game=self.game, against="white", ply=1, upheld=True, by=None, at=decided)
        self.game.refresh_from_db()
        assert (self.game.result, self.game.termination) == ("0-1", "time")
        with pytest.raises(services.PlayError, match="already upheld"):
            rulings.claim_decide(game=self.game, against="white", ply=1, upheld=False, by=None)
        self.game.refresh_from_db()
        assert self.game.result == "0-1"
        assert self.game.transmissions.filter(direction="ruling").count() == 1

    def test_it_marks_outbound_messages_sent_through_the_console(self, django_capture_on_commit_callbacks, settings):
        with django_capture_on_commit_callbacks() as callbacks:
            receipt = self.send(self.white, "1. e4", 5)
        assert len(callbacks) == 1  # the delivery is queued after the commit, not before
        pending = [row.pk for row in receipt.replies if row.delivery == "pending"]
        assert outbox.outbound_deliver_many(pending) == 1  # what the queued task does, without a worker
        # White wrote on the console, so his acknowledgement is printed there; Black has not written
        # yet, so his copy waits on the game page (the web channel).
        printed = settings.PLAY_CONSOLE_STREAM.getvalue()
        assert f"[console -> white {self.white.federation_id}] #{self.game.code} Received 1. e4" in printed
        assert "Your opponent played" not in printed
        assert {(r.party, r.channel) for r in receipt.replies} == {("white", "console"), ("black", "web")}
        for row in receipt.replies:
            row.refresh_from_db()
            # The console row was sent by the task; the web row was "sent" by being written.
            assert (row.delivery, row.attempts) == ("sent", 1 if row.channel == "console" else 0)

    def test_it_refuses_a_game_against_oneself(self):
        with pytest.raises(services.PlayError):
            services.game_create(white=self.white, black=self.white, start=self.start)
        assert MobileGame.objects.count() == 1


@pytest.mark.django_db
def test_it_rates_a_game_finished_by_messages_in_mchess_at_its_finishing_moment():
    """Fool's mate played through the message service: the game's own re-rating request rates it
    in Mchess with W = 250 at the mating move's second (spec, Rating)."""
    from ratings.models import RatingChange, RatingRequest
    from ratings.services import run_requests

    white, black = two_players()
    start = datetime.datetime(2026, 5, 1, 10, 0, tzinfo=UTC)
    game = services.game_create(white=white, black=black, start=start)
    moves = [(white, "1. f3"), (black, "1. f3 e5"), (white, "1... e5 2. g4"), (black, "2. g4 Qh4#")]
    for minutes, (player, text) in enumerate(moves, start=5):
        services.message_receive(
            channel="console",
            sender=str(player.federation_id),
            text=text,
            arrival=start + datetime.timedelta(minutes=minutes),
        )
    game.refresh_from_db()
    assert (game.result, game.termination, game.status) == ("0-1", "checkmate", "finished")
    assert game.finished_at == start + datetime.timedelta(minutes=8)
    request = RatingRequest.objects.get(reason="mobile")
    assert request.since_at == game.finished_at
    run_requests()
    changes = {c.player_id: c for c in RatingChange.objects.filter(mobile_game=game, system="mchess")}
    assert set(changes) == {white.pk, black.pk}
    assert changes[black.pk].rating_after > changes[black.pk].rating_before
    assert changes[white.pk].rating_after <= changes[white.pk].rating_before  # Mchess is floored at 0


class Failing:
    """A channel whose gateway is down."""

    def send(self, row):
        from play.channels import TransientFailure

        raise TransientFailure("gateway unreachable")


@pytest.mark.django_db
def test_it_keeps_a_failed_delivery_pending_with_its_error_until_the_attempts_run_out(settings):
    settings.PLAY_CHANNEL_BACKENDS = {**settings.PLAY_CHANNEL_BACKENDS, "console": "tests.play.test_services.Failing"}
    settings.PLAY_DELIVERY_ATTEMPTS = 2
    white, black = two_players()
    start = datetime.datetime(2026, 5, 1, 10, 0, tzinfo=UTC)
    services.game_create(white=white, black=black, start=start)
    receipt = services.message_receive(
        channel="console", sender=str(white.federation_id), text="1. e4", arrival=start + datetime.timedelta(minutes=5)
    )
    (ack,) = [row for row in receipt.replies if row.channel == "console"]
    assert not outbox.outbound_deliver(ack.pk)
    ack.refresh_from_db()
    assert (ack.delivery, ack.attempts, ack.error) == ("pending", 1, "gateway unreachable")
    assert not outbox.outbound_deliver(ack.pk)
    ack.refresh_from_db()
    assert (ack.delivery, ack.attempts) == ("failed", 2)  # visible to staff; the move itself stands
    assert MobileGame.objects.get().plies == 1


@pytest.mark.django_db
def test_it_sends_a_new_games_first_messages_to_the_players_latest_linked_phone():
    white, black, third = PlayerFactory(), PlayerFactory(), PlayerFactory()
    start = datetime.datetime(2026, 11, 23, 12, 0, tzinfo=datetime.UTC)
    ChannelAddress.objects.create(player=white, channel="sms", address="+79000000001", verified_at=start)
    ChannelAddress.objects.create(
        player=white, channel="telegram", address="4242", verified_at=start + datetime.timedelta(days=1)
    )
    ChannelAddress.objects.create(player=third, channel="sms", address="+79000000003", verified_at=None)
    game = services.game_create(white=white, black=black, start=start)
    assert (game.white_channel, game.black_channel) == ("telegram", "web")  # Black linked nothing
    game = services.game_create(white=third, black=white, start=start)
    assert (game.white_channel, game.black_channel) == ("web", "telegram")  # an unverified number is no channel
