from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from players.models import Player
from toolkit.fields import PlainJSONField


class System(models.TextChoices):
    ORR = "orr", _("ORR")
    MCHESS = "mchess", _("Mchess")
    PLAYCHESS = "playchess", _("PlayChess")
    GCR = "gcr", _("Game Courier")


MCHESS_CAP = 20000


class PlayerRating(models.Model):
    """A player's current rating in one system: what the live list shows."""

    # Derived rows rewritten in bulk: no database foreign key (see RatingChange); unique below.
    player = models.ForeignKey(Player, models.CASCADE, related_name="ratings", db_index=False, db_constraint=False)
    system = models.CharField(_("system"), max_length=9, choices=System.choices)
    # Null for a newcomer who has played but scored nothing yet: he has a state, not a rating.
    rating = models.PositiveIntegerField(_("rating"), null=True, blank=True)
    provisional = models.BooleanField(_("provisional"), default=False)
    games = models.PositiveIntegerField(_("rated games"), default=0)
    tournaments = models.PositiveIntegerField(_("rated tournaments"), default=0)
    last_played = models.DateField(_("last rated game"), null=True, blank=True)
    # GCR only: the forward and reverse pass, and how well the final ratings predict the games.
    gcr1 = models.DecimalField(max_digits=9, decimal_places=2, null=True, blank=True)
    gcr2 = models.DecimalField(max_digits=9, decimal_places=2, null=True, blank=True)
    accuracy = models.DecimalField(_("accuracy, %"), max_digits=5, decimal_places=2, null=True, blank=True)
    # The engine's state after the player's last rated event (stored games, counts), exactly as the
    # next rating run needs it; the same snapshot is kept in every RatingChange for re-ratings.
    state = PlainJSONField(_("engine state"), default=dict, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("current rating")
        verbose_name_plural = _("current ratings")
        constraints = [
            models.UniqueConstraint(fields=["player", "system"], name="rating_one_per_player_system"),
            models.CheckConstraint(condition=Q(rating__lte=MCHESS_CAP), name="rating_within_cap"),
        ]
        indexes = [
            # The rating list: one system, highest first.
            models.Index(fields=["system", "-rating", "player"], name="rating_list_idx"),
            models.Index(fields=["system", "last_played"], name="rating_activity_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.get_system_display()} {self.display}"

    @property
    def display(self) -> str:
        return f"{self.rating}*" if self.provisional else str(self.rating)


class RatingChange(models.Model):
    """One player's result of one event (a tournament, a mobile game) in one system, with every number
    of the calculation."""

    # No single-column indexes: the unique (player, tournament, system) serves the player's history
    # and change_report_idx the tournament's report. No database foreign keys either: these rows are
    # derived, rewritten by the hundred thousand in one transaction from ids read in that same
    # transaction, and PostgreSQL checks a foreign key row by row at commit (13 s of a full
    # re-rating at 1M games). Deletes still cascade: Django does it.
    player = models.ForeignKey(
        Player, models.CASCADE, related_name="rating_changes", db_index=False, db_constraint=False
    )
    # The event the change belongs to: an uploaded tournament or a mobile game, exactly one of them.
    # String references: ratings imports neither app (the events reach it through RATING_SOURCES).
    tournament = models.ForeignKey(
        "tournaments.Tournament",
        models.CASCADE,
        null=True,
        blank=True,
        related_name="rating_changes",
        db_index=False,
        db_constraint=False,
    )
    mobile_game = models.ForeignKey(
        "play.MobileGame",
        models.CASCADE,
        null=True,
        blank=True,
        related_name="rating_changes",
        db_index=False,
        db_constraint=False,
    )
    system = models.CharField(_("system"), max_length=9, choices=System.choices)
    # Null before: a newcomer. Null after: a newcomer who scored nothing and got no rating.
    rating_before = models.IntegerField(_("rating before"), null=True, blank=True)
    rating_after = models.IntegerField(_("rating after"), null=True, blank=True)
    provisional_before = models.BooleanField(_("provisional before"), default=False)
    provisional_after = models.BooleanField(_("provisional after"), default=False)
    games = models.PositiveSmallIntegerField(_("rated games"), default=0)
    score = models.DecimalField(_("score"), max_digits=5, decimal_places=1, default=0)
    is_guest = models.BooleanField(_("guest"), default=False)
    enters_list = models.BooleanField(_("enters the list"), default=True)
    # System-specific intermediate numbers (ORR: Kt, Ki, Yavg, Rmax, Rmin, Rpmax, Rs, Rp, Rkor,
    # Rsr, SR, K, R±; Mchess: W and per-game deltas; PlayChess: mode, Rc, p, k), exactly as the engine gave them.
    details = PlainJSONField(_("calculation details"), default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        constraints = [
            models.UniqueConstraint(fields=["player", "tournament", "system"], name="change_one_per_player_event"),
            models.UniqueConstraint(
                fields=["player", "mobile_game", "system"], name="change_one_per_player_mobile_game"
            ),
            models.CheckConstraint(
                condition=Q(tournament__isnull=False, mobile_game__isnull=True)
                | Q(tournament__isnull=True, mobile_game__isnull=False),
                name="change_one_event",
            ),
            models.CheckConstraint(
                condition=Q(rating_after__isnull=True) | Q(rating_after__gte=0, rating_after__lte=MCHESS_CAP),
                name="change_rating_after_in_range",
            ),
            models.CheckConstraint(condition=Q(score__gte=0), name="change_score_nonnegative"),
        ]
        indexes = [
            models.Index(fields=["tournament", "system"], name="change_report_idx"),
            models.Index(
                fields=["mobile_game", "system"], name="change_mobile_idx", condition=Q(mobile_game__isnull=False)
            ),
        ]

    def __str__(self) -> str:
        event = self.tournament if self.tournament_id else self.mobile_game
        return f"{self.player} {self.system} {event}: {self.rating_before} → {self.rating_after}"

    @property
    def event_url(self) -> str:
        """The page of the change's event: the tournament's report, or the mobile game's page."""
        if self.tournament_id:
            return self.tournament.get_absolute_url()
        return f"/play/games/{self.mobile_game.code}/"

    @property
    def delta(self) -> int | None:
        if self.rating_before is None or self.rating_after is None:
            return None
        return self.rating_after - self.rating_before


class ProvisionalGame(models.Model):
    """A game kept for a newcomer or provisional player's own later re-calculation (ORR 2.3–2.4)."""

    # Derived rows rewritten in bulk: no database foreign keys (see RatingChange).
    player = models.ForeignKey(
        Player, models.CASCADE, related_name="provisional_games", db_index=False, db_constraint=False
    )
    system = models.CharField(_("system"), max_length=9, choices=System.choices, default=System.ORR)
    tournament = models.ForeignKey("tournaments.Tournament", models.CASCADE, related_name="+", db_constraint=False)
    round = models.PositiveSmallIntegerField(_("round"))
    opponent = models.ForeignKey(Player, models.SET_NULL, null=True, blank=True, related_name="+", db_constraint=False)
    # The opponent's rating as used when the game was rated; it never changes afterwards.
    opponent_rating = models.IntegerField(_("opponent's rating"))
    score = models.DecimalField(_("score"), max_digits=2, decimal_places=1)

    class Meta:
        ordering = ["player_id", "id"]
        verbose_name = _("stored provisional game")
        verbose_name_plural = _("stored provisional games")
        constraints = [
            models.UniqueConstraint(
                fields=["player", "system", "tournament", "round"], name="provisional_game_once_per_round"
            ),
            models.CheckConstraint(condition=Q(score__in=[0, 0.5, 1]), name="provisional_game_score_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.player} R{self.round} vs {self.opponent_rating}: {self.score}"


class RatingList(models.Model):
    """A published (frozen) monthly list of one system."""

    system = models.CharField(_("system"), max_length=9, choices=System.choices)
    month = models.DateField(_("month"), help_text=_("The first day of the month."))
    published_at = models.DateTimeField(_("published at"), auto_now_add=True)

    class Meta:
        ordering = ["-month", "system"]
        verbose_name = _("published rating list")
        verbose_name_plural = _("published rating lists")
        constraints = [
            models.UniqueConstraint(fields=["system", "month"], name="rating_list_one_per_month"),
            models.CheckConstraint(condition=Q(month__endswith="-01"), name="rating_list_month_first_day"),
        ]

    def __str__(self) -> str:
        return f"{self.get_system_display()} {self.month:%Y-%m}"


class RatingListEntry(models.Model):
    rating_list = models.ForeignKey(RatingList, models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, models.CASCADE, related_name="+")
    rank = models.PositiveIntegerField(_("rank"))
    rating = models.PositiveIntegerField(_("rating"))
    provisional = models.BooleanField(_("provisional"), default=False)
    games = models.PositiveIntegerField(_("rated games"), default=0)

    class Meta:
        ordering = ["rating_list_id", "rank"]
        verbose_name = _("rating list entry")
        verbose_name_plural = _("rating list entries")
        constraints = [
            models.UniqueConstraint(fields=["rating_list", "player"], name="rating_list_entry_once"),
        ]
        indexes = [models.Index(fields=["rating_list", "rank"], name="rating_list_entry_rank_idx")]

    def __str__(self) -> str:
        return f"{self.rank}. {self.player} {self.rating}{'*' if self.provisional else ''}"


class PenaltyMonth(models.Model):
    """A month whose Mchess inactivity penalty was due (the monthly job ran for it).

    Re-ratings re-apply exactly these months, in order with the tournaments.
    """

    month = models.DateField(_("month"), unique=True, help_text=_("The first day of the month."))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["month"]
        verbose_name = _("Mchess penalty month")
        verbose_name_plural = _("Mchess penalty months")
        constraints = [models.CheckConstraint(condition=Q(month__endswith="-01"), name="penalty_month_first_day")]

    def __str__(self) -> str:
        return f"{self.month:%Y-%m}"


class InactivityPenalty(models.Model):
    """One player's Mchess inactivity penalty of one month."""

    player = models.ForeignKey(Player, models.CASCADE, related_name="inactivity_penalties")
    month = models.DateField(_("month"))
    rating_before = models.PositiveIntegerField(_("rating before"))
    rating_after = models.PositiveIntegerField(_("rating after"))

    class Meta:
        ordering = ["month", "player_id"]
        verbose_name = _("Mchess inactivity penalty")
        verbose_name_plural = _("Mchess inactivity penalties")
        constraints = [models.UniqueConstraint(fields=["player", "month"], name="penalty_once_per_player_month")]
        indexes = [models.Index(fields=["month"], name="penalty_month_idx")]

    def __str__(self) -> str:
        return f"{self.player} {self.month:%Y-%m}: {self.rating_before} → {self.rating_after}"


class GcrRun(models.Model):
    """The holistic GCR recomputation: asked for after every rating run, done once for a burst."""

    requested_at = models.DateTimeField(_("requested at"))
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    computed_at = models.DateTimeField(_("computed at"), null=True, blank=True)
    games = models.PositiveIntegerField(_("games"), default=0)
    players = models.PositiveIntegerField(_("players"), default=0)
    accuracy = models.DecimalField(_("accuracy, %"), max_digits=5, decimal_places=2, null=True, blank=True)

    class Meta:
        verbose_name = _("GCR recomputation")
        verbose_name_plural = _("GCR recomputations")

    def __str__(self) -> str:
        return f"GCR {self.computed_at or 'pending'}"


class RatingOverride(models.Model):
    """A rating set by a decision (an approved FIDE-rating import), from a date on.

    An input of the history like a tournament: every re-rating applies it in its place, before
    the tournaments that end on or after its date.
    """

    player = models.ForeignKey(Player, models.CASCADE, related_name="rating_overrides")
    effective = models.DateField(_("effective from"))
    orr = models.PositiveIntegerField(_("ORR rating"), null=True, blank=True)
    mchess = models.PositiveIntegerField(_("Mchess rating"), null=True, blank=True)
    playchess = models.PositiveIntegerField(_("PlayChess rating"), null=True, blank=True)
    reason = models.CharField(_("reason"), max_length=200)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["effective", "id"]
        verbose_name = _("rating override")
        verbose_name_plural = _("rating overrides")
        indexes = [models.Index(fields=["effective"], name="override_effective_idx")]

    def __str__(self) -> str:
        return f"{self.player} from {self.effective}: {self.reason}"


class RatingRequest(models.Model):
    """A durable "re-rate from here": written in the transaction of the change that needs it.

    The Celery message is only a wake-up call: a run claims every pending request, rates once
    from the earliest of their places, and marks them done. A request outlives a broker that is
    down (the sweeper publishes it later) and a worker killed mid-run (its heartbeat stops, the
    sweeper or the next worker to start puts it back).
    """

    class State(models.TextChoices):
        PENDING = "pending", pgettext_lazy("rating run", "waiting for a worker")
        RUNNING = "running", pgettext_lazy("rating run", "running")
        DONE = "done", pgettext_lazy("rating run", "done")
        FAILED = "failed", pgettext_lazy("rating run", "failed")

    class Reason(models.TextChoices):
        CONFIRM = "confirm", _("tournament confirmed")
        WITHDRAW = "withdraw", _("tournament withdrawn")
        CORRECTION = "correction", _("result corrected")
        MERGE = "merge", _("players merged")
        BIRTH_DATE = "birth_date", _("birth date edited")
        FIDE_IMPORT = "fide_import", _("FIDE rating imported")
        ADMIN = "admin", _("re-rating by an admin")
        RECOVERY = "recovery", _("queued tournament recovered")
        MOBILE = "mobile", _("mobile game finished or its result changed")

    # From the tournament's place in the rating order, or from a date, or (neither) the whole history.
    tournament = models.ForeignKey(
        "tournaments.Tournament",
        models.CASCADE,
        null=True,
        blank=True,
        related_name="rating_requests",
        verbose_name=_("tournament"),
    )
    since = models.DateField(_("re-rate from"), null=True, blank=True)
    # From an instant (a mobile game's finishing moment); `since` then holds its local day.
    since_at = models.DateTimeField(_("re-rate from the moment"), null=True, blank=True)
    reason = models.CharField(_("reason"), max_length=12, choices=Reason.choices)
    state = models.CharField(
        pgettext_lazy("rating run", "state"), max_length=8, choices=State.choices, default=State.PENDING
    )
    created_at = models.DateTimeField(_("requested at"), auto_now_add=True)
    published_at = models.DateTimeField(pgettext_lazy("rating run", "sent to the queue at"), null=True, blank=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    heartbeat_at = models.DateTimeField(pgettext_lazy("rating run", "last heartbeat"), null=True, blank=True)
    finished_at = models.DateTimeField(pgettext_lazy("rating run", "finished at"), null=True, blank=True)
    worker = models.CharField(pgettext_lazy("rating run", "worker"), max_length=200, blank=True)
    run_token = models.CharField(max_length=32, blank=True)  # which claim a run's end may close
    attempts = models.PositiveIntegerField(pgettext_lazy("rating run", "attempts"), default=0)
    error = models.TextField(pgettext_lazy("rating run", "error"), blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("rating request")
        verbose_name_plural = _("rating requests")
        indexes = [models.Index(fields=["state", "created_at"], name="rating_request_state_idx")]

    def __str__(self) -> str:
        place = (self.tournament_id and f"tournament {self.tournament_id}") or self.since or "the whole history"
        return f"{self.get_reason_display()}: from {place} ({self.state})"


from ratings.opening.models import OpeningEntry, OpeningList  # noqa: E402, F401 - the room's models, registered here
