"""A fixture federation for the site-wide tests: every kind of object a page can show, built with
the project's factories and services, and a user for each persona.

    fed = build_federation()          # inside a test with database access
    fed.users["td"]                   # None for "anonymous"
    fed.event, fed.games["claimed"], fed.decision, fed.appeal_decision, fed.computer_game, ...

Names are long and Russian, ratings have four digits (2801 at the top), so that a page which fits
this federation fits the real one. tests/sitewide/pages.py fills every URL pattern from it.
"""

from __future__ import annotations

import datetime
import io
from dataclasses import dataclass, field

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.db.models import F
from django.utils import timezone

from accounts import views as accounts
from accounts.roles import ARBITERS, FEDERATION_ADMINS, PLAYERS, ensure_roles
from play import services as play
from play.computer import services as computer
from play.computer.models import ComputerLevel
from play.desk import leave as desk_leave
from play.desk import services as desk
from play.events import challenges
from play.models import Challenge, MobileEvent, MobileGame, Transmission
from players import services as player_services
from players.models import FideImportApplication, Player
from ratings import services as rating_services
from ratings.models import PlayerRating, RatingChange, RatingRequest
from tests.players.factories import ClubFactory, PlayerFactory, RegionFactory
from tests.ratings.scenario import make_tournament
from tests.tournaments.files import trf, trf_player
from tournaments.models import Tournament, Upload
from tournaments.uploads import worker as worker_uploads

PERSONAS = ("anonymous", "player", "arbiter", "td", "chairman", "staff")
PASSWORD = "a-long-enough-password"
# What the rating runs give children from 1000 up, raised to the level of a strong federation.
RATING_LIFT = 1600

FAMILY_NAMES = [
    "Константинопольская-Вознесенская",
    "Преображенский-Милославский",
    "Черноморская-Белозерская",
    "Верхнеднепровский",
    "Александрова-Новосельцева",
    "Переяславский-Залесский",
    "Ивантеевская",
    "Благовещенский",
    "Ростиславская-Оболенская",
    "Старооскольский",
    "Краснопресненская",
    "Святополк-Мирский",
]
GIVEN_NAMES = ["Александра Владимировна", "Максимилиан Вячеславович"]


@dataclass
class Federation:
    """Everything build_federation made; tests/sitewide/pages.py fills URL patterns from it."""

    users: dict = field(default_factory=dict)  # persona -> user (None for anonymous)
    players: list = field(default_factory=list)
    tournaments: list = field(default_factory=list)
    upload: Upload | None = None
    confirmed_uploads: list = field(default_factory=list)  # the tournaments' files: published; queued again
    application: FideImportApplication | None = None
    event: MobileEvent | None = None
    games: dict = field(default_factory=dict)  # state -> MobileGame of the event
    decision: object = None  # an upheld time claim, appealed, the appeal pending
    ruled_decision: object = None  # a decision whose appeal the chairman ruled on
    withdrawal: object = None
    leave: object = None
    enquiry: object = None
    challenge: Challenge | None = None
    computer_game: MobileGame | None = None
    newcomer: object = None  # an account confirmed by its link; the link is now used
    used_confirmation: str = ""  # that link's token


def _user(username: str, *groups: str, **fields):
    user = get_user_model().objects.create_user(username, f"{username}@example.org", PASSWORD, **fields)
    for name in groups:
        user.groups.add(Group.objects.get(name=name))
    return user


def _send(game: MobileGame, color: str, text: str, at: datetime.datetime):
    player = game.white if color == "white" else game.black
    return play.message_receive(
        channel="console", sender=str(player.federation_id), text=text, arrival=at, game_code=game.code
    )


