"""The mobile-chess channels' health, for the operator and for monitoring.

    manage.py play_channels check [--now ISO]

For each channel (console, web, SMS, Telegram, and the e-mail that carries outage notices): the
back-end class configured (settings.PLAY_CHANNEL_BACKENDS) and what its `check()` says (the SMS
gateway's health endpoint, Telegram's getMe; console and web always work); then its outbox: rows
pending and how long the oldest has waited, rows failed among those due in the last 24 hours,
and the open outage (rule 5e) if any. The exit status is 1 when a channel configured with a
back-end other than the console fails its check, so a monitor can run it as it is.
"""

from __future__ import annotations

import datetime

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError
from django.utils import timezone
from django.utils.module_loading import import_string

from play import channels, selectors
from play.channels import limits
from play.management.commands.play_game_new import instant
from play.rules.texts import duration

CONSOLE = "play.channels.Console"
ORDER = ("console", "web", "sms", "telegram", "email")


class Command(BaseCommand):
    help = "Check each mobile-chess channel's back-end and report its outbox and outages."

    def add_arguments(self, parser):
        parser.add_argument("action", choices=["check"], help="check: the channels' health and outboxes")
        parser.add_argument("--now", default=None, help="report as of this moment (ISO, with zone; default: now)")

    def handle(self, *args, action: str, now: str | None, **options):
        moment = instant(now, "--now") if now is not None else timezone.now()
        backends = settings.PLAY_CHANNEL_BACKENDS
        names = [c for c in ORDER if c in backends] + sorted(set(backends) - set(ORDER))
        try:
            outboxes = selectors.outbox_by_channel(moment)
        except DatabaseError as error:
            # The channels are still checked: the gateway may be fine while the database is not.
            self.stdout.write(f"The outbox could not be read: {error}")
            outboxes = None
        failing = []
        for channel in names:
            path = backends[channel]
            ok, said = self._check(path)
            if not ok and path != CONSOLE:
                failing.append(channel)
            self.stdout.write(f"{channel:<9} {path:<34} {'ok' if ok else 'FAILED'}: {said}")
            if outboxes is not None:
                self.stdout.write(f"{'':<9} {self._outbox(channel, outboxes.get(channel), moment)}")
        if all(backends.get(c, CONSOLE) == CONSOLE for c in ("sms", "telegram")):
            self.stdout.write(
                "No SMS or Telegram back-end is configured: their messages go to the console channel "
                "(the default), which prints and logs them."
            )
        if failing:
            raise CommandError(f"channel check failed: {', '.join(failing)}", returncode=1)

    @staticmethod
    def _check(path: str) -> tuple[bool, str]:
        try:
            backend = import_string(path)()
        except (ImportError, TypeError, ValueError) as error:
            return False, f"cannot load the back-end: {error}"
        check = getattr(backend, "check", None)
        if check is None:
            return True, "no check (the class has no check())"
        try:
            return True, check()
        except channels.CheckFailed as error:
            return False, str(error)

    @staticmethod
    def _outbox(channel: str, box, now) -> str:
        box = box or selectors.ChannelOutbox()
        oldest = duration(int((now - box.oldest_pending).total_seconds())) if box.oldest_pending else "-"
        parts = [f"pending {box.pending}", f"oldest pending {oldest}", f"failed in 24 h {box.failed_24h}"]
        if channel in limits.LIMITED_CHANNELS:
            parts.append(f"inbound over the rate limit today {limits.inbound_dropped(channel, now.date())}")
        outage = box.outage
        if outage is None:
            parts.append("outage: none")
        else:
            since = outage.started_at.astimezone(datetime.UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
            lasted = duration(int((now - outage.started_at).total_seconds()))
            parts.append(f"outage: OPEN since {since} ({lasted}, {outage.games.count()} games)")
        return " · ".join(parts)
