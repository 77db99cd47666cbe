"""Outbound delivery when a channel fails for a while: the delivery task tries the rows again with
exponential backoff (2, 4, 8... seconds, at most 10 minutes), and the messages to one address go
out in the order they were written, whatever failed in between."""

import datetime

import pytest

from play import tasks
from play.channels import outbox
from play.models import Transmission
from tests.play.channels.flaky import FAILURES, SENT, move, pending_rows

UTC = datetime.UTC
pytestmark = pytest.mark.usefixtures("flaky_channel")


@pytest.mark.parametrize(
    ("retries", "jitter", "seconds"),
    [
        (0, 0.0, 1),
        (0, 0.999999, 2),
        (1, 0.0, 2),
        (1, 1.0, 4),
        (2, 0.5, 6),
        (3, 1.0, 16),
        (8, 1.0, 512),
        (9, 1.0, 600),
        (20, 0.0, 300),
    ],
)
def test_it_waits_twice_as_long_before_each_retry(retries, jitter, seconds):
    assert outbox.retry_delay(retries, jitter=jitter) == pytest.approx(seconds, abs=1e-4)


def test_it_draws_the_jitter_within_the_interval():
    delays = {outbox.retry_delay(2) for _ in range(50)}
    assert all(4 <= d <= 8 for d in delays) and len(delays) > 1


@pytest.mark.django_db
class TestRetry:
    def test_it_names_the_rows_to_try_again(self, game):
        ids = move(game, "white", "1. e4", 5)
        FAILURES["left"] = 1
        again = outbox.outbound_deliver_retry(ids)
        rows = {row.pk: row for row in Transmission.objects.filter(pk__in=ids)}
        failed = [pk for pk in ids if rows[pk].attempts == 1 and rows[pk].delivery == "pending"]
        assert again == [pk for pk in ids if rows[pk].delivery == "pending"]
        assert failed and failed[0] in again
        assert outbox.outbound_deliver_retry(again) == []
        assert set(Transmission.objects.filter(pk__in=ids).values_list("delivery", flat=True)) == {"sent"}

    def test_it_names_no_row_that_ran_out_of_attempts(self, game, settings):
        settings.PLAY_DELIVERY_ATTEMPTS = 1
        ids = move(game, "white", "1. e4", 5)
        FAILURES["left"] = 1
        assert ids[0] not in outbox.outbound_deliver_retry(ids)
        assert Transmission.objects.get(pk=ids[0]).delivery == "failed"

    def test_it_sends_an_older_pending_message_to_the_address_first(self, game):
        # White's acknowledgement of 1. e4 failed; Black's reply writes a notice to White: the
        # delivery of that notice sends the acknowledgement first.
        first = move(game, "white", "1. e4", 5)
        FAILURES["left"] = len(first)
        outbox.outbound_deliver_many(first)
        assert SENT == []
        second = move(game, "black", "1. e4 e5", 7)
        assert outbox.outbound_deliver_many(second) == len(second)
        white = str(game.white.federation_id)
        to_white = [text for address, text in SENT if address == white]
        assert [text.split(" ", 2)[1] for text in to_white] == ["Received", "Your"]
        assert not Transmission.objects.filter(pk__in=first + second, delivery="pending").exists()

    def test_it_holds_later_messages_to_an_address_behind_one_that_failed(self, game):
        first = move(game, "white", "1. e4", 5)
        second = move(game, "black", "1. e4 e5", 7)
        FAILURES["left"] = 1  # the first row (White's acknowledgement) fails; nothing overtakes it
        again = outbox.outbound_deliver_retry(first + second)
        white = str(game.white.federation_id)
        assert [address for address, _ in SENT] == [str(game.black.federation_id)] * len(SENT)
        held = Transmission.objects.filter(pk__in=again).order_by("pk")
        assert {row.address for row in held} == {white}
        assert [row.attempts for row in held] == [1] + [0] * (len(held) - 1)
        assert outbox.outbound_deliver_retry(again) == []
        assert [text.split(" ", 2)[1] for address, text in SENT if address == white] == ["Received", "Your"]


@pytest.mark.django_db
def test_it_retries_in_the_task_until_the_gateway_takes_the_message(game):
    # Applied in this process, a retry runs at once (no countdown): the task itself tries again.
    ids = move(game, "white", "1. e4", 5)
    FAILURES["left"] = 2
    result = tasks.deliver.apply(args=[ids], throw=False)
    assert result.state == "SUCCESS"
    rows = list(Transmission.objects.filter(pk__in=ids).order_by("pk"))
    assert [row.delivery for row in rows] == ["sent"] * len(rows)
    assert sum(row.attempts for row in rows) == len(rows) + 2  # two refusals, then each row once
    assert len(SENT) == len(rows)


@pytest.mark.django_db
class TestOutboxSweep:
    def test_it_sends_every_due_row_in_order_a_batch_at_a_time(self, game):
        ids = pending_rows(game, 25)
        fresh = pending_rows(game, 1, minutes_ago=0)  # not yet due: its own task is still to come
        assert outbox.outbox_sweep(batch=10) == 25
        assert [text for _, text in SENT] == [f"#{game.code} message {i}" for i in range(25)]
        assert set(Transmission.objects.filter(pk__in=ids).values_list("delivery", flat=True)) == {"sent"}
        assert Transmission.objects.get(pk=fresh[0]).delivery == "pending"

    def test_it_stops_at_its_limit_and_the_next_pass_goes_on(self, game):
        pending_rows(game, 25)
        assert outbox.outbox_sweep(batch=10, limit=15) == 15
        assert outbox.outbox_sweep(batch=10, limit=15) == 10
        assert len(SENT) == 25

    def test_it_tries_a_failing_row_once_a_pass(self, game):
        # The first row fails and holds the rows to the same address behind it, in order: the pass
        # goes through the rest of the outbox without trying the failed row again.
        ids = pending_rows(game, 3)
        FAILURES["left"] = 1
        assert outbox.outbox_sweep(batch=1) == 2
        rows = list(Transmission.objects.filter(pk__in=ids).order_by("pk"))
        assert [(row.delivery, row.attempts) for row in rows] == [("pending", 1), ("sent", 1), ("sent", 1)]
        assert outbox.outbox_sweep(batch=1) == 1


def test_it_queues_by_the_names_the_tasks_are_registered_under():
    """play/queue.py names the tasks the services queue; each is the task of that name (and runs
    eagerly under the default settings, since its own delay/apply_async is used)."""
    from play import queue
    from toolkit import queueing

    for name in (queue.DELIVER, queue.ENGINE_MOVE, queue.CALIBRATION_GAME):
        assert queueing.task(name).name == name
    assert queueing.task(queue.DELIVER) is tasks.deliver._get_current_object()