def _players() -> list[Player]:
    club = ClubFactory(
        name="Шахматный клуб «Белая ладья» имени Героев Отечества", region=RegionFactory(name="Свердловская область")
    )
    return [
        PlayerFactory(
            family_name=name,
            given_names=GIVEN_NAMES[n % 2],
            sex=Player.Sex.FEMALE if n % 2 == 0 else Player.Sex.MALE,
            birth_date=datetime.date(2008 + n % 9, 1 + n % 12, 1 + n),
            club=club,
        )
        for n, name in enumerate(FAMILY_NAMES)
    ]


def _ratings(players: list[Player], arbiter) -> list[Tournament]:
    """Two rated tournaments (the later one with a report of nine rounds), the lists published,
    every rating and change lifted to four digits."""
    today = timezone.localdate()
    first = make_tournament(
        "Первенство Свердловской области среди юношей и девушек до 19 лет",
        today - datetime.timedelta(days=70),
        players,
        rounds=7,
        seed=3,
        city="Екатеринбург",
        chief_arbiter=arbiter,
    )
    rating_services.rating_run(tournament_id=first.pk)
    second = make_tournament(
        "Мемориал заслуженного тренера России Владимира Александровича Зайцева",
        today - datetime.timedelta(days=30),
        players,
        rounds=9,
        seed=11,
        city="Каменск-Уральский",
        chief_arbiter=arbiter,
    )
    rating_services.rating_run(tournament_id=second.pk)
    PlayerRating.objects.update(rating=F("rating") + RATING_LIFT)
    RatingChange.objects.update(
        rating_before=F("rating_before") + RATING_LIFT, rating_after=F("rating_after") + RATING_LIFT
    )
    rating_services.publish_lists(month=today.replace(day=1))
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.status == second.status == Tournament.Status.RATED
    return [first, second]


BYE = ("0000", "-", "H")


def _upload(arbiter) -> Upload:
    """A result file read and waiting in the arbiter's preview."""
    data = trf(
        [
            trf_player(1, "Konstantinopolskaya,Aleksandra", 2801, rounds=[(2, "w", "1"), (3, "b", "="), BYE]),
            trf_player(2, "Preobrazhensky,Maksimilian", birth="2010/05/17", rounds=[(1, "b", "0"), BYE, (3, "w", "1")]),
            trf_player(3, "Chernomorskaya,Anna", 2650, rounds=[BYE, (1, "w", "="), (2, "b", "0")]),
        ],
        header=["012 Кубок губернатора по быстрым шахматам", "022 Екатеринбург", "042 2026/03/01", "052 2026/03/03"],
    )  # fmt: skip
    return worker_uploads.upload_start(user=arbiter, file_name="kubok.trf", data=data)


def _confirmed_uploads(tournaments: list[Tournament], arbiter) -> list[Upload]:
    """The files the two tournaments came from: the first one's report published; a re-rating from
    the day after it ends waits in the queue, so the second one's progress says it waits again."""
    uploads = [
        Upload.objects.create(
            file=f"uploads/2026/03/tournament-{n}.trf",
            original_name=f"Итоговая таблица турнира {tournament.name[:60]}.trf",
            sha256=f"{n:064x}",
            size=10_000,
            format=Upload.Format.TRF,
            uploaded_by=arbiter,
            status=Upload.Status.CONFIRMED,
            tournament=tournament,
        )
        for n, tournament in enumerate(tournaments, start=1)
    ]
    # Written as is, not through the service: its run would start once the fixture commits.
    RatingRequest.objects.create(
        reason=RatingRequest.Reason.ADMIN,
        since=tournaments[0].end_date + datetime.timedelta(days=1),
        published_at=timezone.now(),
    )
    return uploads


