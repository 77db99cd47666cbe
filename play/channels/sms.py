"""SMS through "SMS Gateway for Android" (open source, self-hosted): a phone that sends and
receives the federation's SMS, behind the gateway's REST API.

Outbound: `SmsGateway` is the "sms" channel class (PLAY_SMS_BACKEND=play.channels.sms.SmsGateway); it hands
one outbox row to the gateway through the maintained client and keeps the gateway's message id on
the row, which the delivery reports name.

Inbound: the gateway posts its events to /play/hooks/sms/ (play/channels/hooks.py). `webhook_verify` checks
the signature and the time stamp; `webhook_handle` turns `sms:received` into a message for the
game service and stores `sms:sent`/`sms:delivered`/`sms:failed` on the outbound row as evidence.
A report is never read by the clock: the clock runs on the times of the player's own messages."""

from __future__ import annotations

import datetime
import functools
import hashlib
import hmac
import itertools
import json
import logging
import operator
import os
import re
import threading
import types

import requests
from django.conf import settings
from django.db import transaction

from play import services
from play.channels import CheckFailed, PermanentFailure, TransientFailure, outbox


@functools.cache
def _gateway() -> types.SimpleNamespace:
    """The gateway's client library, imported when first used: its package imports aiohttp (0.7 s of
    CPU), which every process would otherwise pay at start-up, since the URLs import this module for
    the gateway's webhook (issue 35: four start-ups in `make run`)."""
    from android_sms_gateway import client, domain, errors
    from android_sms_gateway.http import RequestsHttpClient

    return types.SimpleNamespace(client=client, domain=domain, errors=errors, RequestsHttpClient=RequestsHttpClient)


logger = logging.getLogger("play.sms")

# A gateway that does not answer must not hold a delivery worker (and the rows it locks) for long:
# the row stays pending and the next delivery or the outbox sweeper tries again.
TIMEOUT_SECONDS = 15
# The gateway signs the moment it sent the webhook; an older (or future) one is a replay.
WEBHOOK_TOLERANCE = datetime.timedelta(minutes=5)
REPORT_EVENTS = ("sms:sent", "sms:delivered", "sms:failed")
# A report for an unknown message id is asked again (503) while it is this fresh: the send may be
# committing still. An older one names a message this side never sent, and is dropped.
REPORT_RACE = datetime.timedelta(minutes=2)


class _Session(requests.Session):
    """requests has no session-wide timeout, and the client passes none."""

    def request(self, *args, **kwargs):
        kwargs.setdefault("timeout", TIMEOUT_SECONDS)
        return super().request(*args, **kwargs)


class _Clients(threading.local):
    """One API client per thread, kept while the gateway's settings stay the same: its session's
    keep-alive connection serves every send, where a session per send paid a TCP connection and
    a client each time (the outbox drain benchmark, benchmarks/channels.py)."""

    key: tuple | None = None
    api = None
    session: _Session | None = None

    def get(self):
        key = (settings.SMS_GATEWAY_URL, settings.SMS_GATEWAY_USER, settings.SMS_GATEWAY_PASSWORD)
        if self.api is None or self.key != key:
            self.drop()
            self.session = _Session()
            # The environment's proxy and CA bundle, read once: requests would scan os.environ on
            # every request (3 ms a send in the drain benchmark).
            self.session.proxies = requests.utils.get_environ_proxies(key[0])
            self.session.verify = os.environ.get("REQUESTS_CA_BUNDLE") or os.environ.get("CURL_CA_BUNDLE") or True
            self.session.trust_env = False
            gateway = _gateway()
            self.api = gateway.client.APIClient(
                key[1], key[2], base_url=key[0], http=gateway.RequestsHttpClient(session=self.session)
            )
            self.key = key
        return self.api

    def drop(self) -> None:
        """Forget the client (after a network error its connection may be dead)."""
        if self.session is not None:
            self.session.close()
        self.key = self.api = self.session = None


_clients = _Clients()


