"""What is read at scrape time rather than counted: the outbox backlog per channel, the worker
queues, the rating requests waiting (one query each, the health selectors), and what the last page
cache warming after a rating run did (from the cache), on every scrape."""

from __future__ import annotations

from django.utils import timezone
from prometheus_client.core import GaugeMetricFamily

from operations.health import broker, selectors
from toolkit import pagecache


class BacklogCollector:
    def collect(self):
        now = timezone.now()
        pending = GaugeMetricFamily(
            "federation_outbox_pending", "Outbound messages waiting to be sent, by channel.", labels=["channel"]
        )
        oldest = GaugeMetricFamily(
            "federation_outbox_oldest_seconds",
            "Age of the oldest pending outbound message, by channel.",
            labels=["channel"],
        )
        for channel, (count, at) in sorted(selectors.outbox_pending().items()):
            pending.add_metric([channel], count)
            oldest.add_metric([channel], (now - at).total_seconds())
        yield pending
        yield oldest
        waiting = selectors.rating_oldest_waiting()
        yield GaugeMetricFamily(
            "federation_rating_oldest_waiting_seconds",
            "Age of the oldest rating request waiting for a worker (0: none).",
            value=(now - waiting).total_seconds() if waiting else 0,
        )
        yield from self._warming()
        if broker.used():
            yield from self._queues(now.timestamp())

    def _warming(self):
        """The last warming of the public pages after a rating run (toolkit/pagecache.py), if any."""
        warming = pagecache.last_warming()
        if warming is None:
            return
        yield GaugeMetricFamily(
            "federation_page_warming_pages", "Pages the last warming after a rating run stored.", value=warming["pages"]
        )
        yield GaugeMetricFamily(
            "federation_page_warming_failures",
            "Pages the last warming could not store, plus 1 if it failed as a whole (0: all warm).",
            value=len(warming["failed"]) + (1 if warming["error"] else 0),
        )

    def _queues(self, now: float):
        length = GaugeMetricFamily("federation_queue_length", "Tasks waiting in a worker queue.", labels=["queue"])
        age = GaugeMetricFamily(
            "federation_queue_oldest_seconds", "Age of the oldest task waiting in a worker queue.", labels=["queue"]
        )
        up = GaugeMetricFamily("federation_broker_up", "1 when the broker answered this scrape, else 0.")
        try:
            queues = broker.queues_read(broker.queue_names())
        except Exception:
            up.add_metric([], 0)
            yield up
            return
        up.add_metric([], 1)
        for queue in queues:
            length.add_metric([queue.name], queue.length)
            age.add_metric([queue.name], 0 if queue.oldest_sent is None else max(0.0, now - queue.oldest_sent))
        yield from (up, length, age)
