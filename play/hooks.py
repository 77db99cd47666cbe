"""Webhooks of the SMS gateway: no session and no CSRF token (the gateway is a machine), so every
call is checked by its signature instead (play/sms.py). The work is one message for the game
service, done before answering: the gateway waits for the 200 and retries otherwise."""

import logging

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from play import sms

logger = logging.getLogger("play.sms")


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
    return JsonResponse({"ok": True, "outcome": outcome})
