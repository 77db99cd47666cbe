from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from players.models import Player, private_storage


def default_mchess_weight() -> int:
    # A federation setting (MCHESS_DEFAULT_WEIGHT), read when a tournament is created.
    return settings.MCHESS_DEFAULT_WEIGHT


class Tournament(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("draft")
        CONFIRMED = "confirmed", _("confirmed")
        QUEUED = "queued", _("queued for rating")
        RATED = "rated", _("rated")
        FAILED = "failed", _("rating failed")
        WITHDRAWN = "withdrawn", _("withdrawn")

    class TimeControl(models.TextChoices):
        CLASSICAL = "classical", _("classical")
        RAPID = "rapid", _("rapid")
        BLITZ = "blitz", _("blitz")
        CORRESPONDENCE = "correspondence", _("correspondence")

    name = models.CharField(_("name"), max_length=200)
    city = models.CharField(_("city"), max_length=120, blank=True)
    start_date = models.DateField(_("start date"))
    end_date = models.DateField(_("end date"))
    rounds = models.PositiveSmallIntegerField(_("rounds"))
    time_control = models.CharField(
        _("time control"), max_length=14, choices=TimeControl.choices, default=TimeControl.CLASSICAL
    )
    time_control_detail = models.CharField(_("time control, as announced"), max_length=100, blank=True)
    fide_rated = models.BooleanField(_("FIDE-rated"), default=False)
    # ORR rates every tournament; the other systems can be switched off per tournament.
    rate_mchess = models.BooleanField(_("rated in Mchess"), default=True)
    rate_playchess = models.BooleanField(_("rated in PlayChess"), default=True)
    rate_gcr = models.BooleanField(_("counted in GCR"), default=True)
    mchess_weight = models.PositiveIntegerField(_("Mchess weight W"), default=default_mchess_weight)
    # The arbiter's account in charge of the tournament on this site (who uploaded it); he names
    # co-arbiters. The chief arbiter the result file names, a person who may have no account at
    # all, is `chief_arbiter_name`.
    chief_arbiter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        models.PROTECT,
        null=True,
        blank=True,
        related_name="tournaments_as_chief",
        verbose_name=_("chief arbiter"),
    )
    chief_arbiter_name = models.CharField(_("chief arbiter, as the result file names him"), max_length=200, blank=True)
    co_arbiters = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="tournaments_as_co_arbiter", verbose_name=_("co-arbiters")
    )
    # The tie-breaks in the order of the result file (codes of tournaments.tiebreaks.rules.NAMES); empty:
    # the regulations' defaults for a Swiss or a round robin. How unplayed rounds count in Buchholz:
    # FIDE's rule of 2023 (a dummy opponent) unless the arbiter's program used the 2009 one.
    tiebreaks = models.JSONField(_("tie-breaks"), default=list, blank=True)

    class UnplayedRule(models.TextChoices):
        FIDE_2023 = "fide2023", _("FIDE 2023: a dummy opponent with the player's own score")
        FIDE_2009 = "fide2009", _("FIDE 2009: a virtual opponent")

    tiebreak_unplayed = models.CharField(
        _("unplayed rounds in tie-breaks"), max_length=8, choices=UnplayedRule.choices, default=UnplayedRule.FIDE_2023
    )
    status = models.CharField(_("status"), max_length=9, choices=Status.choices, default=Status.DRAFT)
    status_detail = models.TextField(_("status detail"), blank=True, help_text=_("Why a rating run failed."))
    rated_at = models.DateTimeField(_("rated at"), null=True, blank=True)
    # Set once the followers of its players heard of its first rating: re-ratings do not mail again.
    followers_notified_at = models.DateTimeField(_("followers notified at"), null=True, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        # The rating order of the specification: end date, then start date, then id.
        ordering = ["end_date", "start_date", "id"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        indexes = [
            models.Index(fields=["end_date", "start_date", "id"], name="tournament_rating_order_idx"),
            models.Index(fields=["status", "end_date"], name="tournament_status_idx"),
            models.Index(fields=["-start_date"], name="tournament_recent_idx"),
        ]
        constraints = [
            models.CheckConstraint(condition=Q(end_date__gte=F("start_date")), name="tournament_dates_in_order"),
            models.CheckConstraint(condition=Q(rounds__gte=1), name="tournament_has_rounds"),
            models.CheckConstraint(condition=Q(mchess_weight__gte=1), name="tournament_mchess_weight_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.start_date:%Y-%m-%d})"

    def get_absolute_url(self) -> str:
        return reverse("tournaments:detail", args=[self.pk])

    @property
    def rating_order_key(self) -> tuple:
        return (self.end_date, self.start_date, self.pk)


class Participant(models.Model):
    tournament = models.ForeignKey(Tournament, models.CASCADE, related_name="participants")
    player = models.ForeignKey(Player, models.PROTECT, related_name="participations")
    start_number = models.PositiveSmallIntegerField(_("start number"))
    rank = models.PositiveSmallIntegerField(_("rank"), null=True, blank=True)
    points_in_file = models.DecimalField(_("points in the file"), max_digits=4, decimal_places=1, null=True, blank=True)
    rating_in_file = models.PositiveSmallIntegerField(_("rating in the file"), null=True, blank=True)
    fide_rating_in_file = models.PositiveSmallIntegerField(_("FIDE rating in the file"), null=True, blank=True)
    # A guest plays and is rated for this event only; he is never entered into the lists.
    is_guest = models.BooleanField(_("guest"), default=False)
    club_in_file = models.CharField(_("club in the file"), max_length=200, blank=True)

    class Meta:
        ordering = ["tournament_id", "start_number"]
        verbose_name = _("participant")
        verbose_name_plural = _("participants")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="participant_once_per_tournament"),
            models.UniqueConstraint(fields=["tournament", "start_number"], name="participant_unique_start_number"),
            models.CheckConstraint(condition=Q(start_number__gte=1), name="participant_start_number_positive"),
        ]
        indexes = [models.Index(fields=["player", "tournament"], name="participant_player_idx")]

    def __str__(self) -> str:
        return f"{self.start_number}. {self.player} @ {self.tournament}"


class Game(models.Model):
    class Result(models.TextChoices):
        WHITE_WINS = "1-0", "1–0"
        DRAW = "1/2-1/2", "½–½"
        BLACK_WINS = "0-1", "0–1"
        # Double forfeit; or the points of a zero-point bye / unplayed round.
        NONE = "0-0", "0–0"

    class Kind(models.TextChoices):
        PLAYED = "played", _("played")
        FORFEIT = "forfeit", _("forfeit")
        BYE = "bye", _("full-point bye")
        HALF_BYE = "half_bye", _("half-point bye")
        UNPLAYED = "unplayed", _("unplayed (zero-point bye or absent)")
        # TRF W/D/L: played but under one move; the points count, the game is not rated.
        SHORT = "short", _("played, under one move (not rated)")

    # Kinds without an opponent: the player is stored as `white`; the result gives his points.
    SINGLE_PLAYER_KINDS = (Kind.BYE, Kind.HALF_BYE, Kind.UNPLAYED)
    RATED_KINDS = (Kind.PLAYED,)

    tournament = models.ForeignKey(Tournament, models.CASCADE, related_name="games")
    round = models.PositiveSmallIntegerField(_("round"))
    board = models.PositiveSmallIntegerField(_("board"), null=True, blank=True)
    white = models.ForeignKey(Player, models.PROTECT, related_name="games_as_white", verbose_name=_("white"))
    black = models.ForeignKey(
        Player, models.PROTECT, null=True, blank=True, related_name="games_as_black", verbose_name=_("black")
    )
    result = models.CharField(_("result"), max_length=7, choices=Result.choices)
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices, default=Kind.PLAYED)
    moves = models.TextField(_("moves (PGN)"), blank=True)

    class Meta:
        ordering = ["tournament_id", "round", "board", "id"]
        verbose_name = _("game")
        verbose_name_plural = _("games")
        indexes = [
            models.Index(fields=["white", "tournament"], name="game_white_idx"),
            models.Index(fields=["black", "tournament"], name="game_black_idx"),
        ]
        constraints = [
            models.CheckConstraint(condition=Q(round__gte=1), name="game_round_positive"),
            models.UniqueConstraint(fields=["tournament", "round", "white"], name="game_white_once_per_round"),
            models.UniqueConstraint(fields=["tournament", "round", "black"], name="game_black_once_per_round"),
            models.CheckConstraint(condition=~Q(white=F("black")), name="game_not_against_self"),
            # Which results each kind allows; the single-player kinds have no opponent.
            models.CheckConstraint(
                name="game_result_valid_for_kind",
                condition=(
                    Q(kind__in=["played", "short"], black__isnull=False, result__in=["1-0", "1/2-1/2", "0-1"])
                    | Q(kind="forfeit", black__isnull=False, result__in=["1-0", "0-1", "0-0"])
                    | Q(kind="bye", black__isnull=True, result="1-0")
                    | Q(kind="half_bye", black__isnull=True, result="1/2-1/2")
                    | Q(kind="unplayed", black__isnull=True, result="0-0")
                ),
            ),
        ]

    def __str__(self) -> str:
        if self.black_id is None:
            return f"R{self.round}: {self.white} ({self.get_kind_display()})"
        return f"R{self.round}: {self.white} – {self.black} {self.get_result_display()}"

    @property
    def is_rated(self) -> bool:
        return self.kind in self.RATED_KINDS

    @property
    def white_points(self) -> Decimal:
        return {"1-0": Decimal(1), "1/2-1/2": Decimal("0.5")}.get(self.result, Decimal(0))

    @property
    def black_points(self) -> Decimal | None:
        if self.black_id is None:
            return None
        return {"0-1": Decimal(1), "1/2-1/2": Decimal("0.5")}.get(self.result, Decimal(0))


class Upload(models.Model):
    class Status(models.TextChoices):
        PREVIEW = "preview", _("preview")
        CONFIRMED = "confirmed", _("confirmed")
        # A starting-rank list whose players were registered (it holds no games).
        REGISTERED = "registered", _("players registered")
        # A large file waiting for, or being read by, a worker (settings.UPLOAD_PARSE_ON_WORKER_BYTES).
        PARSING = "parsing", _("being read")
        # The worker found the file bad: `problems` say where; nothing else was saved.
        FAILED = "failed", _("not accepted")

    class Format(models.TextChoices):
        XLSX = "xlsx", "Excel (xlsx)"
        XLS = "xls", "Excel 97–2003 (xls)"
        TRF = "trf", "FIDE TRF"
        PGN = "pgn", "PGN"
        TUNX = "tunx", "Swiss-Manager Swiss (TUNX)"
        TURX = "turx", "Swiss-Manager round robin (TURX)"
        TUMX = "tumx", "Swiss-Manager team (TUMX)"
        SP = "sp", "Swiss Perfect"
        HTML = "html", "HTML (chess-results, Vega)"

    file = models.FileField(_("file"), storage=private_storage, upload_to="uploads/%Y/%m/")
    original_name = models.CharField(_("file name"), max_length=255)
    sha256 = models.CharField(_("SHA-256"), max_length=64, unique=True)
    size = models.PositiveIntegerField(_("size in bytes"))
    format = models.CharField(_("format"), max_length=4, choices=Format.choices)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.PROTECT, related_name="uploads", verbose_name=_("uploaded by")
    )
    uploaded_at = models.DateTimeField(_("uploaded at"), auto_now_add=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PREVIEW)
    # The parsed file as the arbiter saw it in the preview, and the warnings and errors found.
    preview = models.JSONField(_("parsed preview"), default=dict, blank=True)
    problems = models.JSONField(_("problems"), default=list, blank=True)
    # While a worker reads the file: {"games": read so far, "line": where, "lines": of how many}.
    progress = models.JSONField(_("reading progress"), default=dict, blank=True)
    tournament = models.OneToOneField(
        Tournament, models.CASCADE, null=True, blank=True, related_name="upload", verbose_name=_("tournament")
    )

    class Meta:
        ordering = ["-uploaded_at"]
        verbose_name = _("upload")
        verbose_name_plural = _("uploads")
        indexes = [models.Index(fields=["uploaded_by", "-uploaded_at"], name="upload_owner_idx")]
        constraints = [
            models.CheckConstraint(
                condition=~Q(status="confirmed") | Q(tournament__isnull=False), name="upload_confirmed_has_tournament"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.original_name} ({self.get_status_display()})"
