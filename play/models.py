"""Mobile chess: events, entries, games and the continuous record of every transmission.

A game's whole state is the pure machine's value (play/rules/game.py), stored on the row as a
snapshot so a move costs one row read and one write, not a replay. The continuous record
(`Transmission`) is the source of truth: every inbound message and TD ruling is in it, in order,
and `play.state.rebuild` derives the same value from it (a test checks both agree). When the
rules change shape (`RULES_VERSION`), snapshots are rebuilt from the record instead of trusted.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

DEFAULT_CONTROL = "10800/30+1200/10"


class Color(models.TextChoices):
    WHITE = "white", _("White")
    BLACK = "black", _("Black")


class Channel(models.TextChoices):
    WEB = "web", _("web")
    CONSOLE = "console", _("console")
    SMS = "sms", _("SMS")
    TELEGRAM = "telegram", _("Telegram")
    # Outbound only: how a player with no other working channel hears of an outage (play/channels/outages.py).
    EMAIL = "email", _("e-mail")


class MobileEvent(models.Model):
    """An event of games played by messages, run by a Tournament Director (rule 1)."""

    class Pairing(models.TextChoices):
        ALL_PLAY_ALL = "all", _("all-play-all (every game starts at the event's start)")
        TD_ADDS = "td", _("games the TD adds")

    code = models.SlugField(_("code"), max_length=24, unique=True)
    name = models.CharField(_("name"), max_length=200)
    td = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.PROTECT, related_name="directed_events", verbose_name=_("Tournament Director")
    )
    appeals_chair = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        models.PROTECT,
        null=True,
        blank=True,
        related_name="chaired_events",
        verbose_name=_("Appeals Commission chairman"),
    )
    control = models.CharField(_("time control"), max_length=40, default=DEFAULT_CONTROL)
    norm = models.PositiveIntegerField(_("transmission norm, seconds"), default=60)
    weight = models.PositiveIntegerField(_("Mchess weight W"), default=250)
    referee_control = models.BooleanField(_("direct referee control"), default=False)
    leave_days = models.PositiveSmallIntegerField(_("leave days per player"), default=0)  # 0: no leave (Leave)
    pairing = models.CharField(_("pairing"), max_length=3, choices=Pairing.choices, default=Pairing.ALL_PLAY_ALL)
    start = models.DateTimeField(_("start"))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+", editable=False
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("-start", "pk")
        verbose_name = _("mobile event")
        verbose_name_plural = _("mobile events")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("play:event", args=[self.code])


class Entry(models.Model):
    """A player in an event; under rule 1d, the referee who controls his play."""

    event = models.ForeignKey(MobileEvent, models.CASCADE, related_name="entries")
    player = models.ForeignKey("players.Player", models.PROTECT, related_name="mobile_entries")
    referee = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+", verbose_name=_("referee")
    )

    class Meta:
        constraints = [models.UniqueConstraint(fields=["event", "player"], name="play_entry_once_per_event")]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")

    def __str__(self) -> str:
        return f"{self.player} in {self.event}"


class MobileGame(models.Model):
    """One game. `state` is the machine's snapshot; the other columns are what pages, lists and
    the sweeper read without unpickling it (kept in step by play.services on every save)."""

    class Status(models.TextChoices):
        OPEN = "open", _("in progress")
        FINISHED = "finished", _("finished")
        ANNULLED = "annulled", _("annulled")

    code = models.CharField(_("code"), max_length=24, unique=True)
    event = models.ForeignKey(MobileEvent, models.PROTECT, null=True, blank=True, related_name="games")
    white = models.ForeignKey("players.Player", models.PROTECT, related_name="mobile_white")
    black = models.ForeignKey("players.Player", models.PROTECT, related_name="mobile_black")
    start = models.DateTimeField(_("start"))
    control = models.CharField(_("time control"), max_length=40, default=DEFAULT_CONTROL)
    norm = models.PositiveIntegerField(_("transmission norm, seconds"), default=60)
    weight = models.PositiveIntegerField(_("Mchess weight W"), default=250)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    result = models.CharField(max_length=7, default="*")
    termination = models.CharField(max_length=40, default="in progress")
    finished_at = models.DateTimeField(null=True, blank=True)
    on_move = models.CharField(max_length=5, choices=Color.choices, blank=True, default=Color.WHITE)
    plies = models.PositiveIntegerField(default=0)
    # When the sweeper must look at the game again (flag, reminder, protest window); indexed
    # so one pass finds every due game without touching the others.
    next_due = models.DateTimeField(null=True, blank=True)
    # The moment the player on move was put on move (his receipt), for "My games" ordering.
    on_move_since = models.DateTimeField(null=True, blank=True)
    white_channel = models.CharField(max_length=8, choices=Channel.choices, default=Channel.WEB)
    black_channel = models.CharField(max_length=8, choices=Channel.choices, default=Channel.WEB)
    state = models.BinaryField(editable=False)
    rules_version = models.PositiveIntegerField(default=0, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("-start", "pk")
        indexes = [
            models.Index(fields=["next_due"], condition=Q(next_due__isnull=False), name="play_game_due"),
            models.Index(fields=["status", "finished_at"], name="play_game_status_finished"),
        ]
        constraints = [
            models.CheckConstraint(condition=~Q(white=models.F("black")), name="play_game_two_players"),
            models.CheckConstraint(
                condition=Q(status="open", finished_at__isnull=True) | ~Q(status="open"),
                name="play_open_game_not_finished",
            ),
        ]
        verbose_name = _("mobile game")
        verbose_name_plural = _("mobile games")

    def __str__(self) -> str:
        return f"#{self.code} {self.white} – {self.black}"

    def get_absolute_url(self) -> str:
        return reverse("play:game", args=[self.code])

    @property
    def rated(self) -> bool:
        """Rated in Mchess (spec, Rating): finished, not annulled, and each player moved."""
        return self.status == self.Status.FINISHED and self.finished_at is not None and self.plies >= 2

    def color_of(self, player_id: int) -> str | None:
        if player_id == self.white_id:
            return Color.WHITE
        if player_id == self.black_id:
            return Color.BLACK
        return None

    def player_of(self, color: str):
        return self.white if color == Color.WHITE else self.black


class ChannelAddress(models.Model):
    """A player's identity on a channel (rule 5c): a phone number, a Telegram chat. One per
    player per channel; a verified address is how an inbound message finds its sender."""

    player = models.ForeignKey("players.Player", models.CASCADE, related_name="channel_addresses")
    channel = models.CharField(max_length=8, choices=Channel.choices)
    address = models.CharField(max_length=64)
    verified_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["channel", "address"], name="play_address_unique"),
            models.UniqueConstraint(fields=["player", "channel"], name="play_address_one_per_channel"),
        ]

    def __str__(self) -> str:
        return f"{self.channel}:{self.address}"


class Transmission(models.Model):
    """One entry of a game's continuous record: a message in or out, its text unchanged. Outbound
    rows are also the outbox: written in the move's transaction, delivered after commit."""

    class Direction(models.TextChoices):
        IN = "in", _("received")
        OUT = "out", _("sent")
        RULING = "ruling", _("TD ruling")

    class Delivery(models.TextChoices):
        PENDING = "pending", _("pending")
        SENT = "sent", _("sent")
        FAILED = "failed", _("failed")
        NONE = "", _("not applicable")

    # An inbound message that named no game it could reach (several open games and no tag) is
    # kept with its player only, so the record of what he sent is still complete.
    game = models.ForeignKey(MobileGame, models.CASCADE, null=True, blank=True, related_name="transmissions")
    player = models.ForeignKey("players.Player", models.SET_NULL, null=True, blank=True, related_name="+")
    direction = models.CharField(max_length=6, choices=Direction.choices)
    channel = models.CharField(max_length=8, choices=Channel.choices)
    party = models.CharField(max_length=5)  # white, black or td
    address = models.CharField(max_length=64, blank=True)
    kind = models.CharField(max_length=32)
    text = models.TextField()
    data = models.JSONField(default=dict, blank=True)
    at = models.DateTimeField()  # arrival (in), dispatch (out), the ruling's moment
    sent = models.DateTimeField(null=True, blank=True)  # the sending time a channel reported
    # NULL, not "", for "none": the uniqueness of inbound ids must not catch messages without one.
    external_id = models.CharField(max_length=128, null=True, blank=True)  # noqa: DJ001
    delivery = models.CharField(max_length=7, choices=Delivery.choices, blank=True, default="")
    attempts = models.PositiveSmallIntegerField(default=0)
    delivered_at = models.DateTimeField(null=True, blank=True)
    error = models.TextField(blank=True)
    # The channel's delivery reports on an outbound row, as received (evidence for staff; the clock
    # never reads them).
    delivery_reports = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ("id",)
        indexes = [
            models.Index(fields=["delivery"], condition=Q(delivery="pending"), name="play_outbox_pending"),
            models.Index(fields=["game", "direction", "id"], name="play_record_order"),
            # A channel's last successful delivery, which ends an outage (play/channels/outages.py), in one
            # index lookup; failed rows are few, and found without reading the rest.
            models.Index(
                fields=["channel", "delivered_at"],
                condition=Q(direction="out", delivery="sent", channel__in=("sms", "telegram")),
                name="play_channel_last_sent",
            ),
            models.Index(fields=["channel", "at"], condition=Q(delivery="failed"), name="play_outbox_failed"),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["channel", "external_id"],
                condition=Q(external_id__isnull=False, direction="in"),
                name="play_inbound_once",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.direction} {self.kind} {self.at:%Y-%m-%d %H:%M:%S}"