class SmsGateway:
    """The "sms" channel: one outbox row sent through the gateway's REST API."""

    def check(self) -> str:
        """The gateway's health endpoint (GET <url>/health, with the account): reachable, the
        credentials taken, and the phone's own checks passing (or passing with warnings)."""
        session = _Session()
        gateway = _gateway()
        try:
            api = gateway.client.APIClient(
                settings.SMS_GATEWAY_USER,
                settings.SMS_GATEWAY_PASSWORD,
                base_url=settings.SMS_GATEWAY_URL,
                http=gateway.RequestsHttpClient(session=session),
            )
            health = api.health_check()
        except requests.RequestException as error:
            raise CheckFailed(f"SMS gateway unreachable: {error}") from error
        except gateway.errors.APIError as error:
            status = getattr(error, "status_code", None) or "?"
            raise CheckFailed(f"SMS gateway answered {status}: {error}") from error
        except (KeyError, TypeError, ValueError) as error:
            raise CheckFailed(f"SMS gateway gave an unreadable health answer: {error!r}") from error
        finally:
            session.close()
        failing = [
            f"{name}: {check.description or check.status.value}"
            for name, check in (health.checks or {}).items()
            if check.status == gateway.domain.HealthStatus.FAIL
        ]
        if health.status == gateway.domain.HealthStatus.FAIL:
            raise CheckFailed("SMS gateway reports failing: " + ("; ".join(failing) or "no detail"))
        version = f" (version {health.version})" if health.version else ""
        return f"{settings.SMS_GATEWAY_URL} {health.status.value}{version}"

    def send(self, row) -> None:
        # The row's own id: a send whose answer was lost (a time-out after the phone took it) is
        # tried again with the same id, and the gateway answers 409 instead of sending a second SMS.
        message_id = outbound_message_id(row)
        gateway = _gateway()
        message = gateway.domain.Message(
            phone_numbers=[row.address], text_message=gateway.domain.TextMessage(text=row.text), id=message_id
        )
        try:
            state = _clients.get().send(message)
        except requests.RequestException as error:
            _clients.drop()
            raise TransientFailure(f"SMS gateway unreachable: {error}") from error
        except gateway.errors.APIError as error:
            # A 5xx or 429 passes; another 4xx (a refused number, wrong credentials) will not heal
            # by itself: the row is failed at once, with this text as its error, for staff.
            status = getattr(error, "status_code", None) or 500
            if status == 409:
                # "Message with the same ID already exists": an earlier try of this row reached the
                # phone, which sends it (its reports name this id). Sent, not sent twice.
                logger.info("SMS gateway already has message %s (row %s): taken as sent", message_id, row.pk)
                row.external_id = message_id
                return
            if 400 <= status < 500 and status not in (408, 429):
                raise PermanentFailure(f"SMS gateway refused the message ({status}): {error}") from error
            raise TransientFailure(f"SMS gateway answered {status}: {error}") from error
        except (KeyError, TypeError, ValueError) as error:
            raise TransientFailure(f"SMS gateway gave an unreadable answer: {error!r}") from error
        # The delivery service saves it with the row's delivery, in the transaction that holds the
        # row, so a report can find the row as soon as that commits.
        row.external_id = state.id


def outbound_message_id(row) -> str:
    """The id the gateway is given for an outbound row: the same on every try of the row, and never
    one of another row, even of a database restored or started afresh whose row ids repeat (the
    phone keeps the ids it has seen): the row's id with a digest of when, to whom and what. 36
    characters at most (a 64-bit row id, "-", 16 hex digits), the cloud server's limit."""
    digest = hashlib.blake2s(
        json.dumps([row.pk, row.at.isoformat(), row.address, row.text]).encode(), digest_size=8
    ).hexdigest()
    return f"{row.pk}-{digest}"


# --- webhooks ------------------------------------------------------------------------------------


class Refused(Exception):
    """The webhook is not the gateway's (bad signature) or is stale: 403, nothing changes."""


class NotYet(Exception):
    """A report for a message whose id this side may not have committed yet: 503, retry."""


class Malformed(Exception):
    """The body is not a webhook we can read: 400, nothing changes."""


def signature(key: str, body: bytes, timestamp: str) -> str:
    """The gateway's signature: hex HMAC-SHA256 of the raw body followed by the time stamp."""
    return hmac.new(key.encode(), body + timestamp.encode(), hashlib.sha256).hexdigest()


