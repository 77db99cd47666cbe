"""Send the daily e-mail digest of mobile games now (beat sends it every day at PLAY_DIGEST_HOUR).

    manage.py play_digest [--dry-run]

With --dry-run nothing is mailed or changed: each digest that would go is printed instead.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand

from play.channels import digest


class Command(BaseCommand):
    help = "Send the daily e-mail digest of mobile games to the accounts that asked for it."

    def add_arguments(self, parser):
        parser.add_argument("--dry-run", action="store_true", help="print the digests instead of mailing them")

    def handle(self, *args, dry_run: bool, **options):
        outcomes = digest.digest_send(dry_run=dry_run)
        for outcome in outcomes:
            who = outcome.user.email if outcome.user is not None else "?"
            line = f"{outcome.status}: {who}"
            if outcome.digest is not None and not outcome.digest.empty:
                line += f" ({len(outcome.digest.on_move)} on move, {len(outcome.digest.finished)} finished)"
            self.stdout.write(line)
            if dry_run and outcome.text:
                self.stdout.write(f"Subject: {outcome.digest.subject}\n{outcome.text}")
        sent = sum(o.status == "sent" for o in outcomes)
        dry = " (dry run)" if dry_run else ""
        self.stdout.write(f"{sent} digest(s) sent, {len(outcomes)} subscriber(s) looked at{dry}")
        if any(o.status == "failed" for o in outcomes):
            self.stderr.write("some digests failed: see the log")