class ChannelOutage(models.Model):
    """A channel of the system's own that failed for longer than the transmission norm of the games
    waiting on it (rule 5e): opened by the outbox sweep, closed by the channel's next successful
    delivery. The TD sees it on his list and the game pages, so time can be credited."""

    channel = models.CharField(_("channel"), max_length=8, choices=Channel.choices)
    # The moment the first failing message was due to go out: from then on the games waited.
    started_at = models.DateTimeField(_("failing since"))
    detected_at = models.DateTimeField(_("detected at"))
    ended_at = models.DateTimeField(_("delivering again at"), null=True, blank=True)
    last_error = models.TextField(_("last error"), blank=True)
    games = models.ManyToManyField(MobileGame, related_name="outages", verbose_name=_("games affected"))
    # Player ids already told (one notice each per outage, not one per message); the TD is told
    # on each affected game once, which `games` records.
    notified = models.JSONField(default=list, blank=True, editable=False)

    class Meta:
        ordering = ("-started_at", "-pk")
        constraints = [
            models.UniqueConstraint(
                fields=["channel"], condition=Q(ended_at__isnull=True), name="play_one_open_outage_per_channel"
            ),
            models.CheckConstraint(
                condition=Q(ended_at__isnull=True) | Q(ended_at__gte=models.F("started_at")),
                name="play_outage_ends_after_start",
            ),
        ]
        verbose_name = _("channel outage")
        verbose_name_plural = _("channel outages")

    def __str__(self) -> str:
        return f"{self.channel} outage from {self.started_at:%Y-%m-%d %H:%M:%S}"

    @property
    def seconds(self) -> int | None:
        """How long the games waited: from the first failing message to the channel's recovery."""
        if self.ended_at is None:
            return None
        return int((self.ended_at - self.started_at).total_seconds())


