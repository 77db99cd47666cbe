"""Mail the followers of a newly rated tournament's players how they did (once per tournament)."""

from __future__ import annotations

import datetime
import logging
from decimal import Decimal

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from players.models import Follow
from ratings.models import RatingChange, System
from tournaments.models import Game, Participant, Tournament

logger = logging.getLogger(__name__)


def _points(value: Decimal) -> str:
    """Chess notation: 4, 4½, ½."""
    whole, half = divmod(value, 1)
    if not half:
        return str(int(whole))
    return f"{int(whole) or ''}½"


def _rating_move(change) -> str:
    after = f"{change.rating_after}{'*' if change.provisional_after else ''}"
    if change.rating_before is None:
        return _("first rating %(rating)s") % {"rating": after}
    delta = change.rating_after - change.rating_before
    return f"{change.rating_before} → {after} ({delta:+d})"


# A tournament that ended longer ago than this is history by the time it is rated (an old file
# imported late): its players' followers are not mailed about it.
NOTICE_DAYS = 60


def followers_notify_many(*, tournament_ids: list[int]) -> int:
    """followers_notify for newly rated tournaments; return the mails sent.

    Most tournaments have no followed player, and a re-rating of the whole history can rate ten
    thousand for the first time: those are marked in one query, not one transaction each.
    """
    fresh = Tournament.objects.filter(
        pk__in=tournament_ids, status=Tournament.Status.RATED, followers_notified_at__isnull=True
    )
    recent = fresh.filter(end_date__gte=timezone.localdate() - datetime.timedelta(days=NOTICE_DAYS))
    followed = set(
        Participant.objects.filter(tournament__in=recent, player__followers__notify=True)
        .order_by()
        .values_list("tournament_id", flat=True)
        .distinct()
    )
    fresh.exclude(pk__in=followed).update(followers_notified_at=timezone.now())
    return sum(followers_notify(tournament_id=tournament_id) for tournament_id in sorted(followed))


def followers_notify(*, tournament_id: int) -> int:
    """Tell the followers of a newly rated tournament's players how they did; return the mails sent.

    Once per tournament: the first rating run that rates it marks it, and later re-ratings (a late
    upload, a corrected result) do not mail again. A mail that cannot be sent is logged and skipped,
    never retried: a lost notice is better than the same notice twice.
    """
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if tournament is None or tournament.status != Tournament.Status.RATED or tournament.followers_notified_at:
            return 0
        tournament.followers_notified_at = timezone.now()
        tournament.save(update_fields=["followers_notified_at"])
        follows = (
            Follow.objects.filter(notify=True, player__participations__tournament=tournament, user__is_active=True)
            .exclude(user__email="")
            .select_related("user", "player")
            .order_by("user_id", "player__family_name", "player__given_names")
        )
        by_user: dict[int, list[Follow]] = {}
        for follow in follows:
            by_user.setdefault(follow.user_id, []).append(follow)
        if not by_user:
            return 0
        players = {follow.player_id for group in by_user.values() for follow in group}
        ranks = dict(
            Participant.objects.filter(tournament=tournament, player_id__in=players).values_list("player_id", "rank")
        )
        points = dict.fromkeys(players, Decimal(0))
        for game in Game.objects.filter(Q(white_id__in=players) | Q(black_id__in=players), tournament=tournament):
            if game.white_id in points:
                points[game.white_id] += game.white_points
            if game.black_id in points:
                points[game.black_id] += game.black_points
        changes: dict[tuple[int, str], RatingChange] = {
            (c.player_id, c.system): c
            for c in RatingChange.objects.filter(tournament=tournament, player_id__in=players)
        }
        messages = []
        for group in by_user.values():
            lines = []
            for follow in group:
                line = f"{follow.player.full_name}: "
                line += _("%(points)s points") % {"points": _points(points[follow.player_id])}
                if ranks.get(follow.player_id):
                    line += ", " + _("place %(rank)s") % {"rank": ranks[follow.player_id]}
                for system in (System.ORR, System.MCHESS, System.PLAYCHESS):
                    change = changes.get((follow.player_id, system))
                    if change is not None and change.rating_after is not None:
                        line += f"\n  {System(system).label}: {_rating_move(change)}"
                line += f"\n  {settings.SITE_URL}{follow.player.get_absolute_url()}"
                lines.append(line)
            body = _("%(tournament)s (%(dates)s) is rated.") % {
                "tournament": tournament.name,
                "dates": f"{tournament.start_date:%Y-%m-%d} – {tournament.end_date:%Y-%m-%d}",
            }
            body += "\n\n" + "\n\n".join(lines)
            body += "\n\n" + _("The full report: %(link)s") % {
                "link": f"{settings.SITE_URL}{tournament.get_absolute_url()}"
            }
            body += "\n\n" + _("You follow these players; stop at %(link)s") % {
                "link": f"{settings.SITE_URL}{reverse('players:following')}"
            }
            messages.append(
                (
                    _("Rated: %(tournament)s") % {"tournament": tournament.name},
                    body,
                    settings.DEFAULT_FROM_EMAIL,
                    [group[0].user.email],
                )
            )
    sent = 0
    for message in messages:
        try:
            sent += send_mail(*message)
        except OSError:
            logger.exception("could not mail the followers of tournament %s", tournament_id)
    return sent


def on_tournaments_rated(sender, *, tournament_ids: list[int], **kwargs) -> None:
    followers_notify_many(tournament_ids=tournament_ids)
