"""Twilio's webhooks: an SMS to the federation's number (/play/hooks/twilio/) and the status of an
outbound one (/play/hooks/twilio/status/). No session and no CSRF token (Twilio is a machine):
every call is checked by its X-Twilio-Signature instead (play/channels/twilio_sms.py). The work is done
before answering, as for the SMS gateway: Twilio waits for the answer."""

import logging

from django.conf import settings
from django.http import HttpResponse
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from play.channels import twilio_sms

logger = logging.getLogger("play.twilio")

# Replies go through the outbox (the "sms" channel), never in the answer: an empty TwiML response
# tells Twilio to send nothing itself.
EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response/>'


def _text(message: str, status: int) -> HttpResponse:
    return HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")


def _refusal(request) -> HttpResponse | None:
    """503 while no auth token is configured, 403 for a call Twilio did not sign; else None."""
    if not settings.TWILIO_AUTH_TOKEN:
        return _text("Twilio webhook not configured (TWILIO_AUTH_TOKEN is empty)", 503)
    url = twilio_sms.webhook_url(request.get_full_path(), request.build_absolute_uri())
    given = request.headers.get("X-Twilio-Signature", "")
    if not twilio_sms.signature_valid(url, request.POST, given):
        why = "bad" if given else "missing"
        logger.warning(
            "Twilio webhook refused from %s: %s X-Twilio-Signature for %s", request.META.get("REMOTE_ADDR"), why, url
        )
        return _text("forbidden", 403)
    return None


@csrf_exempt
@require_POST
def twilio_hook(request):
    refusal = _refusal(request)
    if refusal is not None:
        return refusal
    try:
        outcome = twilio_sms.inbound_receive(request.POST, now=timezone.now())
    except twilio_sms.Malformed as malformed:
        logger.warning("Twilio webhook malformed: %s", malformed)
        return _text(f"malformed webhook: {malformed}", 400)
    logger.info("Twilio SMS %s: %s", request.POST.get("MessageSid"), outcome)
    return HttpResponse(EMPTY_TWIML, content_type="text/xml")


@csrf_exempt
@require_POST
def twilio_status_hook(request):
    refusal = _refusal(request)
    if refusal is not None:
        return refusal
    try:
        outcome = twilio_sms.status_report(request.POST, now=timezone.now())
    except twilio_sms.Malformed as malformed:
        logger.warning("Twilio status callback malformed: %s", malformed)
        return _text(f"malformed status callback: {malformed}", 400)
    return _text(outcome, 200)
