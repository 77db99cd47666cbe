"""Webhooks of the SMS gateway and of Telegram: no session and no CSRF token (they are machines),
so every call is checked by its signature or secret instead (play/channels/sms.py, play/channels/telegram.py).
The SMS gateway's work is one message for the game service, done before answering: the gateway
waits for the 200 and retries otherwise. Telegram's is queued: it answers at once, so a slow move
never makes Telegram resend the Update (the update_id dedups it anyway). With the broker down it is
applied before answering instead, as the SMS gateway's is: a 500 would lose it after Telegram's
retries, and an Update kept nowhere is lost at once."""

import hmac
import logging

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST
from kombu.exceptions import OperationalError as BrokerDown

from play import tasks
from play.channels import sms, telegram

logger = logging.getLogger("play.sms")
telegram_logger = logging.getLogger("play.telegram")


def _text(message: str, status: int) -> HttpResponse:
    return HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")


@csrf_exempt
@require_POST
def sms_hook(request):
    key = settings.SMS_WEBHOOK_SIGNING_KEY
    if not key:
        return _text("SMS webhook not configured (SMS_WEBHOOK_SIGNING_KEY is empty)", 503)
    body = request.body
    try:
        sms.webhook_verify(
            body,
            request.headers.get("X-Signature", ""),
            request.headers.get("X-Timestamp", ""),
            key=key,
            now=timezone.now(),
        )
    except sms.Refused as refused:
        logger.warning("SMS webhook refused from %s: %s", request.META.get("REMOTE_ADDR"), refused)
        return _text("forbidden", 403)
    try:
        outcome = sms.webhook_handle(body, now=timezone.now())
    except sms.Malformed as malformed:
        logger.warning("SMS webhook malformed: %s", malformed)
        return _text(f"malformed webhook: {malformed}", 400)
    except sms.NotYet as not_yet:
        response = _text(f"retry later: {not_yet}", 503)
        response["Retry-After"] = "5"
        return response
    return JsonResponse({"ok": True, "outcome": outcome})


@csrf_exempt
@require_POST
def telegram_hook(request):
    secret = settings.TELEGRAM_WEBHOOK_SECRET
    if not secret:
        return _text("Telegram webhook not configured (TELEGRAM_WEBHOOK_SECRET is empty)", 503)
    given = request.headers.get("X-Telegram-Bot-Api-Secret-Token", "")
    # Constant time: a forger learns nothing from how long a wrong guess takes.
    if not hmac.compare_digest(given.encode(), secret.encode()):
        telegram_logger.warning("Telegram webhook refused from %s: bad secret token", request.META.get("REMOTE_ADDR"))
        return _text("forbidden", 403)
    try:
        data = sms.json_body(request.body)
        telegram.update_parse(data)
    except (UnicodeDecodeError, ValueError) as error:
        return _text(f"malformed update: the body is not JSON: {error}", 400)
    except telegram.Malformed as malformed:
        telegram_logger.warning("Telegram webhook malformed: %s", malformed)
        return _text(f"malformed update: {malformed}", 400)
    # No transaction is open here, so the task may be queued at once.
    try:
        tasks.telegram_update.delay(data)
    except (BrokerDown, OSError) as error:  # the broker cannot be reached
        telegram_logger.warning(
            "Telegram update %s not queued (%r): applied before answering", data.get("update_id"), error
        )
        # A failure here is a 5xx, and Telegram sends the Update again; the update_id dedups it.
        outcome = telegram.update_receive(data, now=timezone.now())
        return JsonResponse({"ok": True, "outcome": outcome})
    return JsonResponse({"ok": True})
