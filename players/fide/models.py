"""The FIDE rating list as last imported: one row per FIDE id and kind (standard, rapid, blitz),
with the list's month. players/models.py imports this module, so the app owns the table."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class FideListEntry(models.Model):
    class Kind(models.TextChoices):
        STANDARD = "standard", _("standard")
        RAPID = "rapid", _("rapid")
        BLITZ = "blitz", _("blitz")

    fide_id = models.PositiveBigIntegerField(_("FIDE id"))
    kind = models.CharField(_("list"), max_length=8, choices=Kind.choices)
    month = models.DateField(_("list month"), help_text=_("The first day of the list's month."))
    name = models.CharField(_("name"), max_length=100)
    federation = models.CharField(_("federation"), max_length=3, blank=True)
    sex = models.CharField(_("sex"), max_length=1, blank=True)
    title = models.CharField(_("title"), max_length=4, blank=True)
    women_title = models.CharField(_("women's title"), max_length=4, blank=True)
    other_titles = models.CharField(_("other titles"), max_length=40, blank=True)
    foa_title = models.CharField(_("FOA title"), max_length=4, blank=True)
    rating = models.PositiveSmallIntegerField(_("rating"), null=True, blank=True)
    games = models.PositiveSmallIntegerField(_("games"), default=0)
    k = models.PositiveSmallIntegerField("K", null=True, blank=True)
    birth_year = models.PositiveSmallIntegerField(_("birth year"), null=True, blank=True)
    flag = models.CharField(_("flag"), max_length=4, blank=True)

    class Meta:
        verbose_name = _("FIDE list entry")
        verbose_name_plural = _("FIDE list entries")
        constraints = [
            models.UniqueConstraint(fields=["fide_id", "kind"], name="fidelist_one_per_id_kind"),
            models.CheckConstraint(condition=Q(kind__in=["standard", "rapid", "blitz"]), name="fidelist_kind_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.fide_id} {self.name} ({self.kind} {self.month:%Y-%m}: {self.rating or '-'})"