def _event(players: list[Player], td, chairman, staff) -> tuple[MobileEvent, dict]:
    """An all-play-all of six, started four hours ago (a move is due within three hours), with a
    game in every state."""
    now = timezone.now().replace(microsecond=0)
    start = (now - datetime.timedelta(hours=4)).replace(second=0)
    event = play.event_create(
        created_by=staff, players=players[:6], code="ural-sms", td=td, appeals_chair=chairman, leave_days=5,
        name="Открытое первенство Урала по переписке на мобильных телефонах", start=start,
        pairing=MobileEvent.Pairing.ALL_PLAY_ALL,
    )  # fmt: skip
    games = list(event.games.select_related("white", "black").order_by("pk"))

    def at(minutes: int) -> datetime.datetime:
        return start + datetime.timedelta(minutes=minutes)

    mate, resigned, drawn, playing = games[0], games[1], games[2], games[3]
    for n, (color, text) in enumerate(
        [("white", "1. f3"), ("black", "1. f3 e5"), ("white", "1... e5 2. g4"), ("black", "2. g4 Qh4#")], start=1
    ):
        _send(mate, color, text, at(n))
    _send(resigned, "white", "1. d4", at(1))
    _send(resigned, "black", "RESIGN", at(2))
    _send(drawn, "white", "1. e4 draw?", at(1))
    _send(drawn, "black", "DRAW", at(2))
    # The game in progress: each move within three hours of the last, the latest ten minutes ago.
    _send(playing, "white", "1. e4", at(1))
    _send(playing, "black", "1. e4 c5", at(170))
    _send(playing, "white", "1... c5 2. Nf3", now - datetime.timedelta(minutes=10))
    # Every other game: White never moved; the sweep files a time claim against him.
    play.games_sweep(now=now - datetime.timedelta(minutes=5))
    later = now - datetime.timedelta(minutes=4)
    claimed = [game for game in games[4:] if Transmission.objects.filter(game=game).exists()]
    protested, upheld, dismissed, disputed, scored = claimed[:5]
    _send(protested, "white", "PROTEST телефон разрядился, а зарядки не было до самого утра", later)
    _send(disputed, "black", "DISPUTE соперник утверждает, что его телефон был выключен", later)
    states = {
        "mate": mate, "resigned": resigned, "drawn": drawn, "in_progress": playing, "protested": protested,
        "upheld": upheld, "dismissed": dismissed, "disputed": disputed, "scored": scored,
    }  # fmt: skip
    for game in states.values():
        game.refresh_from_db()
    return event, states


def _desk(fed: Federation) -> None:
    """The TD's and the chairman's work on the event: decisions, appeals, a withdrawal, a leave, an
    enquiry."""
    event, games, td, chairman = fed.event, fed.games, fed.users["td"], fed.users["chairman"]
    now = timezone.now().replace(microsecond=0)
    fed.decision = desk.claim_rule(
        event=event, game=games["upheld"], against="white", ply=1, upheld=True, by=td,
        text="Нет доказательств сбоя связи у оператора", at=now - datetime.timedelta(minutes=3),
    )  # fmt: skip
    appeal = "APPEAL сеть не работала весь день, есть справка оператора"
    _send(games["upheld"], "white", appeal, now - datetime.timedelta(minutes=1))
    fed.ruled_decision = desk.claim_rule(
        event=event, game=games["dismissed"], against="white", ply=1, upheld=False, by=td,
        text="Сбой подтверждён оператором связи", at=now - datetime.timedelta(minutes=3),
    )  # fmt: skip
    _send(games["dismissed"], "black", "APPEAL соперник не ответил вовремя", now - datetime.timedelta(minutes=2))
    message = Transmission.objects.get(game=games["dismissed"], party="td", kind="appeal")
    desk.appeal_rule(
        decision=fed.ruled_decision, message=message, reverse=False, reasons="Решение судьи верно", by=chairman
    )
    desk.decision_make(
        event=event, kind="score", game=games["scored"], result="1/2-1/2", by=td,
        text="Партия засчитана вничью по согласию сторон, высказанному судье",
    )  # fmt: skip
    desk.decision_make(
        event=event, kind="credit", game=games["in_progress"], player=games["in_progress"].white, seconds=3600, by=td,
        text="Подтверждённый сбой оператора связи",
    )  # fmt: skip
    fed.enquiry = desk.enquiry_send(
        event=event, player=games["in_progress"].black, text="Подтвердите, пожалуйста, ваш номер телефона",
        deadline=now + datetime.timedelta(days=1), by=td,
    )  # fmt: skip
    fed.leave = desk_leave.leave_request(
        event=event, player=games["in_progress"].black, first_day=now.date() + datetime.timedelta(days=3),
        last_day=now.date() + datetime.timedelta(days=4), text="Выезд на школьную олимпиаду по математике",
    )  # fmt: skip
    withdrawn = event.entries.exclude(
        player__in={g.white_id for g in games.values()} | {g.black_id for g in games.values()}
    ).first()
    if withdrawn is None:  # every player has a game in a named state: withdraw the last one's opponent
        withdrawn = event.entries.get(player=games["disputed"].black)
    fed.withdrawal = desk.withdraw(
        event=event, player=withdrawn.player, mode="losses", by=td, text="Игрок выбыл по болезни"
    )
    for game in games.values():
        game.refresh_from_db()


