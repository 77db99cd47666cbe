"""The opening list on the timeline: one list (its date) and, per player, his standing in each
engine system on that date. Imported by ratings.models so Django finds the models."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from players.models import Player
from toolkit.fields import PlainJSONField


class OpeningList(models.Model):
    """The federation's list the site starts from: the standings at 00:00 of `effective`.

    An input of the history like a rating decision: every re-rating that reaches its date starts
    its players from it; tournaments ending before it are refused."""

    effective = models.DateField(_("state on"), unique=True)
    file_name = models.CharField(_("file"), max_length=200)
    imported_at = models.DateTimeField(_("imported at"), auto_now=True)

    class Meta:
        verbose_name = _("opening list")
        verbose_name_plural = _("opening lists")

    def __str__(self) -> str:
        return f"{self.file_name} ({self.effective})"


class OpeningEntry(models.Model):
    opening = models.ForeignKey(OpeningList, models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, models.CASCADE, related_name="+")
    fide_rating = models.PositiveSmallIntegerField(_("FIDE rating"), null=True, blank=True)
    # Per system (orr, mchess, playchess): the Standing snapshot, or absent when he has none there.
    states = PlainJSONField(_("standings"), default=dict, blank=True)

    class Meta:
        verbose_name = _("opening list entry")
        verbose_name_plural = _("opening list entries")
        constraints = [models.UniqueConstraint(fields=["opening", "player"], name="opening_entry_once")]

    def __str__(self) -> str:
        return f"{self.player_id} in {self.opening_id}"
