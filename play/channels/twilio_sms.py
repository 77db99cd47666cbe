"""SMS bought from Twilio: the second back-end of the "sms" channel, for federations without a
phone of their own running SMS Gateway for Android (play/channels/sms.py). The game service does not know
which one is in use: inbound messages arrive on the "sms" channel either way.

Outbound: `TwilioSms` is the "sms" channel class (PLAY_SMS_BACKEND=play.channels.twilio_sms.TwilioSms); it
hands one outbox row to Twilio's Messages API through Twilio's own client and keeps the message
SID on the row, which the status callbacks name.

Inbound: Twilio posts a form to /play/hooks/twilio/ for every SMS to the federation's number, and
one to /play/hooks/twilio/status/ for every change of an outbound message's status (the views are
in play/channels/hooks_twilio.py). Both are signed with the account's auth token (`signature_valid`);
`inbound_receive` gives the SMS to the game service and `status_report` keeps the status on the
outbound row as evidence for the TD. A report is never read by the clock."""

from __future__ import annotations

import datetime
import logging

import requests
from django.conf import settings
from django.db import transaction
from twilio.base.exceptions import TwilioRestException, TwilioServiceException
from twilio.http.http_client import TwilioHttpClient
from twilio.request_validator import RequestValidator
from twilio.rest import Client

from play import services
from play.channels import PermanentFailure, TransientFailure, outbox
from play.models import Transmission

logger = logging.getLogger("play.twilio")

# Twilio that does not answer must not hold a delivery worker (and the rows it locks) for long:
# the row stays pending and the next delivery or the outbox sweeper tries again.
TIMEOUT_SECONDS = 15
# Statuses Twilio reports for an outbound SMS that change the row; the others (queued, sending,
# sent, ...) are only kept as evidence.
FAILED_STATUSES = ("failed", "undelivered")


def _client() -> tuple[Client, TwilioHttpClient]:
    http = TwilioHttpClient(timeout=TIMEOUT_SECONDS)
    client = Client(
        settings.TWILIO_ACCOUNT_SID,
        settings.TWILIO_AUTH_TOKEN,
        http_client=http,
        # The client would otherwise read TWILIO_EDGE/TWILIO_REGION from os.environ and rewrite the
        # host behind our back: the settings are the only source, as for every other channel.
        environment={"TWILIO_ACCOUNT_SID": settings.TWILIO_ACCOUNT_SID},
    )
    # Every API the channel uses (Messages, Accounts) lives on the "api" domain; tests point it at a
    # fake server, a federation could point it at a regional host.
    client.api.base_url = settings.TWILIO_API_URL
    return client, http


def _failure(error: Exception, doing: str) -> Exception:
    """The channel's failure for what the client raised: a refusal that will not heal by itself
    (a 4xx: a bad number, wrong credentials) fails the row at once, with Twilio's error code for
    staff; anything else (a 5xx, 429, 408, no answer) leaves it pending for the next attempt."""
    if isinstance(error, requests.RequestException):
        return TransientFailure(f"Twilio unreachable while {doing}: {error}")
    if isinstance(error, TwilioRestException | TwilioServiceException):
        # str() of these draws in ANSI colours on a terminal: the row's error is written by hand.
        status = int(getattr(error, "status", 0) or 500)
        text = getattr(error, "msg", None) or getattr(error, "detail", None) or getattr(error, "title", "")
        said = f"Twilio answered {status} while {doing} (error {error.code}): {text}"
        if 400 <= status < 500 and status not in (408, 429):
            return PermanentFailure(said)
        return TransientFailure(said)
    return TransientFailure(f"Twilio gave an unreadable answer while {doing}: {error!r}")


# Twilio's Messages API takes no idempotency key: a send whose answer was lost (a time-out after
# Twilio created the message) looks like one that never arrived, and sending the row again would be
# a second SMS. So a row whose last try found Twilio unreachable is first looked up among the latest
# LOOKUP_LIMIT messages from our number to its address (Twilio lists the newest first): one with
# the row's text, created since the row was written, whose SID no other row holds, is this row's
# message, and the row is sent. (A message created after the lookup cannot be found: the lookup
# narrows the window to the moment between the lost answer and the next try, it cannot close it.)
LOST_ANSWER = "Twilio unreachable while sending"
LOOKUP_LIMIT = 20
CLOCK_SKEW = datetime.timedelta(minutes=1)  # Twilio's clock against ours, when comparing times


