"""Mobile chess's outbox: the delivery of outbound rows through their channels. Rows are written by
play/services.py in the transaction of the message they answer and handed here after it commits
(a task per message, play.tasks.deliver) or by the sweep (play.tasks.sweep_outbox). Order per
address is kept, transient failures are retried with exponential backoff, a permanent one fails
the row at once, per-address rate limits hold rows back, and a channel's first success after a
failure ends its outage (rule 5e)."""

from __future__ import annotations

import datetime
import secrets

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from play import signals
from play.channels import drain, limits
from play.models import Transmission
from toolkit.bulk import update_rows


def outbound_deliver(transmission_id: int) -> bool:
    """Send one pending outbound message through its channel; True when sent. A failure is kept
    on the row (visible to staff) and retried by the outbox sweep."""
    return transmission_id in _deliver([transmission_id])[0]


def outbound_deliver_many(ids: list[int], *, now: datetime.datetime | None = None) -> int:
    """Send several pending outbound rows (one message's replies) in one transaction; returns how
    many of them were sent (see `outbound_deliver_retry`). A row over its address's rate limit
    waits (pending, no attempt spent) for the outbox sweep."""
    wanted = set(ids)
    return len(wanted & set(_deliver(ids, now=now)[0]))


def outbound_deliver_retry(ids: list[int]) -> list[int]:
    """Send the rows as `outbound_deliver_many` does; the ids of those to try again later (a
    transient failure, or held behind an earlier message to the same address that failed): the
    delivery task retries them with exponential backoff. When a retry gets rows through (a row
    sent on its second try or later), a drain is asked for: rows written meanwhile to those
    addresses waited behind them (see `outbox_drain`)."""
    sent, again = _deliver(ids)
    # Only after a failure (a retry that got through): a first try held nothing back.
    if sent and Transmission.objects.filter(pk__in=sent, attempts__gt=1).exists():
        drain.request(sent)
    return again


# A retry of a transient failure waits 2, 4, 8... seconds (with jitter), at most 10 minutes: a
# gateway back in seconds gets its messages at once, one down for an hour is not hammered.
RETRY_BASE_SECONDS = 2
RETRY_MAX_SECONDS = 600


def retry_delay(retries: int, *, jitter: float | None = None) -> float:
    """Seconds before the delivery task's retry number `retries` + 1; `jitter` in [0, 1) (random
    when None) spreads retries of many rows over the last half of the interval."""
    full = min(RETRY_MAX_SECONDS, RETRY_BASE_SECONDS * 2**retries)
    share = secrets.SystemRandom().random() if jitter is None else jitter
    return full / 2 + full / 2 * share


def _deliver(
    ids: list[int], *, earlier: bool = True, now: datetime.datetime | None = None
) -> tuple[list[int], list[int]]:
    """Lock and send pending rows, skipping any another worker holds, updated in one statement;
    (ids sent, ids to retry). Ordering per address is kept: an older pending row to the same
    channel and address (one that failed before) is sent first (unless `earlier` is False: the
    sweep goes through the outbox in order anyway), and once a row to an address fails
    transiently, or is over the address's rate limit, the later rows to it wait with it (those
    behind a rate limit for the outbox sweep, not for the task's retries)."""
    from play import channels
    from play.channels import outages

    now = now or timezone.now()
    with transaction.atomic():
        pending = Transmission.objects.select_for_update(skip_locked=True).filter(
            delivery=Transmission.Delivery.PENDING
        )
        wanted = Q(pk__in=ids)
        if earlier and ids:
            # In the same statement (one round trip a delivery): the older pending rows to the
            # addresses of these, by two uncorrelated subqueries, each hashed once by PostgreSQL.
            # (An address of one channel matched with another's is as good as impossible, and
            # would only send a pending row early.)
            mine = Transmission.objects.filter(pk__in=ids)
            wanted |= Q(
                direction=Transmission.Direction.OUT,
                pk__lt=max(ids),
                channel__in=mine.values("channel"),
                address__in=mine.values("address"),
            )
        # The order they were written: per player and game, as sent.
        rows = list(pending.filter(wanted).order_by("pk"))
        sent, retry, held, limited, touched = [], [], set(), set(), []
        for row in rows:
            key = (row.channel, row.address)
            if key in limited:
                row.error = limits.RATE_LIMITED  # waits behind the first one held back
                touched.append(row)
                continue
            if key in held:
                retry.append(row.pk)
                continue
            touched.append(row)
            if not limits.outbound_allowed(row, now):
                row.error = limits.RATE_LIMITED
                limited.add(key)
                continue
            row.attempts += 1
            try:
                channels.get(row.channel).send(row)
            except channels.TransientFailure as error:
                row.error = str(error)
                if row.attempts >= settings.PLAY_DELIVERY_ATTEMPTS:
                    row.delivery = Transmission.Delivery.FAILED
                else:
                    retry.append(row.pk)
                    held.add(key)
                continue
            except channels.PermanentFailure as error:
                row.error, row.delivery = str(error), Transmission.Delivery.FAILED
                continue
            row.delivery, row.delivered_at, row.error = Transmission.Delivery.SENT, now, ""
            sent.append(row.pk)
        # external_id: the id a channel's gateway gave the message (its delivery reports name it).
        # One UPDATE ... FROM (VALUES ...): bulk_update's CASE per row and field cost more than the
        # sends themselves in the outbox drain benchmark.
        update_rows(touched, ["attempts", "error", "delivery", "delivered_at", "external_id"])
        # A channel that delivers again ends its outage (rule 5e), at the first success.
        outages.channels_delivered({row.channel for row in touched if row.delivery == Transmission.Delivery.SENT}, now)
    _report(rows, touched, retry)
    return sent, retry