def _computer_game(player: Player) -> MobileGame:
    """A game with a computer level in progress, the person with White (no engine is needed until
    he moves)."""
    computer.levels_ensure()
    level = ComputerLevel.objects.filter(active=True).order_by("number").last()
    return play.game_create(white=player, black=computer.level_player(level), start=timezone.now())


def build_federation() -> Federation:
    """The whole fixture federation (see the module's docstring). Needs database access; the roles
    are made again if a transactional test flushed them."""
    settings.PLAY_CONSOLE_STREAM = io.StringIO()  # the console channel's messages are not printed
    ensure_roles(Group, Permission)
    fed = Federation()
    fed.users = {
        "anonymous": None,
        "player": _user("parent", PLAYERS, first_name="Ольга"),
        "arbiter": _user("arbiter", PLAYERS, ARBITERS, first_name="Анна"),
        "td": _user("director", PLAYERS),
        "chairman": _user("chairman", PLAYERS),
        "staff": _user("staff", PLAYERS, FEDERATION_ADMINS, is_staff=True),
    }
    # An account that confirmed itself: its link, opened again, says it was used (and logs nobody in).
    fed.newcomer = _user("newcomer", is_active=False)
    fed.used_confirmation = accounts.confirmation_link(fed.newcomer).rstrip("/").rsplit("/", 1)[-1]
    fed.newcomer.is_active, fed.newcomer.last_login = True, timezone.now()
    fed.newcomer.save(update_fields=["is_active", "last_login"])
    fed.players = _players()
    player = fed.players[0]
    link = player_services.link_request(user=fed.users["player"], relation="self", player=player)
    player_services.link_decide(link=link, admin=fed.users["staff"], confirm=True)
    # A second link waits in the staff's queue; a FIDE-rating application waits for review.
    player_services.link_request(user=fed.users["player"], relation="parent", player=fed.players[1])
    fed.application = player_services.application_submit(
        applicant=fed.users["player"], player=fed.players[2], fide_id=24100018, fide_rating=2801,
        rating_list_month=timezone.localdate().replace(day=1), evidence_url="https://ratings.fide.com/profile/24100018",
    )  # fmt: skip
    player_services.player_follow(user=fed.users["player"], player=fed.players[3])
    fed.tournaments = _ratings(fed.players, fed.users["arbiter"])
    fed.upload = _upload(fed.users["arbiter"])
    fed.confirmed_uploads = _confirmed_uploads(fed.tournaments, fed.users["arbiter"])
    fed.event, fed.games = _event(fed.players, fed.users["td"], fed.users["chairman"], fed.users["staff"])
    _desk(fed)
    fed.challenge = challenges.challenge_offer(
        user=fed.users["player"], challenger=player, opponent=fed.players[7], note="Сыграем партию по переписке?"
    )
    fed.computer_game = _computer_game(player)
    return fed