def webhook_verify(body: bytes, given: str, timestamp: str, *, key: str, now: datetime.datetime) -> None:
    try:
        sent = datetime.datetime.fromtimestamp(int(timestamp), tz=datetime.UTC)
    except (TypeError, ValueError, OverflowError, OSError):
        raise Refused(f"unreadable X-Timestamp {timestamp!r}") from None
    # Constant time, and before the time stamp is judged: a forger learns nothing from which fails.
    if not hmac.compare_digest(signature(key, body, timestamp), (given or "").strip().lower()):
        raise Refused("bad X-Signature")
    if abs(now - sent) > WEBHOOK_TOLERANCE:
        raise Refused(f"X-Timestamp {timestamp} is more than 5 minutes from now")


def _field(payload: dict, name: str) -> str:
    value = payload.get(name)
    if not isinstance(value, str) or not value.strip():
        raise Malformed(f"payload.{name} is missing or not a string")
    return value


# How SMS Gateway for Android writes its offset on Android 5 and 6, which lack SimpleDateFormat's
# XXX: "+" and then the hours and minutes of the zone's raw offset, each padded to two characters
# but keeping its own sign (its GsonBuilder.configure). West of UTC that is "+-5:00", and for
# Newfoundland's -3:30 "+-3:-30". The raw offset leaves out summer time while the clock time
# includes it: such a time read in summer lies an hour after the moment, which the rules clamp to
# the arrival (a sending time is never after it).
OLD_ANDROID_OFFSET = re.compile(r"([+-])(-?\d{1,2}):(-?\d{1,2})$")


def gateway_time(text: str) -> datetime.datetime | None:
    """The moment an ISO 8601 time of the gateway names, or None when it names none that can be
    read (no offset, or no time at all). Reads the offsets of old Android (OLD_ANDROID_OFFSET)."""
    text = text.strip()
    try:
        moment = datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        moment = _old_android_time(text)
    if moment is None or moment.tzinfo is None:
        return None
    return moment


def _old_android_time(text: str) -> datetime.datetime | None:
    match = OLD_ANDROID_OFFSET.search(text)
    if match is None:
        return None
    sign, hours, minutes = match.groups()
    negative = sign == "-" or hours.startswith("-") or minutes.startswith("-")
    size = datetime.timedelta(hours=abs(int(hours)), minutes=abs(int(minutes)))
    if size >= datetime.timedelta(hours=24) or abs(int(minutes)) >= 60:
        return None
    try:
        local = datetime.datetime.fromisoformat(text[: match.start()])
    except ValueError:
        return None
    if local.tzinfo is not None:
        return None
    return local.replace(tzinfo=datetime.timezone(-size if negative else size))


def _moment(payload: dict, name: str) -> datetime.datetime | None:
    """A time of the payload, as the gateway writes it: the phone's local time with its offset.
    One that names no moment (no offset, an odd one, missing) is logged and kept as unknown rather
    than guessed: the caller takes the arrival, and the message is never refused for it."""
    text = payload.get(name)
    moment = gateway_time(text) if isinstance(text, str) else None
    if moment is None:
        logger.warning("SMS gateway time %s=%r names no moment; taken as unknown", name, text)
    return moment


def dedup_key(message_id: str, phone: str, received_at: str, text: str) -> str:
    """The gateway's messageId is derived from the content and is not unique on its own (the same
    text from two people, or twice from one): with the number, the time stamp and the text it
    names one SMS, so a webhook delivered twice is applied once."""
    digest = hashlib.sha256(
        json.dumps([message_id, phone, received_at, hashlib.sha256(text.encode()).hexdigest()]).encode()
    ).hexdigest()
    return f"smsgw:{digest}"


