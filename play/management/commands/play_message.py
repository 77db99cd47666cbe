"""Send one message as a player, through the one message service, as the phone simulator does: the
console channel, the sender his federation id (the operator vouches for who he is).

    manage.py play_message --from 1234 --text "1... e5 2. Nf3" [--at ISO] [--sent ISO] [--game CODE]

Prints what the message did and the texts of the replies written to the outbox. The replies are
delivered on commit like any other (with eager tasks at once: the console channel prints them
as it sends them, so they may show twice).
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from play import services
from play.management.commands.play_game_new import instant, player
from play.models import Channel


class Command(BaseCommand):
    help = "Feed one mobile-chess message from a player (federation id) through the console channel."

    def add_arguments(self, parser):
        parser.add_argument("--from", dest="sender", required=True, help="the sender's federation id")
        parser.add_argument("--text", required=True, help="the message, as typed on the phone")
        parser.add_argument("--at", default=None, help="arrival, ISO date and time with zone (default: now)")
        parser.add_argument("--sent", default=None, help="the sending time the channel reported (ISO, with zone)")
        parser.add_argument("--game", default=None, help="the game's code, when the text carries no #CODE")

    def handle(self, *args, sender: str, text: str, at: str | None, sent: str | None, game: str | None, **options):
        arrival = instant(at, "--at") if at is not None else timezone.now()
        reported = instant(sent, "--sent") if sent is not None else None
        who = player(sender, "--from")
        if not text.strip():
            raise CommandError("--text is empty: there is no message to send")
        try:
            receipt = services.message_receive(
                channel=Channel.CONSOLE,
                sender=str(who.federation_id),
                text=text,
                arrival=arrival,
                sent=reported,
                game_code=game.strip().lstrip("#") if game else None,
            )
        except services.PlayError as error:
            raise CommandError(str(error)) from None
        found = receipt.game
        if found is not None:
            self.stdout.write(
                f"Applied: {receipt.applied} (#{found.code}, {found.result} {found.termination}, "
                f"{found.plies} plies{', ' + found.on_move + ' to move' if found.on_move else ''})"
            )
        else:
            self.stdout.write(f"Applied: {receipt.applied}")
        for reply in receipt.replies:
            to = reply.party or "sender"
            where = f"{reply.channel} {reply.address}".strip()
            self.stdout.write(f"  -> {to} [{where}] {reply.text}")
