"""Fill an empty database with a demo federation, through the real pipeline (idempotent)."""

import secrets
from pathlib import Path

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from accounts import devcredentials
from accounts.roles import ARBITERS, ensure_roles
from play import demo as play_demo
from players.models import Club, Player, Region
from ratings import services as rating_services
from toolkit import pagecache
from tournaments import demo, services
from tournaments.models import Tournament

EXAMPLES = (
    ("karl-mala-2005.trf", Tournament.TimeControl.CLASSICAL),
    ("fide-grand-swiss-2021.pgn", Tournament.TimeControl.CLASSICAL),
)


class Command(BaseCommand):
    help = "Load the demo federation: the complete example files and a children's season, all rated."

    def add_arguments(self, parser):
        parser.add_argument("--examples", type=Path, default=None, help="folder of the example files (examples/)")

    def handle(self, *args, examples, **options):
        if Tournament.objects.exists():
            self.stdout.write("The database has tournaments already: no demo data loaded.")
            return
        from django.conf import settings

        folder = settings.BASE_DIR / "examples" if examples is None else examples
        ensure_roles(Group, Permission)
        arbiter, _ = get_user_model().objects.get_or_create(username="demo-arbiter", defaults={"first_name": "Demo"})
        _log_in_as(arbiter, what="the arbiter: upload a results file (examples/), confirm it", path="/arbiter/")
        arbiter.groups.add(Group.objects.get(name=ARBITERS))

        # The uploads are confirmed in date order, as an arbiter would, and the mobile games played, in
        # one transaction: each confirmation's rating request waits for its commit, and then one run
        # rates them all, as a worker does with the requests that wait for it (one rating run, one
        # GCR run, instead of thirteen of each; the same ratings). The pages the run warms would go
        # to this process's own cache where that is local memory, which no visitor reads.
        with pagecache.in_a_command():
            with transaction.atomic():
                for name, time_control in EXAMPLES:
                    path = folder / name
                    if not path.exists():
                        self.stderr.write(f"{path} is missing: skipped")
                        continue
                    self._import(arbiter, name, path.read_bytes(), fide_rated=True, time_control=time_control)
                for file in demo.season():
                    self._import(
                        arbiter, file.name, file.data, fide_rated=False, time_control=Tournament.TimeControl.RAPID
                    )
                self._register_clubs()
                mobile = play_demo.load(stdout=self.stdout, players=season_players())
                if mobile is not None:
                    self._mobile_accounts(mobile)
            if not settings.CELERY_TASK_ALWAYS_EAGER:
                self.stdout.write("Rating runs are queued for the Celery workers (make worker).")
                return
            # The run's task has recomputed GCR after it (eager tasks): the month's lists remain.
            rating_services.publish_lists(month=timezone.localdate())
        rated = Tournament.objects.filter(status=Tournament.Status.RATED).count()
        self.stdout.write(self.style.SUCCESS(f"Demo federation loaded: {rated} tournaments rated."))

    def _mobile_accounts(self, mobile: dict) -> None:
        """The mobile events' TD and the two players' accounts, listed at the end of `make run`."""
        User = get_user_model()
        _log_in_as(mobile["event"].td, what="the mobile events' TD: rule on claims at the desk", path="/play/desk/")
        for username, player, password in mobile["accounts"]:
            if password is not None:
                devcredentials.remember(
                    User.objects.get(username=username),
                    password,
                    what=f"plays as {player}: answer the game in progress",
                    path="/play/mine/",
                )

    def _register_clubs(self):
        """TRF files carry no clubs: the children's clubs and region, as the federation registered them."""
        region, _ = Region.objects.get_or_create(name=demo.REGION, defaults={"code": "TA"})
        clubs = {
            name: Club.objects.get_or_create(name=name, city=city, defaults={"region": region})[0]
            for name, city in demo.CLUBS.items()
        }
        for child in demo.registry():
            Player.objects.filter(family_name=child.family, given_names=child.given, birth_date=child.birth).update(
                club=clubs[child.club], region=region
            )

    def _import(self, arbiter, name, data, *, fide_rated, time_control):
        upload = services.upload_create(user=arbiter, file_name=name, data=data)
        file = upload.preview["file"]
        details = services.details_from_file(file, time_control=time_control, fide_rated=fide_rated)
        # New players only: the demo database starts empty, so nothing is ambiguous... except namesakes
        # within the season, who are the same children: take the offered player.
        choices = {
            int(number): match["candidates"][0]["player_id"]
            for number, match in upload.preview["matches"].items()
            if match["status"] == "ambiguous"
        }
        tournament = services.tournament_confirm(upload=upload, user=arbiter, details=details, choices=choices)
        self.stdout.write(f"  {tournament.name}: {tournament.participants.count()} players")


def season_players() -> list:
    """Six children of the demo season (tournaments/demo/__init__.py), in its registry's order: the mobile
    event's players."""
    found = []
    for child in demo.registry():
        player = Player.objects.filter(
            family_name=child.family, given_names=child.given, birth_date=child.birth
        ).first()
        if player is not None:
            found.append(player)
        if len(found) == 6:
            break
    return found


def _log_in_as(user, *, what: str, path: str) -> None:
    """In development a demo account someone can log in as (its password kept for `make run`'s closing
    block); elsewhere, or when it has a password already, it is left as it is."""
    if user.password and user.has_usable_password():  # a new account's empty password is none either
        return
    password = secrets.token_urlsafe(9)
    user.set_password(password)
    if not devcredentials.remember(user, password, what=what, path=path):
        user.set_unusable_password()  # production: a demo account nobody can log in as
    user.save(update_fields=["password"])