def _report(rows: list[Transmission], touched: list[Transmission], retry: list[int]) -> None:
    """Tell the apps above (metrics) what became of the rows tried, per channel."""
    counts: dict[tuple[str, str], int] = {}
    retrying, tried = set(retry), {row.pk for row in touched}
    for row in rows:
        if row.pk in retrying:
            result = "retry"
        elif row.delivery in (Transmission.Delivery.SENT, Transmission.Delivery.FAILED):
            result = row.delivery
        elif row.pk in tried:
            result = "held"
        else:
            continue
        counts[row.channel, result] = counts.get((row.channel, result), 0) + 1
    if counts:
        signals.messages_delivered.send_robust(sender=None, counts=counts)


def outbox_sweep(
    *,
    older_than: datetime.timedelta = datetime.timedelta(seconds=30),
    batch: int = 100,
    limit: int = 5000,
    now: datetime.datetime | None = None,
) -> int:
    """Deliver what is still pending (a queue that was down, a channel that failed, an address
    over its rate limit), oldest first, `batch` rows a transaction, at most `limit` rows a pass
    (the beat queues one a minute); a row tried in this pass is not tried again in it. Then open
    an outage for any channel failing for longer than the transmission norm (play/channels/outages.py).
    Returns how many were sent."""
    from play.channels import outages

    now = now or timezone.now()
    due = Transmission.objects.filter(delivery=Transmission.Delivery.PENDING, at__lt=now - older_than).order_by("pk")
    sent = tried = last = 0
    while tried < limit:
        ids = list(due.filter(pk__gt=last).values_list("pk", flat=True)[: min(batch, limit - tried)])
        if not ids:
            break
        sent += len(_deliver(ids, earlier=False, now=now)[0])
        tried, last = tried + len(ids), ids[-1]
    outages.outages_sweep(now=now)
    return sent


# --- the drain: one task for the rows of many messages ----------------------------------------


def outbox_drain(*, batch: int = 100, limit: int = 5000, now: datetime.datetime | None = None) -> tuple[int, list[int]]:
    """Send the outbound rows no delivery has tried yet, oldest first, `batch` rows a transaction,
    at most `limit` a pass; (how many were sent, the ids to retry with backoff). The flag is
    cleared first, so a message committed from now on queues a drain of its own if this one has
    already read past its rows. A row behind an earlier pending row to the same address that was
    tried (a transient failure waiting for its retry, or a rate limit) is left to wait with it, for
    the delivery task's retry or the outbox sweep: order per address holds, backoff is not cut short."""
    drain.drain_started()
    pending = Transmission.objects.filter(delivery=Transmission.Delivery.PENDING)
    tried = pending.filter(pk__lt=OuterRef("pk"), channel=OuterRef("channel"), address=OuterRef("address")).filter(
        Q(attempts__gt=0) | ~Q(error="")
    )
    fresh = (
        pending.filter(direction=Transmission.Direction.OUT, attempts=0, error="").exclude(Exists(tried)).order_by("pk")
    )
    sent, retry, done, last = 0, [], 0, 0
    while done < limit:
        ids = list(fresh.filter(pk__gt=last).values_list("pk", flat=True)[: min(batch, limit - done)])
        if not ids:
            break
        went, again = _deliver(ids, earlier=False, now=now)
        sent, retry, done, last = sent + len(went), retry + again, done + len(ids), ids[-1]
    return sent, retry


# --- delivery reports of the SMS providers ------------------------------------------------------


def sms_report_row(message_id: str) -> Transmission | None:
    """The outbound SMS row a provider's delivery report names, locked for the report's
    transaction (the delivery that sent it may still be writing the id: callers decide what a
    missing row means)."""
    return (
        Transmission.objects.select_for_update()
        .filter(direction=Transmission.Direction.OUT, channel="sms", external_id=message_id)
        .order_by("pk")
        .first()
    )


def delivery_report_keep(row: Transmission, report: dict, *, delivered_at=None, error: str = "") -> bool:
    """Keep a provider's report (`event`, `payload`, ...) on its outbound row, and what it says:
    delivered at `delivered_at`, or failed with `error`. False, and nothing written, when the
    same report (event and payload) is there already: providers post a report again."""
    if any(
        seen.get("event") == report["event"] and seen.get("payload") == report["payload"]
        for seen in row.delivery_reports
    ):
        return False
    row.delivery_reports = [*row.delivery_reports, report]
    fields = ["delivery_reports"]
    if delivered_at is not None:
        row.delivered_at = delivered_at
        fields.append("delivered_at")
    elif error:
        row.delivery = Transmission.Delivery.FAILED
        row.error = error
        fields += ["delivery", "error"]
    row.save(update_fields=fields)
    return True
