"""The world the roles matrix (test_roles.py) acts in: the ten personas and an object of each
kind a POST URL acts on, each owned by a persona so "his own" and "another's" are both there.

- `player` plays White and `other_player` Black in the event game `game` and in the challenge
  game `challenge`, both with a protested time claim against White; `stranger` plays neither.
- The event `spring` is directed by `td` (the chairman `chairman`); `autumn` by `other_td`.
- `staff` plays in `staff_game` of spring, the chairman in `chair_game`, the duty TD in
  `duty_game` (a challenge game): their own cases.
- `decision`: the TD credited Black time in `game`, appealed by White (`appeal`);
  `chair_decision` on `chair_game`, appealed by the chairman's own side (`chair_appeal`).
- `leave` asked by White, `enquiry` to White, `delay`: Black's DELAY notice in `game`.
- `arbiter` is the chief arbiter of `tournament` and uploaded `upload`; the player asked for
  `link_pending` and applied for `application`; `offer` is the player's challenge to `other_player`.
"""

from __future__ import annotations

import datetime

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.utils import timezone

from accounts.roles import ARBITERS, PLAYERS, role
from play import services
from play.desk import leave as leaves
from play.desk import services as desk
from play.events import challenges
from play.models import Transmission
from players.models import FideImportApplication, PlayerLink
from tests.base import PASSWORD, federation_admin
from tests.play.desk.helpers import FILED, START, later, link, send
from tests.play.events.helpers import game_between, make_event
from tests.players.factories import PlayerFactory
from tests.tournaments.factories import GameFactory, TournamentFactory
from tournaments.models import Upload

PERSONAS = (
    "anonymous",
    "player",
    "other_player",
    "stranger",
    "arbiter",
    "td",
    "other_td",
    "duty_td",
    "chairman",
    "staff",
)
DUTY_TD = "duty_td"


def _user(name: str, *groups: str):
    user = get_user_model().objects.create_user(name, f"{name}@example.org", PASSWORD)
    for group in groups:
        user.groups.add(role(group) if group == PLAYERS else Group.objects.get(name=group))
    return user


def build() -> dict:
    """Every persona and object; settings.PLAY_DUTY_TD_USERNAME must be DUTY_TD."""
    users = {name: _user(name, PLAYERS) for name in ("player", "other_player", "stranger")}
    users["arbiter"] = _user("arbiter", ARBITERS)
    users.update({name: _user(name) for name in ("td", "other_td", DUTY_TD, "chairman")})
    users["staff"] = federation_admin()
    white, black, staffs, chairs = (PlayerFactory() for _ in range(4))
    for name, player in (("player", white), ("other_player", black), ("staff", staffs), ("chairman", chairs)):
        link(users[name], player)
    link(users["stranger"], PlayerFactory())
    # Offered before they have a game together (one game in progress per pair).
    offer = challenges.challenge_offer(user=users["player"], challenger=white, opponent=black)
    spring = make_event(
        users["td"],
        [white, black, staffs, chairs],
        code="spring",
        start=START,
        appeals_chair=users["chairman"],
        leave_days=5,
    )
    autumn = make_event(users["other_td"], 2, code="autumn", name="Autumn", start=START)
    challenge = services.game_create(white=white, black=black, start=START)
    duty_player = PlayerFactory()
    link(users[DUTY_TD], duty_player)
    duty_game = services.game_create(white=PlayerFactory(), black=duty_player, start=START)
    game = game_between(spring, white, black)
    staff_game = game_between(spring, white, staffs)
    chair_game = game_between(spring, black, chairs)
    services.games_sweep(now=FILED + datetime.timedelta(seconds=1))
    for each in (game, challenge, duty_game, staff_game, chair_game):
        each.refresh_from_db()
        assert send(each, "white", "PROTEST my phone was dead", later(3600)).applied == "protest"
    assert send(game, "black", "DELAY 30", later(7200)).applied == "delay"
    decision = desk.decision_make(
        event=spring,
        kind="credit",
        game=game,
        player=black,
        seconds=600,
        text="the delay",
        by=users["td"],
        at=later(8000),
    )
    send(game, "white", "APPEAL no delay", later(9000))
    chair_decision = desk.decision_make(
        event=spring,
        kind="credit",
        game=chair_game,
        player=chair_game.white,
        seconds=600,
        text="x",
        by=users["td"],
        at=later(8000),
    )
    send(chair_game, chair_game.color_of(chairs.pk), "APPEAL not enough", later(9000))
    appeals = Transmission.objects.filter(party="td", kind="appeal")
    upload = Upload.objects.create(
        file="uploads/x.trf",
        original_name="x.trf",
        sha256="0" * 64,
        size=1,
        format="trf",
        uploaded_by=users["arbiter"],
        status=Upload.Status.FAILED,
        problems=["line 1: not a TRF"],
    )
    tournament = TournamentFactory(chief_arbiter=users["arbiter"])
    return {
        "users": users,
        "spring": spring,
        "autumn": autumn,
        "autumn_game": autumn.games.get(),
        "game": game,
        "challenge": challenge,
        "duty_game": duty_game,
        "staff_game": staff_game,
        "chair_game": chair_game,
        "decision": decision,
        "appeal": appeals.get(game=game),
        "chair_decision": chair_decision,
        "chair_appeal": appeals.get(game=chair_game),
        "delay": Transmission.objects.get(game=game, party="td", kind="delay"),
        "leave": leaves.leave_request(
            event=spring,
            player=white,
            first_day=timezone.now().date() + datetime.timedelta(days=3),
            last_day=timezone.now().date() + datetime.timedelta(days=4),
        ),
        "enquiry": desk.enquiry_send(
            event=spring,
            player=white,
            text="where are you?",
            by=users["td"],
            deadline=later(0) + datetime.timedelta(days=30),
        ),
        "link_pending": PlayerLink.objects.create(user=users["player"], player=PlayerFactory(), relation="self"),
        "application": FideImportApplication.objects.create(
            applicant=users["player"],
            player=white,
            fide_id=4100018,
            fide_rating=2100,
            rating_list_month=datetime.date(2026, 1, 1),
            evidence_url="https://ratings.fide.com/profile/4100018",
        ),
        "offer": offer,
        "upload": upload,
        "tournament": tournament,
        "otb_game": GameFactory(tournament=tournament),
        "white": white,
        "black": black,
    }
