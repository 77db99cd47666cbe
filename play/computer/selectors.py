"""Computer opponents' reads: the levels offered with their Mchess ratings, and the Computers page
(each level's rating, games and score against people)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Case, Count, DecimalField, F, Q, Sum, Value, When

from play.models import ComputerLevel, MobileGame
from players.models import Player
from ratings.engines.mchess import initial_rating
from ratings.models import PlayerRating, System

COMPUTER_START = initial_rating(computer=True)  # 1000: spec, Mchess, computer opponents


@dataclass(frozen=True)
class LevelRow:
    level: ComputerLevel
    rating: int
    rated: bool  # False: no rated game yet, the rating shown is the initial one
    games: int = 0  # rated games against people
    points: float = 0.0  # the computer's points in them

    @property
    def score(self) -> float | None:
        """The computer's score against people, 0-100 %, or None before its first game."""
        return round(100 * self.points / self.games, 1) if self.games else None


def _ratings(player_ids: list[int]) -> dict[int, int]:
    rows = PlayerRating.objects.filter(system=System.MCHESS, player_id__in=player_ids, rating__isnull=False)
    return dict(rows.values_list("player_id", "rating"))


def levels_offered() -> list[LevelRow]:
    """The active levels, weakest first, each with its Mchess rating (1000 before its first rated
    game, by the rating rule)."""
    levels = list(ComputerLevel.objects.filter(active=True).select_related("player").order_by("number"))
    ratings = _ratings([lv.player_id for lv in levels if lv.player_id])
    return [
        LevelRow(level=lv, rating=ratings.get(lv.player_id, COMPUTER_START), rated=lv.player_id in ratings)
        for lv in levels
    ]


def level_by_number(number: int) -> ComputerLevel | None:
    return ComputerLevel.objects.filter(number=number, active=True).first()


def computers_table() -> list[LevelRow]:
    """Every level that is offered or has played (retired ones too: their ratings were earned with
    their own settings), with its rating and its rated games and points against people."""
    levels = list(
        ComputerLevel.objects.filter(Q(active=True) | Q(player__isnull=False))
        .select_related("player")
        .order_by("number", "-active", "-pk")
    )
    ids = [lv.player_id for lv in levels if lv.player_id]
    ratings = _ratings(ids)
    scores = _scores(ids)
    rows = []
    for lv in levels:
        games, points = scores.get(lv.player_id, (0, 0.0))
        rating = ratings.get(lv.player_id, COMPUTER_START)
        rows.append(LevelRow(level=lv, rating=rating, rated=lv.player_id in ratings, games=games, points=points))
    return rows


def _scores(computer_ids: list[int]) -> dict[int, tuple[int, float]]:
    """(rated games, points) of each computer against people, from the finished mobile games."""
    if not computer_ids:
        return {}
    decimal = DecimalField(max_digits=9, decimal_places=1)
    rated = MobileGame.objects.filter(status=MobileGame.Status.FINISHED, finished_at__isnull=False, plies__gte=2)
    found: dict[int, tuple[int, float]] = {}
    for side, won, other in (("white", "1-0", "black"), ("black", "0-1", "white")):
        rows = (
            rated.filter(**{f"{side}_id__in": computer_ids, f"{other}__kind": Player.Kind.HUMAN})
            .values(computer=F(f"{side}_id"))
            .annotate(
                games=Count("pk"),
                points=Sum(
                    Case(
                        When(result=won, then=Value(1)),
                        When(result="1/2-1/2", then=Value(0.5)),
                        default=Value(0),
                        output_field=decimal,
                    )
                ),
            )
        )
        for row in rows:
            games, points = found.get(row["computer"], (0, 0.0))
            found[row["computer"]] = (games + row["games"], points + float(row["points"] or 0))
    return found
