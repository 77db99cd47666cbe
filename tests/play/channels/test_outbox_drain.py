"""One outbox drain for the rows of many messages (play.tasks.drain_outbox): a message's commit
queues a drain only when none is waiting to start; the drain sends every row no delivery has tried,
in order, and leaves the rows behind a failing one to that row's retries, so order per address and
the backoff both hold. A broker or a cache that is down loses nothing."""

import datetime
from unittest import mock

import pytest
from django.core.cache import cache

from play import tasks
from play.channels import drain, outbox
from play.models import Transmission
from tests.play.channels.flaky import FAILURES, SENT, move, pending_rows

UTC = datetime.UTC


pytestmark = pytest.mark.usefixtures("flaky_channel")


def states(ids):
    return [(r.delivery, r.attempts) for r in Transmission.objects.filter(pk__in=ids).order_by("pk")]


@pytest.mark.django_db
class TestDrain:
    def test_it_sends_the_rows_of_several_messages_in_one_pass_in_order(self, game):
        ids = move(game, "white", "1. e4", 5) + move(game, "black", "1. e4 e5", 7) + pending_rows(game, 250)
        assert outbox.outbox_drain(batch=100) == (len(ids), [])
        assert states(ids) == [("sent", 1)] * len(ids)
        rows = Transmission.objects.filter(pk__in=ids).order_by("pk")
        assert [text for _, text in SENT] == [row.text for row in rows]

    def test_it_stops_at_its_limit_and_the_next_drain_goes_on(self, game):
        ids = pending_rows(game, 25)
        assert outbox.outbox_drain(batch=10, limit=15) == (15, [])
        assert outbox.outbox_drain(batch=10, limit=15) == (10, [])
        assert states(ids) == [("sent", 1)] * 25

    def test_it_leaves_the_rows_behind_a_failure_to_the_retry_and_keeps_the_backoff(self, game):
        ids = pending_rows(game, 3)
        FAILURES["left"] = 1
        sent, again = outbox.outbox_drain(batch=100)
        # The first fails; the two behind it wait with it (held, untried) for its retry.
        assert (sent, again) == (0, ids)
        assert states(ids) == [("pending", 1), ("pending", 0), ("pending", 0)]
        # A later message to the same address, and a second drain (another message committed):
        # nothing to that address is tried before the retry's backoff has run.
        later = pending_rows(game, 1, minutes_ago=0)
        assert outbox.outbox_drain() == (0, [])
        assert SENT == []
        # The retry (the delivery task, after its countdown) sends them in the order written, and
        # asks for a drain, which sends the later row that waited behind them (in this process).
        assert outbox.outbound_deliver_retry(again) == []
        assert outbox.outbox_sweep(older_than=datetime.timedelta(0)) == 0
        assert states(ids + later) == [("sent", 2), ("sent", 1), ("sent", 1), ("sent", 1)]
        assert [text for _, text in SENT] == [f"#{game.code} message {i}" for i in (0, 1, 2, 0)]

    def test_it_leaves_a_rate_limited_address_to_the_sweep(self, game, monkeypatch):
        ids = pending_rows(game, 2)
        monkeypatch.setattr("play.channels.limits.outbound_allowed", lambda row, now: False)
        assert outbox.outbox_drain() == (0, [])
        assert states(ids) == [("pending", 0), ("pending", 0)]
        assert outbox.outbox_drain() == (0, [])  # not tried again: the sweep's
        assert SENT == []


@pytest.mark.django_db
class TestQueueing:
    def test_it_queues_one_drain_while_one_waits_to_start(self, game, django_capture_on_commit_callbacks):
        with mock.patch.object(tasks.drain_outbox, "delay") as delay:
            with django_capture_on_commit_callbacks(execute=True):
                move(game, "white", "1. e4", 5)
            with django_capture_on_commit_callbacks(execute=True):
                move(game, "black", "1. e4 e5", 7)
        assert delay.call_count == 1
        # The drain starts (the flag cleared): the next message queues the next drain.
        sent, _ = outbox.outbox_drain()
        assert sent == len(SENT) > 0
        with (
            mock.patch.object(tasks.drain_outbox, "delay") as delay,
            django_capture_on_commit_callbacks(execute=True),
        ):
            move(game, "white", "1. e4 e5 2. Nf3", 9)
        assert delay.call_count == 1

    def test_it_delivers_each_message_at_once_when_tasks_run_in_process(self, game, django_capture_on_commit_callbacks):
        with django_capture_on_commit_callbacks(execute=True):
            ids = move(game, "white", "1. e4", 5)
        assert states(ids) == [("sent", 1)] * len(ids)
        with django_capture_on_commit_callbacks(execute=True):
            more = move(game, "black", "1. e4 e5", 7)
        assert states(more) == [("sent", 1)] * len(more)

    def test_it_loses_nothing_with_the_broker_down_and_asks_again(self, game, django_capture_on_commit_callbacks):
        with (
            mock.patch.object(tasks.drain_outbox, "delay", side_effect=OSError("broker down")),
            django_capture_on_commit_callbacks(execute=True),
        ):
            ids = move(game, "white", "1. e4", 5)
        assert states(ids) == [("pending", 0)] * len(ids)
        assert cache.get(drain.DRAIN_FLAG) is None  # not left set: the next message queues a drain
        with django_capture_on_commit_callbacks(execute=True):
            more = move(game, "black", "1. e4 e5", 7)
        assert states(ids + more) == [("sent", 1)] * len(ids + more)

    def test_it_queues_a_drain_each_time_with_the_cache_down(self, game, django_capture_on_commit_callbacks):
        with (
            mock.patch.object(drain.cache, "add", side_effect=ConnectionError("cache down")),
            mock.patch.object(drain.cache, "delete", side_effect=ConnectionError("cache down")),
            mock.patch.object(tasks.drain_outbox, "delay") as delay,
        ):
            with django_capture_on_commit_callbacks(execute=True):
                move(game, "white", "1. e4", 5)
            with django_capture_on_commit_callbacks(execute=True):
                move(game, "black", "1. e4 e5", 7)
            assert delay.call_count == 2
            sent, again = outbox.outbox_drain()
        assert again == [] and sent == len(SENT) > 0

    def test_it_retries_what_the_channel_refused_with_the_delivery_task(self, game):
        ids = pending_rows(game, 2)
        FAILURES["left"] = 1
        with mock.patch.object(tasks.deliver, "apply_async") as retry:
            assert tasks.drain_outbox.apply().get() == 0
        retry.assert_called_once()
        assert retry.call_args.kwargs["args"] == [ids]
        assert 1 <= retry.call_args.kwargs["countdown"] <= 2

    def test_it_asks_for_a_drain_after_a_retry_gets_through_only(self, game):
        first, second = pending_rows(game, 1), pending_rows(game, 1)
        with mock.patch.object(tasks.drain_outbox, "delay") as delay:
            assert outbox.outbound_deliver_retry(first) == []  # sent at the first try: nothing held
            assert delay.call_count == 0
            FAILURES["left"] = 1
            assert outbox.outbound_deliver_retry(second) == second
            assert outbox.outbound_deliver_retry(second) == []  # the retry got through
            assert delay.call_count == 1
