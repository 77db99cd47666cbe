"""The daily e-mail digest of mobile games, for the accounts that ask for it on "My phones and chats":
the open games where one of his players is on move, with the time left to the next control and the
opponent, and the games finished since the previous digest. Nothing is mailed when there is nothing
to say. Run once a day by beat (play.tasks.send_digests at PLAY_DIGEST_HOUR, UTC) or by hand
(`manage.py play_digest [--dry-run]`); an account mailed less than MIN_GAP ago is skipped, so a
retried task or a second run the same day sends nothing more.
"""

from __future__ import annotations

import datetime
import logging
from dataclasses import dataclass, field

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from play import selectors
from play.channels import identities
from play.channels.linking import site_name
from play.models import Channel, Color, DigestSubscription, MobileGame
from play.rules import clock
from play.rules.texts import duration
from players.selectors import linked_players

logger = logging.getLogger("play.digest")  # the name it had before the channels room

MIN_GAP = datetime.timedelta(hours=20)
FIRST_WINDOW = datetime.timedelta(days=1)  # finished games the first digest looks back on


@dataclass
class Line:
    """One game in the digest, in the words the mail shows."""

    code: str
    url: str
    player: str
    color: str
    opponent: str
    move: int | None = None
    left: str | None = None
    flag: bool = False
    result: str | None = None
    termination: str | None = None


@dataclass
class Digest:
    user: object
    since: datetime.datetime
    now: datetime.datetime
    on_move: list[Line] = field(default_factory=list)
    finished: list[Line] = field(default_factory=list)
    several_players: bool = False

    @property
    def empty(self) -> bool:
        return not self.on_move and not self.finished

    @property
    def subject(self) -> str:
        if self.on_move:
            count = len(self.on_move)
            return ngettext(
                "%(site)s: your move in %(count)s game", "%(site)s: your move in %(count)s games", count
            ) % {
                "site": site_name(),
                "count": count,
            }
        return _("%(site)s: your mobile games") % {"site": site_name()}


@dataclass(frozen=True)
class Outcome:
    """What a run did for one account: "sent", "would send" (dry run), "nothing to say",
    "already sent" (within MIN_GAP) or "failed"; the digest when one was made."""

    user: object
    status: str
    digest: Digest | None = None
    text: str = ""


def _url(game: MobileGame) -> str:
    return f"{settings.SITE_URL}{game.get_absolute_url()}"


def digest_of(user, *, now: datetime.datetime, since: datetime.datetime) -> Digest:
    """What the digest of `user` says at `now`: his games on move (the order of "My games": the one
    waiting longest first) and those finished in (since, now]."""
    players = linked_players(user)
    digest = Digest(user=user, since=since, now=now, several_players=len(players) > 1)
    if not players:
        return digest
    for row in selectors.my_games(user, now=now)["on_move"]:
        digest.on_move.append(
            Line(
                code=row.game.code, url=_url(row.game), player=row.game.player_of(row.color).full_name,
                color=row.color, opponent=row.opponent.full_name, move=row.game.plies // 2 + 1,
                left=duration(row.left), flag=row.left < 0,
            )
        )  # fmt: skip
    mine = {p.pk for p in players}
    finished = (
        MobileGame.objects.filter(Q(white_id__in=mine) | Q(black_id__in=mine))
        .filter(status=MobileGame.Status.FINISHED, finished_at__gt=since, finished_at__lte=now)
        .select_related("white", "black")
        .defer("state")
        .order_by("finished_at", "pk")
    )
    for game in finished:
        color = Color.WHITE if game.white_id in mine else Color.BLACK
        digest.finished.append(
            Line(
                code=game.code, url=_url(game), player=game.player_of(color).full_name, color=color,
                opponent=game.player_of(clock.opponent(color)).full_name, result=game.result,
                termination=game.termination,
            )
        )  # fmt: skip
    return digest


def digest_mail(digest: Digest) -> EmailMultiAlternatives:
    # In the federation's message language, as the games' messages by e-mail (no request here).
    with translation.override(identities.message_language(Channel.EMAIL)):
        return _digest_mail(digest)


def _digest_mail(digest: Digest) -> EmailMultiAlternatives:
    context = {
        "digest": digest,
        "site_name": site_name(),
        "settings_url": f"{settings.SITE_URL}{reverse('play:channels')}",
        "mine_url": f"{settings.SITE_URL}{reverse('play:mine')}",
    }
    message = EmailMultiAlternatives(
        subject=digest.subject,
        body=render_to_string("play/digest_email.txt", context),
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[digest.user.email],
    )
    message.attach_alternative(render_to_string("play/digest_email.html", context), "text/html")
    return message


def digest_send(*, now: datetime.datetime | None = None, dry_run: bool = False) -> list[Outcome]:
    """One digest to every account that asked for it and has an e-mail address. A dry run mails
    nothing and changes nothing."""
    now = clock.whole_second(now or timezone.now())
    subscribers = (
        DigestSubscription.objects.filter(enabled=True, user__is_active=True)
        .exclude(user__email="")
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    return [outcome for pk in list(subscribers) if (outcome := _send_one(pk, now, dry_run)) is not None]


def _send_one(pk: int, now: datetime.datetime, dry_run: bool) -> Outcome | None:
    try:
        with transaction.atomic():
            # Locked while it is mailed: two runs at once mail each account once.
            sub = (
                DigestSubscription.objects.select_for_update(skip_locked=True, of=("self",))
                .select_related("user")
                .filter(pk=pk, enabled=True)
                .first()
            )
            if sub is None:
                return None
            if sub.last_sent_at is not None and now - sub.last_sent_at < MIN_GAP:
                return Outcome(sub.user, "already sent")
            digest = digest_of(sub.user, now=now, since=sub.last_sent_at or now - FIRST_WINDOW)
            if digest.empty:
                return Outcome(sub.user, "nothing to say", digest)
            message = digest_mail(digest)
            if dry_run:
                return Outcome(sub.user, "would send", digest, message.body)
            message.send()
            sub.last_sent_at = now
            sub.save(update_fields=["last_sent_at"])
            return Outcome(sub.user, "sent", digest, message.body)
    except Exception:  # one account's failing mail must not stop the others' digests
        logger.exception("mobile-chess digest for subscription %s failed", pk)
        return Outcome(None, "failed")


def digest_set(*, user, enabled: bool) -> DigestSubscription:
    """The account's choice, from its page."""
    sub, _ = DigestSubscription.objects.update_or_create(user=user, defaults={"enabled": enabled})
    return sub
