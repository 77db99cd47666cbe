"""The computer opponents' tables (models of the play app: Django finds them through play/models.py)."""

from __future__ import annotations

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

# A computer's think time (issue 17): a few seconds so it feels like a game, never over a minute.
THINK_SECONDS = (3, 60)


class ComputerLevel(models.Model):
    """A computer opponent (spec, Mchess: "players of kind computer whose initial rating is 1000"):
    one named strength of the engine, played by its own Player of kind computer. Its engine
    settings never change: a revised level is a new row with a new player (the old one retired,
    active False), so a rating always belongs to one fixed strength, and a game in progress keeps
    the settings it began with."""

    number = models.PositiveSmallIntegerField(_("level"))
    name = models.CharField(_("name"), max_length=80)
    skill = models.PositiveSmallIntegerField(
        _("Skill Level (0-20)"), null=True, blank=True, validators=[MaxValueValidator(20)]
    )
    elo = models.PositiveIntegerField(
        _("UCI_Elo"),
        null=True,
        blank=True,
        help_text=_("Strength limited to this Elo (clamped to what the engine accepts); leave empty for none."),
    )
    depth = models.PositiveSmallIntegerField(_("depth limit"), null=True, blank=True, validators=[MinValueValidator(1)])
    nodes = models.PositiveIntegerField(_("nodes limit"), null=True, blank=True, validators=[MinValueValidator(1)])
    movetime_ms = models.PositiveIntegerField(
        _("move time limit, ms"), null=True, blank=True, validators=[MinValueValidator(1)]
    )
    think_seconds = models.PositiveSmallIntegerField(
        _("think time, seconds"),
        default=5,
        validators=[MinValueValidator(THINK_SECONDS[0]), MaxValueValidator(THINK_SECONDS[1])],
        help_text=_("How long the computer waits before its move is sent, so it feels like a game."),
    )
    # Made when the level first plays (play.computer.services.level_player), not with the level:
    # a ladder nobody has played adds no players to lists, searches and counts.
    player = models.OneToOneField(
        "players.Player",
        models.PROTECT,
        null=True,
        blank=True,
        related_name="computer_level",
        editable=False,
        verbose_name=_("player"),
    )
    active = models.BooleanField(_("offered to players"), default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    retired_at = models.DateTimeField(null=True, blank=True, editable=False)

    ENGINE_FIELDS = ("skill", "elo", "depth", "nodes", "movetime_ms")

    class Meta:
        ordering = ("number", "-active", "-pk")
        constraints = [
            models.UniqueConstraint(
                fields=["number"], condition=Q(active=True), name="play_one_active_level_per_number"
            ),
            models.CheckConstraint(
                condition=Q(think_seconds__gte=THINK_SECONDS[0], think_seconds__lte=THINK_SECONDS[1]),
                name="play_level_think_time",
            ),
            models.CheckConstraint(
                condition=Q(depth__isnull=False) | Q(nodes__isnull=False) | Q(movetime_ms__isnull=False),
                name="play_level_search_limited",
            ),
        ]
        verbose_name = _("computer level")
        verbose_name_plural = _("computer levels")

    def __str__(self) -> str:
        return f"{self.number}. {self.name}"

    def strength(self):
        from play.computer.engine import Strength

        return Strength(
            skill=self.skill,
            elo=self.elo,
            depth=self.depth,
            nodes=self.nodes,
            movetime=self.movetime_ms / 1000 if self.movetime_ms else None,
        )

    def engine_settings(self) -> dict:
        return {name: getattr(self, name) for name in self.ENGINE_FIELDS}

    def clean(self):
        from django.core.exceptions import ValidationError

        problems = self.strength().problems()
        if problems:
            raise ValidationError([p[0].upper() + p[1:] + "." for p in problems])


class CalibrationGame(models.Model):
    """One engine-against-engine game of a calibration run (manage.py play_calibrate), played by
    the engine worker: the command writes the run's games, queues one task per game on the
    "engine" queue and reads the results back (Celery keeps no results here). Not a MobileGame:
    never shown, never rated."""

    run = models.UUIDField(db_index=True)
    white = models.ForeignKey(ComputerLevel, models.CASCADE, related_name="+")
    black = models.ForeignKey(ComputerLevel, models.CASCADE, related_name="+")
    opening = models.CharField(max_length=60, blank=True)
    max_plies = models.PositiveSmallIntegerField()
    result = models.CharField(max_length=7, blank=True)  # "1-0", "0-1", "1/2-1/2"; empty until played
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"calibration {self.run}: level {self.white_id} - level {self.black_id} {self.result or '*'}"
