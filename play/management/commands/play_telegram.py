"""The Telegram bot's set-up and, in development, its long polling.

    manage.py play_telegram webhook --url https://<site>/play/hooks/telegram/ [--drop-pending]
    manage.py play_telegram webhook --delete [--drop-pending]
    manage.py play_telegram info
    manage.py play_telegram poll [--once] [--timeout 30]

`webhook` registers the site's hook with Telegram (setWebhook), with TELEGRAM_WEBHOOK_SECRET as the
secret token the hook checks, for messages and button presses only. `info` shows the bot
(getMe) and where Telegram delivers (getWebhookInfo). `poll` is for a machine Telegram cannot
reach (development): it removes the webhook (Telegram refuses getUpdates while one is set), then
fetches Updates and applies each one at once, as the webhook's task would; `--once` fetches one
batch and stops (tests use it).
"""

from __future__ import annotations

import time

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.urls import reverse
from django.utils import timezone
from telegram import error as telegram_errors

from play.channels import telegram

RETRY_SECONDS = 5  # after a failed poll: Telegram or the network is down, try again soon


class Command(BaseCommand):
    help = "Set up the Telegram bot (webhook, info) or run it by long polling in development (poll)."

    def add_arguments(self, parser):
        actions = parser.add_subparsers(dest="action", required=True)
        hook = actions.add_parser("webhook", help="set (--url) or delete (--delete) the webhook")
        hook.add_argument("--url", help="the hook's public https address, ending in /play/hooks/telegram/")
        hook.add_argument("--delete", action="store_true", help="remove the webhook")
        hook.add_argument("--drop-pending", action="store_true", help="drop the updates Telegram still holds")
        actions.add_parser("info", help="the bot (getMe) and its webhook (getWebhookInfo)")
        poll = actions.add_parser("poll", help="long polling for development (removes the webhook first)")
        poll.add_argument("--once", action="store_true", help="fetch and apply one batch, then stop")
        poll.add_argument("--timeout", type=int, default=30, help="seconds each getUpdates may wait (default 30)")

    def handle(self, *args, action: str, **options):
        if not settings.TELEGRAM_BOT_TOKEN:
            raise CommandError("TELEGRAM_BOT_TOKEN is empty: there is no bot to talk to")
        try:
            if action == "webhook":
                self.webhook(url=options["url"], delete=options["delete"], drop=options["drop_pending"])
            elif action == "info":
                self.info()
            else:
                self.poll(once=options["once"], timeout=options["timeout"])
        except telegram_errors.TelegramError as error:
            raise CommandError(f"Telegram refused: {error}") from None

    def webhook(self, *, url: str | None, delete: bool, drop: bool) -> None:
        if delete == bool(url):
            raise CommandError("give either --url https://<site>/play/hooks/telegram/ or --delete")
        if delete:
            telegram.api_call(lambda bot: bot.delete_webhook(drop_pending_updates=drop))
            self.stdout.write("Webhook deleted." + (" Pending updates dropped." if drop else ""))
            return
        path = reverse("play:hook_telegram")
        if not url.startswith("https://") or not url.split("?")[0].endswith(path):
            raise CommandError(f"--url must be an https address ending in {path} (Telegram posts only to https)")
        secret = settings.TELEGRAM_WEBHOOK_SECRET
        if not secret:
            raise CommandError("TELEGRAM_WEBHOOK_SECRET is empty: the hook would refuse every update (503)")
        telegram.api_call(
            lambda bot: bot.set_webhook(
                url=url, secret_token=secret, allowed_updates=list(telegram.ALLOWED_UPDATES), drop_pending_updates=drop
            )
        )
        self.stdout.write(f"Webhook set: {url} ({', '.join(telegram.ALLOWED_UPDATES)}).")

    def info(self) -> None:
        async def both(bot):
            return await bot.get_me(), await bot.get_webhook_info()

        me, hook = telegram.api_call(both)
        self.stdout.write(f"Bot: @{me.username} ({me.first_name}, id {me.id})")
        if hook.url:
            self.stdout.write(f"Webhook: {hook.url}, {hook.pending_update_count} update(s) pending")
            if hook.last_error_message:
                self.stdout.write(f"Last error: {hook.last_error_message} at {hook.last_error_date}")
        else:
            self.stdout.write(f"Webhook: none (long polling), {hook.pending_update_count} update(s) pending")

    def poll(self, *, once: bool, timeout: int) -> None:
        telegram.api_call(lambda bot: bot.delete_webhook())
        self.stdout.write("Polling Telegram (the webhook is removed; set it again with `play_telegram webhook`).")
        offset = None
        while True:
            wait = 0 if once else timeout
            try:
                updates = telegram.api_call(
                    lambda bot, offset=offset, wait=wait: bot.get_updates(
                        offset=offset, timeout=wait, allowed_updates=list(telegram.ALLOWED_UPDATES)
                    )
                )
            except telegram_errors.NetworkError as error:
                if once:
                    raise
                self.stderr.write(f"getUpdates failed ({error}); again in {RETRY_SECONDS} s")
                time.sleep(RETRY_SECONDS)
                continue
            for update in updates:
                # Applied here, in order, as the webhook's task would; the update_id dedups a
                # batch fetched again after a crash.
                outcome = telegram.update_receive(update.to_dict(), now=timezone.now())
                self.stdout.write(f"Update {update.update_id}: {outcome}")
                offset = update.update_id + 1
            if once:
                if offset is not None:
                    # Telegram forgets Updates only when asked for the ones after them.
                    telegram.api_call(lambda bot, offset=offset: bot.get_updates(offset=offset, timeout=0, limit=1))
                return