# A webhook's JSON is a few levels deep (a Telegram Update with a replied-to message about 8):
# deeper nesting is refused before parsing, where it was a RecursionError, a 500 (or, under
# Python's limit, a structure that recursed again in the task's serialiser).
JSON_MAX_DEPTH = 32
# A string, to its closing quote or the end (possessive: an unclosed one is never rescanned).
_JSON_STRING = re.compile(rb'"(?:[^"\\]|\\.)*+(?:"|\\?\Z)', re.DOTALL)
# An opening bracket counts +1, a closing one -1 (after subtracting 1: 2 and 0), anything else 0.
_JSON_STEPS = bytes.maketrans(b"[{]}", b"\x02\x02\x00\x00")
_JSON_OTHER = bytes(set(range(256)) - set(b"[{]}"))


def json_depth(body: bytes) -> int:
    """How deep the arrays and objects of a JSON text nest (0 for a scalar): the running count of
    the brackets outside strings, in C (itertools), never by recursion."""
    brackets = _JSON_STRING.sub(b"", body).translate(None, _JSON_OTHER).translate(_JSON_STEPS)
    return max(itertools.accumulate(map(operator.sub, brackets, itertools.repeat(1))), default=0)


def json_body(body: bytes):
    """A webhook's body parsed; ValueError when it is not JSON or nests deeper than JSON_MAX_DEPTH."""
    if json_depth(body) > JSON_MAX_DEPTH:
        raise ValueError(f"nested deeper than {JSON_MAX_DEPTH} levels")
    return json.loads(body)


def webhook_handle(body: bytes, *, now: datetime.datetime) -> str:
    """Apply one verified webhook; returns what was done, in a word or two. Raises Malformed
    before anything is written."""
    try:
        envelope = json_body(body)
    except (UnicodeDecodeError, ValueError) as error:
        raise Malformed(f"the body is not JSON: {error}") from None
    if not isinstance(envelope, dict) or not isinstance(envelope.get("payload"), dict):
        raise Malformed("the body has no payload object")
    event, payload = envelope.get("event"), envelope["payload"]
    if event == "sms:received":
        return _received(payload, now)
    if event in REPORT_EVENTS:
        return _report(envelope, event, payload, now)
    if isinstance(event, str) and event:
        # Other events the gateway may be set to send (a ping, MMS, data SMS) carry no moves.
        return f"ignored {event}"
    raise Malformed("the body has no event")


def _received(payload: dict, now: datetime.datetime) -> str:
    message_id, phone, text = _field(payload, "messageId"), _field(payload, "phoneNumber"), payload.get("message")
    if not isinstance(text, str):
        raise Malformed("payload.message is missing or not a string")
    # An odd or missing time must not lose the move: without one the arrival is the sending time.
    received_text = payload.get("receivedAt") if isinstance(payload.get("receivedAt"), str) else ""
    sent = _moment(payload, "receivedAt")
    receipt = services.message_receive(
        channel="sms",
        sender=phone.strip(),
        text=text,
        arrival=now,
        # The service centre's time stamp is the sending time; the spec's rules clamp it.
        sent=sent,
        external_id=dedup_key(message_id, phone.strip(), received_text, text),
    )
    return receipt.applied


def _report(envelope: dict, event: str, payload: dict, now: datetime.datetime) -> str:
    message_id = _field(payload, "messageId")
    moment_field = {"sms:sent": "sentAt", "sms:delivered": "deliveredAt", "sms:failed": "failedAt"}[event]
    moment = _moment(payload, moment_field) if payload.get(moment_field) is not None else None
    report = {"event": event, "received": now.isoformat(), "webhook": envelope.get("id"), "payload": payload}
    with transaction.atomic():
        row = outbox.sms_report_row(message_id)
        if row is None:
            if now - (moment or now) < REPORT_RACE:
                # The gateway can report before the delivery that sent the SMS has committed the
                # message id on its row: a 503 makes the gateway post the report again later.
                raise NotYet(f"{event} for message {message_id}, not yet known here")
            logger.warning("SMS gateway %s for unknown message %s ignored", event, message_id)
            return "unknown message"
        # The handset's own delivery time replaces the moment the gateway took the message.
        delivered = (moment or now) if event == "sms:delivered" else None
        error = f"SMS gateway: {payload.get('reason') or 'failed'}" if event == "sms:failed" else ""
        if not outbox.delivery_report_keep(row, report, delivered_at=delivered, error=error):
            return "duplicate"
    return event.removeprefix("sms:")