class TwilioSms:
    """The "sms" channel: one outbox row sent through Twilio's Messages API."""

    def send(self, row) -> None:
        options = {}
        if settings.TWILIO_STATUS_CALLBACK_URL:
            options["status_callback"] = settings.TWILIO_STATUS_CALLBACK_URL
        client, http = _client()
        try:
            # row.error is the last try's (the delivery writes this try's after the send).
            sid = _sent_before(client, row) if row.attempts > 1 and row.error.startswith(LOST_ANSWER) else None
            if sid is not None:
                logger.info("Twilio already has message %s for row %s: taken as sent", sid, row.pk)
                row.external_id = sid
                Transmission.objects.filter(pk=row.pk).update(external_id=sid)
                return
            message = client.messages.create(
                to=row.address, from_=settings.TWILIO_FROM_NUMBER, body=row.text, **options
            )
        except (requests.RequestException, TwilioRestException, TwilioServiceException, KeyError, ValueError) as error:
            raise _failure(error, "sending") from error
        finally:
            http.session.close()
        if not message.sid:
            raise TransientFailure("Twilio accepted the message but gave no SID")
        # The delivery service saves only its own fields; the SID goes in with the row still locked
        # by its transaction, so a status callback can find the row as soon as that commits.
        row.external_id = message.sid
        Transmission.objects.filter(pk=row.pk).update(external_id=message.sid)

    def check(self) -> str:
        """One line on the account the channel sends from; raises (as `send` would) when Twilio
        cannot be reached, refuses the credentials, or the account cannot send."""
        client, http = _client()
        try:
            account = client.api.v2010.account.fetch()
        except (requests.RequestException, TwilioRestException, TwilioServiceException, KeyError, ValueError) as error:
            raise _failure(error, "fetching the account") from error
        finally:
            http.session.close()
        if account.status != "active":
            raise PermanentFailure(f"Twilio account {account.sid} is {account.status}, not active: it cannot send")
        return (
            f"Twilio account {account.sid} ({account.friendly_name}) is active; "
            f"sending from {settings.TWILIO_FROM_NUMBER} through {settings.TWILIO_API_URL}"
        )


def _sent_before(client: Client, row) -> str | None:
    """The SID of the message Twilio made of an earlier try of `row`, or None (see LOST_ANSWER)."""
    since = row.at - CLOCK_SKEW
    found = [
        message.sid
        for message in client.messages.list(to=row.address, from_=settings.TWILIO_FROM_NUMBER, limit=LOOKUP_LIMIT)
        if message.body == row.text and message.date_created is not None and message.date_created >= since
    ]
    taken = set(
        Transmission.objects.filter(channel="sms", external_id__in=found)
        .exclude(pk=row.pk)
        .values_list("external_id", flat=True)
    )
    # The oldest one not another row's: an identical text sent twice is two rows, oldest first.
    mine = [sid for sid in reversed(found) if sid not in taken]
    return mine[0] if mine else None


# --- webhooks ------------------------------------------------------------------------------------


class Malformed(Exception):
    """The form lacks a field the webhook needs: 400, nothing changes."""


def webhook_url(full_path: str, absolute_uri: str) -> str:
    """The URL Twilio called, which its signature covers: behind a proxy the site does not see it,
    so TWILIO_WEBHOOK_BASE_URL (the public origin) is put before the path and query."""
    base = settings.TWILIO_WEBHOOK_BASE_URL
    return f"{base.rstrip('/')}{full_path}" if base else absolute_uri


def signature_valid(url: str, form, given: str) -> bool:
    """Twilio's signature (X-Twilio-Signature): base64 HMAC-SHA1 with the auth token of the URL
    followed by the sorted form fields, checked by Twilio's own validator."""
    return RequestValidator(settings.TWILIO_AUTH_TOKEN).validate(url, form, given or "")


def _field(form, name: str, *, empty: bool = False) -> str:
    value = form.get(name)
    if value is None or (not empty and not value.strip()):
        raise Malformed(f"the form has no {name}")
    return value


def inbound_receive(form, *, now) -> str:
    """One SMS to the federation's number (a verified form); returns the service's outcome."""
    sender, message_sid = _field(form, "From").strip(), _field(form, "MessageSid").strip()
    # An empty Body (a picture with no text) is still a message: the service answers it.
    text = _field(form, "Body", empty=True)
    receipt = services.message_receive(
        channel="sms",
        sender=sender,
        text=text,
        arrival=now,
        # Twilio gives no sending time for an SMS: the arrival is all the clock can use.
        sent=None,
        # The SID names one SMS: a form Twilio posts twice is applied once.
        external_id=f"tw:{message_sid}",
    )
    return receipt.applied


def status_report(form, *, now) -> str:
    """Keep one status callback on the outbound row it names; returns what was done."""
    message_sid, status = _field(form, "MessageSid").strip(), _field(form, "MessageStatus").strip()
    payload = dict(form.items())
    report = {"event": f"twilio:{status}", "received": now.isoformat(), "payload": payload}
    with transaction.atomic():
        row = outbox.sms_report_row(message_sid)
        if row is None:
            logger.warning("Twilio status %s for unknown message %s ignored", status, message_sid)
            return "unknown message"
        # The carrier's RawDlrDoneDate has no time zone (Twilio says it varies by carrier): it is
        # kept in the report, and the moment Twilio told us is the delivery time.
        delivered = now if status == "delivered" else None
        code = (form.get("ErrorCode") or "").strip()
        error = (f"Twilio: {status}" + (f" (error {code})" if code else "")) if status in FAILED_STATUSES else ""
        if not outbox.delivery_report_keep(row, report, delivered_at=delivered, error=error):
            return "duplicate"
    return status
