"""Create one mobile-chess game from the command line (a TD without the site, a script, the demo):
the players by federation id, in an event (its control, norm and W) or as a challenge game.

    manage.py play_game_new --white 1234 --black 5678 [--event CODE] [--start 2026-05-01T10:00:00Z]

Prints the new game's code on the first line. Bad input is refused before anything is written.
"""

from __future__ import annotations

import datetime

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from play import services
from play.models import MobileEvent
from players.models import Player


def instant(value: str, option: str) -> datetime.datetime:
    """An ISO date and time with its zone (Z for UTC). A naive time is refused: whose 10:00?"""
    text = value.strip()
    try:
        moment = datetime.datetime.fromisoformat(text[:-1] + "+00:00" if text.endswith(("Z", "z")) else text)
    except ValueError:
        raise CommandError(f"{option} {value!r} is not an ISO date and time such as 2026-05-01T10:00:00Z") from None
    if timezone.is_naive(moment):
        raise CommandError(f"{option} {value!r} has no time zone: add Z for UTC or an offset such as +03:00")
    return moment


def player(value: str, option: str) -> Player:
    try:
        federation_id = int(value.strip())
    except ValueError:
        raise CommandError(f"{option} {value!r} is not a federation id (a number)") from None
    found = Player.objects.filter(federation_id=federation_id).first()
    if found is None:
        raise CommandError(f"{option}: no player has the federation id {federation_id}")
    return found


class Command(BaseCommand):
    help = "Create a mobile-chess game between two players given by federation id and print its code."

    def add_arguments(self, parser):
        parser.add_argument("--white", required=True, help="White's federation id")
        parser.add_argument("--black", required=True, help="Black's federation id")
        parser.add_argument("--event", default=None, help="the event's code (its control, norm and W apply)")
        parser.add_argument("--start", default=None, help="ISO date and time with zone (default: now)")

    def handle(self, *args, white: str, black: str, event: str | None, start: str | None, **options):
        start_at = instant(start, "--start") if start is not None else timezone.now()
        white_player = player(white, "--white")
        black_player = player(black, "--black")
        if white_player.pk == black_player.pk:
            raise CommandError(f"--white and --black are the same player ({white_player.federation_id})")
        in_event = None
        if event is not None:
            in_event = MobileEvent.objects.filter(code=event.strip()).first()
            if in_event is None:
                raise CommandError(f"--event: no mobile event has the code {event!r}")
            # An event's games are between its entrants: its table and its TD's desk list entries.
            entered = set(in_event.entries.values_list("player_id", flat=True))
            for who in (white_player, black_player):
                if who.pk not in entered:
                    raise CommandError(f"{who} ({who.federation_id}) is not entered in the event {in_event.code}")
        try:
            game = services.game_create(white=white_player, black=black_player, start=start_at, event=in_event)
        except services.PlayError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(game.code)
        where = f"event {in_event.code}" if in_event else "challenge game"
        self.stdout.write(
            f"#{game.code}: {white_player} ({white_player.federation_id}) – {black_player} "
            f"({black_player.federation_id}), {where}, starts {game.start.isoformat()}, "
            f"control {game.control}, norm {game.norm} s, W = {game.weight}"
        )
