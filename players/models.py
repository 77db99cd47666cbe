from __future__ import annotations

import datetime

from django.conf import settings
from django.core.files.storage import storages
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from players import names


def private_storage():
    # Resolved lazily so tests can point the private storage at a temporary folder.
    return storages["private"]


class Region(models.Model):
    name = models.CharField(_("name"), max_length=120, unique=True)
    code = models.CharField(_("code"), max_length=10, blank=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("region")
        verbose_name_plural = _("regions")

    def __str__(self) -> str:
        return self.name


class Club(models.Model):
    name = models.CharField(_("name"), max_length=200)
    city = models.CharField(_("city"), max_length=120, blank=True)
    region = models.ForeignKey(Region, models.SET_NULL, null=True, blank=True, related_name="clubs")

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        constraints = [models.UniqueConstraint(fields=["name", "city"], name="club_unique_name_city")]

    def __str__(self) -> str:
        return self.label(self.name, self.city)

    @staticmethod
    def label(name: str, city: str) -> str:
        return f"{name} ({city})" if city else name


class Sequence(models.Model):
    """A named counter for identifiers the federation assigns itself (federation ids).

    A row locked with SELECT ... FOR UPDATE hands out blocks of numbers, so bulk
    imports and concurrent registrations never collide and never reuse a number.
    """

    name = models.CharField(max_length=50, primary_key=True)
    next_value = models.PositiveBigIntegerField()

    def __str__(self) -> str:
        return f"{self.name}: {self.next_value}"


class Player(models.Model):
    class Sex(models.TextChoices):
        MALE = "M", _("male")
        FEMALE = "F", _("female")
        UNKNOWN = "", _("unknown")

    class Kind(models.TextChoices):
        HUMAN = "human", _("human")
        COMPUTER = "computer", _("computer program")

    class BirthPrecision(models.TextChoices):
        DAY = "day", _("full date")
        YEAR = "year", _("year only")
        UNKNOWN = "unknown", _("unknown")

    class MessageLanguage(models.TextChoices):
        DEFAULT = "default", _("the federation's")
        RUSSIAN = "ru", _("Russian")
        ENGLISH = "en", _("English")

    federation_id = models.PositiveBigIntegerField(_("federation id"), unique=True, editable=False)
    family_name = models.CharField(_("family name"), max_length=100)
    given_names = models.CharField(_("given names"), max_length=100, blank=True)
    # The Latin spelling shown to readers of the English site and used by FIDE.
    family_name_latin = models.CharField(_("family name (Latin)"), max_length=100, blank=True)
    given_names_latin = models.CharField(_("given names (Latin)"), max_length=100, blank=True)
    # name_key() of the name as written and of its Latin spelling: what matching and search compare.
    name_key = models.CharField(max_length=210, editable=False, db_index=True)
    latin_key = models.CharField(max_length=210, editable=False, db_index=True)
    sex = models.CharField(_("sex"), max_length=1, choices=Sex.choices, blank=True, default=Sex.UNKNOWN)
    # A year-only birth date is stored as 1 July of that year: ORR's own convention.
    birth_date = models.DateField(_("birth date"), null=True, blank=True)
    birth_precision = models.CharField(
        _("birth date precision"), max_length=7, choices=BirthPrecision.choices, default=BirthPrecision.UNKNOWN
    )
    fide_id = models.PositiveBigIntegerField(_("FIDE id"), unique=True, null=True, blank=True)
    country = models.CharField(_("federation (country code)"), max_length=3, blank=True)
    title = models.CharField(_("title"), max_length=4, blank=True)
    club = models.ForeignKey(Club, models.SET_NULL, null=True, blank=True, related_name="players")
    region = models.ForeignKey(Region, models.SET_NULL, null=True, blank=True, related_name="players")
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices, default=Kind.HUMAN)
    # The language of his mobile-chess messages on every channel (play.identities.message_language):
    # on the player, so a game's messages, which load both players with the game, cost no query for it.
    message_language = models.CharField(
        _("language of game messages"), max_length=7, choices=MessageLanguage.choices, default=MessageLanguage.DEFAULT
    )
    merged_into = models.ForeignKey(
        "self", models.PROTECT, null=True, blank=True, related_name="merged_from", verbose_name=_("merged into")
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["family_name", "given_names"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        indexes = [
            models.Index(fields=["family_name", "given_names"], name="player_name_idx"),
            models.Index(fields=["birth_date"], name="player_birth_idx"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=(Q(birth_precision="unknown") & Q(birth_date__isnull=True))
                | (Q(birth_precision__in=["day", "year"]) & Q(birth_date__isnull=False)),
                name="player_birth_precision_matches_date",
            ),
            models.CheckConstraint(condition=~Q(merged_into=models.F("id")), name="player_not_merged_into_self"),
            models.CheckConstraint(condition=~Q(family_name=""), name="player_family_name_required"),
        ]

    def __str__(self) -> str:
        return self.full_name

    def save(self, *args, **kwargs):
        self.normalise()
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("players:detail", args=[self.federation_id])

    def normalise(self) -> None:
        """Derived fields; bulk inserts, which skip save(), call this themselves."""
        # Whatever path a name comes by (a form, the admin, a file), no invisible character stays in it.
        for attribute in ("family_name", "given_names", "family_name_latin", "given_names_latin"):
            setattr(self, attribute, names.strip_invisible(getattr(self, attribute))[0])
        self.name_key = names.name_key(self.family_name, self.given_names)
        self.latin_key = (
            names.name_key(self.family_name_latin, self.given_names_latin) if self.family_name_latin else self.name_key
        )
        if self.birth_precision == self.BirthPrecision.YEAR and self.birth_date:
            self.birth_date = datetime.date(self.birth_date.year, 7, 1)

    @property
    def full_name(self) -> str:
        """'Family, Given': how federation lists and FIDE write names."""
        return f"{self.family_name}, {self.given_names}" if self.given_names else self.family_name

    @property
    def latin_name(self) -> str:
        family = self.family_name_latin or names.transliterate(self.family_name)
        given = self.given_names_latin or names.transliterate(self.given_names)
        return f"{family}, {given}" if given else family

    @property
    def birth_year(self) -> int | None:
        return self.birth_date.year if self.birth_date else None

    @property
    def birth_display(self) -> str:
        if self.birth_precision == self.BirthPrecision.DAY:
            return self.birth_date.isoformat()
        if self.birth_precision == self.BirthPrecision.YEAR:
            return str(self.birth_date.year)
        return ""

    @property
    def is_computer(self) -> bool:
        return self.kind == self.Kind.COMPUTER

    @property
    def fide_profile_url(self) -> str | None:
        return f"https://ratings.fide.com/profile/{self.fide_id}" if self.fide_id else None


class FideImportApplication(models.Model):
    """A player's (or parent's) request to import the player's FIDE rating."""

    class Status(models.TextChoices):
        PENDING = "pending", _("pending review")
        APPROVED = "approved", _("approved")
        REJECTED = "rejected", _("rejected")
        WITHDRAWN = "withdrawn", _("withdrawn by the applicant")

    applicant = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.PROTECT, related_name="fide_applications", verbose_name=_("applicant")
    )
    # Either an existing player, or the name and birth date of a player to create on approval.
    player = models.ForeignKey(
        Player, models.PROTECT, null=True, blank=True, related_name="fide_applications", verbose_name=_("player")
    )
    new_family_name = models.CharField(_("family name"), max_length=100, blank=True)
    new_given_names = models.CharField(_("given names"), max_length=100, blank=True)
    new_birth_date = models.DateField(_("birth date"), null=True, blank=True)
    fide_id = models.PositiveBigIntegerField(_("FIDE id"))
    fide_rating = models.PositiveSmallIntegerField(_("FIDE rating"))
    rating_list_month = models.DateField(_("FIDE rating list (month)"), help_text=_("The first day of the month."))
    evidence_file = models.FileField(_("evidence file"), storage=private_storage, upload_to="evidence/", blank=True)
    evidence_url = models.URLField(_("link to the FIDE profile"), blank=True)
    status = models.CharField(_("status"), max_length=9, choices=Status.choices, default=Status.PENDING)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("decided by")
    )
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    decision_reason = models.TextField(_("reason"), blank=True)
    created_at = models.DateTimeField(_("submitted at"), auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("FIDE rating import application")
        verbose_name_plural = _("FIDE rating import applications")
        indexes = [models.Index(fields=["status", "created_at"], name="fideapp_queue_idx")]
        constraints = [
            models.CheckConstraint(
                condition=Q(player__isnull=False) | ~Q(new_family_name=""), name="fideapp_player_or_new_name"
            ),
            models.CheckConstraint(
                condition=Q(status__in=["pending", "withdrawn"])
                | (Q(decided_by__isnull=False) & Q(decided_at__isnull=False)),
                name="fideapp_decision_recorded",
            ),
            models.CheckConstraint(condition=Q(fide_rating__lte=3000), name="fideapp_rating_plausible"),
            models.CheckConstraint(
                condition=~Q(status="rejected") | ~Q(decision_reason=""), name="fideapp_rejection_has_reason"
            ),
        ]

    def __str__(self) -> str:
        who = self.player or f"{self.new_family_name} {self.new_given_names}".strip()
        return f"{who}: FIDE {self.fide_id} {self.fide_rating} ({self.get_status_display()})"


class Follow(models.Model):
    """An account follows a player: his page is one click away, and the account hears of his results.

    Parents follow their children, coaches their pupils, players their rivals.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.CASCADE, related_name="follows", verbose_name=_("account")
    )
    player = models.ForeignKey(Player, models.CASCADE, related_name="followers", verbose_name=_("player"))
    notify = models.BooleanField(
        _("e-mail me his results"), default=True, help_text=_("An e-mail when a tournament he played in is rated.")
    )
    created_at = models.DateTimeField(_("followed since"), auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("followed player")
        verbose_name_plural = _("followed players")
        constraints = [models.UniqueConstraint(fields=["user", "player"], name="follow_once")]

    def __str__(self) -> str:
        return f"{self.user} follows {self.player}"


class PlayerLink(models.Model):
    """An account's claim to play as a player: his own record ("self") or a child's ("parent").

    Staff confirm it; only a confirmed link lets the account play as the player and see his full
    birth date. A request for a new member names the player, who is created on confirmation.
    """

    class Relation(models.TextChoices):
        SELF = "self", _("this is me")
        PARENT = "parent", _("parent or guardian")

    class Status(models.TextChoices):
        PENDING = "pending", _("pending review")
        CONFIRMED = "confirmed", _("confirmed")
        REJECTED = "rejected", _("rejected")
        REVOKED = "revoked", _("revoked")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.PROTECT, related_name="player_links", verbose_name=_("account")
    )
    player = models.ForeignKey(
        Player, models.PROTECT, null=True, blank=True, related_name="links", verbose_name=_("player")
    )
    new_family_name = models.CharField(_("family name"), max_length=100, blank=True)
    new_given_names = models.CharField(_("given names"), max_length=100, blank=True)
    new_birth_date = models.DateField(_("birth date"), null=True, blank=True)
    relation = models.CharField(_("relation"), max_length=6, choices=Relation.choices)
    status = models.CharField(_("status"), max_length=9, choices=Status.choices, default=Status.PENDING)
    evidence = models.TextField(_("how staff can check it"), blank=True)
    requested_at = models.DateTimeField(_("requested at"), auto_now_add=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("decided by")
    )
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    reason = models.TextField(_("reason"), blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("revoked by")
    )
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)

    class Meta:
        ordering = ["-requested_at"]
        verbose_name = _("player link")
        verbose_name_plural = _("player links")
        indexes = [models.Index(fields=["status", "requested_at"], name="playerlink_queue_idx")]
        constraints = [
            # One person, one account: a player's own record has one confirmed account, and an
            # account is one player's own. Parents are not limited: two parents, several children.
            models.UniqueConstraint(
                fields=["player"],
                condition=Q(status="confirmed", relation="self"),
                name="playerlink_one_self_per_player",
            ),
            models.UniqueConstraint(
                fields=["user"], condition=Q(status="confirmed", relation="self"), name="playerlink_one_self_per_user"
            ),
            # One live request or link per account and player: asking twice is a mistake.
            models.UniqueConstraint(
                fields=["user", "player"],
                condition=Q(status__in=["pending", "confirmed"]),
                name="playerlink_one_live_per_user_player",
            ),
            models.CheckConstraint(
                condition=Q(player__isnull=False) | ~Q(new_family_name=""), name="playerlink_player_or_new_name"
            ),
            models.CheckConstraint(
                condition=~Q(status="confirmed") | Q(player__isnull=False), name="playerlink_confirmed_has_player"
            ),
            models.CheckConstraint(
                condition=Q(status="pending")
                | (Q(decided_at__isnull=False) & Q(decided_by__isnull=False))
                | Q(status="revoked"),
                name="playerlink_decision_recorded",
            ),
            models.CheckConstraint(
                condition=~Q(status="revoked") | (Q(revoked_at__isnull=False) & Q(revoked_by__isnull=False)),
                name="playerlink_revocation_recorded",
            ),
            models.CheckConstraint(
                condition=~Q(status="rejected") | ~Q(reason=""), name="playerlink_rejection_has_reason"
            ),
            models.CheckConstraint(condition=Q(relation__in=["self", "parent"]), name="playerlink_relation_valid"),
        ]

    def __str__(self) -> str:
        who = self.player or f"{self.new_family_name} {self.new_given_names}".strip()
        return f"{self.user} → {who} ({self.get_relation_display()}, {self.get_status_display()})"

    @property
    def player_label(self) -> str:
        if self.player_id:
            return self.player.full_name
        return f"{self.new_family_name}, {self.new_given_names}" if self.new_given_names else self.new_family_name


from players.fide.models import FideListEntry  # noqa: E402, F401  (the FIDE list's table is this app's)