class Challenge(models.Model):
    """A challenge game offered by one player to another outside events (spec, Who and what):
    played only when the opponent accepts; rated with W = 250, under the duty TD."""

    class Status(models.TextChoices):
        OPEN = "open", _("waiting for an answer")
        ACCEPTED = "accepted", _("accepted")
        DECLINED = "declined", _("declined")
        WITHDRAWN = "withdrawn", _("withdrawn")

    class Side(models.TextChoices):
        WHITE = "white", _("White")
        BLACK = "black", _("Black")
        RANDOM = "random", _("drawn by lot")

    challenger = models.ForeignKey("players.Player", models.CASCADE, related_name="challenges_made")
    opponent = models.ForeignKey("players.Player", models.CASCADE, related_name="challenges_received")
    side = models.CharField(_("challenger plays"), max_length=6, choices=Side.choices, default=Side.RANDOM)
    control = models.CharField(_("time control"), max_length=40, default=DEFAULT_CONTROL)
    norm = models.PositiveIntegerField(_("transmission norm, seconds"), default=60)
    note = models.CharField(_("message to the opponent"), max_length=300, blank=True)
    status = models.CharField(max_length=9, choices=Status.choices, default=Status.OPEN)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, models.SET_NULL, null=True, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    answered_by = models.ForeignKey(settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+")
    answered_at = models.DateTimeField(null=True, blank=True)
    game = models.OneToOneField(MobileGame, models.SET_NULL, null=True, blank=True, related_name="challenge")

    class Meta:
        ordering = ("-created_at", "-pk")
        constraints = [
            models.CheckConstraint(condition=~Q(challenger=models.F("opponent")), name="play_challenge_two_players"),
            models.UniqueConstraint(
                fields=["challenger", "opponent"], condition=Q(status="open"), name="play_one_open_challenge_per_pair"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.challenger} → {self.opponent} ({self.status})"


class VerificationCode(models.Model):
    """A one-time code that proves a player holds an address (rule 5c: a number is verified before
    it is used, and verified again when it changes). For SMS it is sent to the number and typed back
    on the site; for Telegram the site shows it and the player sends `/start CODE` to the bot from
    the chat to be linked. Only a keyed hash of the code is kept."""

    player = models.ForeignKey("players.Player", models.CASCADE, related_name="verification_codes")
    channel = models.CharField(max_length=8, choices=Channel.choices)
    # The number the code was sent to (SMS); blank for Telegram, where the chat is learnt on use.
    address = models.CharField(max_length=64, blank=True)
    code_hash = models.CharField(max_length=64)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+")
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    wrong_tries = models.PositiveSmallIntegerField(default=0)
    used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at", "-pk")
        indexes = [
            models.Index(fields=["channel", "address", "created_at"], name="play_code_rate"),
            models.Index(fields=["channel", "code_hash"], name="play_code_lookup"),
        ]

    def __str__(self) -> str:
        return f"{self.channel} code for {self.player_id}"


class DigestSubscription(models.Model):
    """A user's choice of the daily e-mail digest of his games (play/channels/digest.py)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, models.CASCADE, related_name="play_digest")
    enabled = models.BooleanField(_("daily e-mail digest"), default=False)
    # The last digest mailed: finished games are listed from here, and a second run the same day
    # (a retried task, the command by hand) sends nothing more.
    last_sent_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"digest of {self.user_id} ({'on' if self.enabled else 'off'})"


class Decision(models.Model):
    """A decision of an event's TD (rules 3, 5, 7, 10a, 10b): who, when, what and why, sent to
    the players and open to appeal until `appealable_until` (rule 10c). What it changed in the
    games is in their continuous records (rulings); `effects` keeps, per game, what was there
    before, so an appeal can reverse it. Never deleted."""

    class Kind(models.TextChoices):
        CLAIM = "claim", _("time claim decided")
        CREDIT = "credit", _("credit time")
        CHARGE = "charge", _("charge time")
        PENALTY = "penalty", _("penalty (time charged)")
        SCORE = "score", _("score a game")
        DISQUALIFY = "disqualify", _("disqualify a player")
        WITHDRAW = "withdraw", _("withdrawal")
        OTHER = "other", _("other ruling")

    event = models.ForeignKey(MobileEvent, models.PROTECT, null=True, blank=True, related_name="decisions")
    game = models.ForeignKey(MobileGame, models.PROTECT, null=True, blank=True, related_name="decisions")
    player = models.ForeignKey("players.Player", models.PROTECT, null=True, blank=True, related_name="+")
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    seconds = models.PositiveIntegerField(_("seconds"), null=True, blank=True)
    all_games = models.BooleanField(_("in all his games"), default=False)
    # A scored result; upheld / dismissed for a claim; annul / adjudicate / losses for a withdrawal.
    result = models.CharField(_("result"), max_length=10, blank=True)
    text = models.TextField(_("why"))
    by = models.ForeignKey(settings.AUTH_USER_MODEL, models.PROTECT, related_name="+", verbose_name=_("by"))
    at = models.DateTimeField(_("at"))
    appealable_until = models.DateTimeField(_("appeal until"))
    # [{"game": id, "color": ..., "before": [result, termination] | None, "against": ..., "ply": ...}]
    effects = models.JSONField(default=list, blank=True, editable=False)
    # The desk item it answers (a DELAY, FAILURE or DISPUTE notice), if any.
    answers = models.ForeignKey("Transmission", models.PROTECT, null=True, blank=True, related_name="+", editable=False)

    class Meta:
        ordering = ("-at", "-pk")
        verbose_name = _("TD decision")
        verbose_name_plural = _("TD decisions")

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.at:%Y-%m-%d %H:%M:%S}"


class Appeal(models.Model):
    """An appeal of a TD decision (rule 10c) as the Appeals Commission chairman ruled it: the
    player's APPEAL message (from any channel, or the game page, which sends one) is in the game's
    record; this row is the final ruling on it."""

    decision = models.ForeignKey(Decision, models.PROTECT, related_name="appeals")
    message = models.OneToOneField(Transmission, models.PROTECT, related_name="appeal")
    player = models.ForeignKey("players.Player", models.PROTECT, related_name="+")
    reversed = models.BooleanField(_("decision reversed"))
    reasons = models.TextField(_("reasons"))
    by = models.ForeignKey(settings.AUTH_USER_MODEL, models.PROTECT, related_name="+")
    at = models.DateTimeField()

    class Meta:
        ordering = ("-at", "-pk")
        verbose_name = _("appeal ruling")
        verbose_name_plural = _("appeal rulings")

    def __str__(self) -> str:
        return f"appeal of {self.decision}: {'reversed' if self.reversed else 'upheld'}"


class DeskMark(models.Model):
    """An item of the TD's desk (a DELAY, FAILURE, DISPUTE or protest notice) marked handled."""

    message = models.OneToOneField(Transmission, models.PROTECT, related_name="desk_mark")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, models.PROTECT, related_name="+")
    at = models.DateTimeField()
    note = models.CharField(_("note"), max_length=500, blank=True)

    def __str__(self) -> str:
        return f"handled {self.message_id}"


class Enquiry(models.Model):
    """The TD's question to a player with a deadline (rule 5b), sent on the channel of one of his
    games. Any message of his in the event's games after it answers it; one unanswered at its
    deadline is flagged on the desk, and the TD may deem him withdrawn (rule 8)."""

    event = models.ForeignKey(MobileEvent, models.PROTECT, related_name="enquiries")
    player = models.ForeignKey("players.Player", models.PROTECT, related_name="+")
    game = models.ForeignKey(MobileGame, models.PROTECT, related_name="+")  # the game it was sent on
    text = models.TextField(_("question"))
    deadline = models.DateTimeField(_("answer by"))
    by = models.ForeignKey(settings.AUTH_USER_MODEL, models.PROTECT, related_name="+")
    at = models.DateTimeField()
    closed_at = models.DateTimeField(null=True, blank=True)  # handled by the TD (answered, or acted on)

    class Meta:
        ordering = ("deadline", "pk")
        verbose_name = _("enquiry")
        verbose_name_plural = _("enquiries")

    def __str__(self) -> str:
        return f"enquiry to {self.player} by {self.deadline:%Y-%m-%d %H:%M}"


class Leave(models.Model):
    """A player's leave in an event (beyond the draft, as ICCF and chess.com offer it): he asks
    for whole UTC days, at most the event's `leave_days` in all; the TD grants or refuses it on
    his desk. Granted, every unfinished game of his in the event stands still from the first
    day's 00:00 UTC to the day after the last (a 'pause' ruling in each game's record), and both
    players of each game are told."""

    class Status(models.TextChoices):
        REQUESTED = "requested", _("requested")
        GRANTED = "granted", _("granted")
        REFUSED = "refused", _("refused")

    event = models.ForeignKey(MobileEvent, models.PROTECT, related_name="leaves")
    player = models.ForeignKey("players.Player", models.PROTECT, related_name="+")
    first_day = models.DateField(_("from"))
    last_day = models.DateField(_("to"))
    text = models.CharField(_("reason"), max_length=500, blank=True)
    requested_at = models.DateTimeField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.REQUESTED)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, models.PROTECT, null=True, blank=True, related_name="+")
    decided_at = models.DateTimeField(null=True, blank=True)
    reason = models.CharField(_("TD's reason"), max_length=500, blank=True)

    class Meta:
        ordering = ("requested_at", "pk")
        verbose_name = _("leave")
        verbose_name_plural = _("leaves")

    def __str__(self) -> str:
        return f"leave of {self.player} {self.first_day}–{self.last_day} ({self.status})"

    @property
    def days(self) -> int:
        return (self.last_day - self.first_day).days + 1


# The computer opponents' tables live with their code (play/computer/models.py); imported here so
# Django finds them as the play app's models.
from play.computer.models import THINK_SECONDS, CalibrationGame, ComputerLevel  # noqa: E402, F401
