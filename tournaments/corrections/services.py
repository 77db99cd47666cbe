"""An admin's corrections of the history: withdrawing a tournament, correcting a game result,
merging two player records, editing a birth date. Each is audited, and the history is re-rated
from the first tournament it touches (queued, so the page answers at once).

`preview_birth_date` shows what a birth date change would do before it is made: the re-rating
runs inside a transaction that is then rolled back.
"""

from __future__ import annotations

import datetime

from django.db import transaction
from django.db.models import Min
from django.utils.translation import gettext as _

from accounts import audit
from players.models import FideImportApplication, Follow, Player
from ratings.models import (
    InactivityPenalty,
    PlayerRating,
    ProvisionalGame,
    RatingChange,
    RatingOverride,
    RatingRequest,
)
from toolkit import pagecache
from tournaments.models import Game, Participant, Tournament


class CorrectionError(Exception):
    pass


def _rerate_from(day: datetime.date | None, reason: str) -> None:
    """A durable request in this transaction: the correction and its re-rating commit together."""
    from ratings.services import rating_request

    # The correction itself shows at once (a merged record, a birth date); its re-rating bumps again.
    pagecache.bump_on_commit()
    rating_request(reason=reason, since=day)


def tournament_withdraw(*, tournament: Tournament, admin, reason: str) -> Tournament:
    """Take a tournament out of the history: its results go, the later tournaments are re-rated."""
    if not reason.strip():
        raise CorrectionError(_("Say why the tournament is withdrawn."))
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if tournament.status == Tournament.Status.WITHDRAWN:
            raise CorrectionError(_("The tournament is withdrawn already."))
        before = {"status": tournament.status}
        tournament.status = Tournament.Status.WITHDRAWN
        tournament.status_detail = reason.strip()
        tournament.save(update_fields=["status", "status_detail", "updated_at"])
        audit.record(
            actor=admin,
            action="tournament_withdrawn",
            target=tournament,
            summary=f"withdrew {tournament}",
            before=before,
            after={"status": tournament.status},
            reason=reason,
        )
        # Replaying from its place deletes its results (they are at or after the key) and rates the rest.
        _rerate_from(tournament.end_date, RatingRequest.Reason.WITHDRAW)
    return tournament


def game_correct(*, game: Game, admin, result: str, kind: str, reason: str) -> Game:
    """Correct one game's result; the tournament and everything after it are re-rated."""
    if result not in Game.Result.values or kind not in Game.Kind.values:
        raise CorrectionError(_("Unknown result or kind."))
    with transaction.atomic():
        game = (
            Game.objects.select_for_update(of=("self",)).select_related("tournament", "white", "black").get(pk=game.pk)
        )
        before = {"result": game.result, "kind": game.kind}
        game.result, game.kind = result, kind
        game.full_clean(exclude=["tournament", "white", "black"])
        game.save(update_fields=["result", "kind"])
        audit.record(
            actor=admin,
            action="game_corrected",
            target=game,
            summary=f"corrected round {game.round} of {game.tournament}: {game.white} – {game.black}",
            before=before,
            after={"result": result, "kind": kind},
            reason=reason,
        )
        _rerate_from(game.tournament.end_date, RatingRequest.Reason.CORRECTION)
    return game


def players_merge(*, keep: Player, duplicate: Player, admin, reason: str) -> Player:
    """Move the duplicate's tournaments, games and applications to the record that is kept.

    The duplicate stays, merged, so that old links lead to the kept record; the ratings of both are
    recomputed from the duplicate's first tournament.
    """
    if keep.pk == duplicate.pk:
        raise CorrectionError(_("A player cannot be merged into himself."))
    with transaction.atomic():
        keep = Player.objects.select_for_update().get(pk=keep.pk)
        duplicate = Player.objects.select_for_update().get(pk=duplicate.pk)
        if duplicate.merged_into_id or keep.merged_into_id:
            raise CorrectionError(_("One of the two records is merged already."))
        together = set(Participant.objects.filter(player=keep).values_list("tournament_id", flat=True)) & set(
            Participant.objects.filter(player=duplicate).values_list("tournament_id", flat=True)
        )
        if together:
            names = ", ".join(str(t) for t in Tournament.objects.filter(pk__in=together)[:3])
            raise CorrectionError(
                _("Both records played in %(tournaments)s: they are two players.") % {"tournaments": names}
            )
        if keep.fide_id and duplicate.fide_id and keep.fide_id != duplicate.fide_id:
            raise CorrectionError(_("The two records have different FIDE ids."))
        first = Tournament.objects.filter(participants__player=duplicate).aggregate(first=Min("end_date"))["first"]
        counts = {
            "participations": Participant.objects.filter(player=duplicate).update(player=keep),
            "games_white": Game.objects.filter(white=duplicate).update(white=keep),
            "games_black": Game.objects.filter(black=duplicate).update(black=keep),
            "applications": FideImportApplication.objects.filter(player=duplicate).update(player=keep),
            "overrides": RatingOverride.objects.filter(player=duplicate).update(player=keep),
            # Who followed either record follows the kept one, once.
            "follows": Follow.objects.filter(player=duplicate)
            .exclude(user__in=Follow.objects.filter(player=keep).values("user"))
            .update(player=keep),
        }
        Follow.objects.filter(player=duplicate).delete()
        for model in (RatingChange, PlayerRating, ProvisionalGame, InactivityPenalty):
            model.objects.filter(player=duplicate).delete()
        ProvisionalGame.objects.filter(opponent=duplicate).update(opponent=keep)
        fide_id = duplicate.fide_id
        duplicate.fide_id = None
        duplicate.merged_into = keep
        duplicate.save()
        for field in ("fide_id", "birth_date", "club_id", "region_id", "country", "title"):
            value = fide_id if field == "fide_id" else getattr(duplicate, field)
            if value and not getattr(keep, field):
                setattr(keep, field, value)
                if field == "birth_date":
                    keep.birth_precision = duplicate.birth_precision
        keep.save()
        audit.record(
            actor=admin,
            action="players_merged",
            target=keep,
            summary=f"merged {duplicate.federation_id} {duplicate} into {keep.federation_id} {keep}",
            before={"duplicate": duplicate.federation_id},
            after=counts,
            reason=reason,
        )
        _rerate_from(first, RatingRequest.Reason.MERGE)
    return keep


def _birth_date_change(player: Player, birth_date, precision: str) -> tuple[dict, datetime.date | None]:
    before = {
        "birth_date": player.birth_date.isoformat() if player.birth_date else None,
        "precision": player.birth_precision,
    }
    player.birth_date, player.birth_precision = birth_date, precision
    player.full_clean(exclude=["federation_id", "name_key", "latin_key"], validate_unique=False)
    player.save()
    # Ages count in the tournaments he played and in those of his opponents' calculations: the same ones.
    first = Tournament.objects.filter(participants__player=player).aggregate(first=Min("end_date"))["first"]
    return before, first


def preview_birth_date(*, player: Player, birth_date, precision: str) -> list[dict]:
    """The current ratings that would change, without changing anything."""
    from ratings.services import rerate_since

    now = {
        (r.player_id, r.system): r.rating
        for r in PlayerRating.objects.exclude(system="gcr").filter(rating__isnull=False)
    }
    differences = []

    class Rollback(Exception):
        pass

    try:
        with transaction.atomic():
            _, first = _birth_date_change(Player.objects.get(pk=player.pk), birth_date, precision)
            if first is not None:
                rerate_since(since=first)
            after = PlayerRating.objects.exclude(system="gcr").filter(rating__isnull=False).select_related("player")
            for rating in after:
                old = now.get((rating.player_id, rating.system))
                if old != rating.rating:
                    differences.append(
                        {"player": rating.player, "system": rating.system, "before": old, "after": rating.rating}
                    )
            raise Rollback
    except Rollback:
        pass
    return sorted(differences, key=lambda d: (d["player"].pk != player.pk, d["player"].full_name, d["system"]))


def birth_date_edit(*, player: Player, birth_date, precision: str, admin, reason: str) -> Player:
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        before, first = _birth_date_change(player, birth_date, precision)
        audit.record(
            actor=admin,
            action="birth_date_edited",
            target=player,
            summary=f"birth date of {player.federation_id} {player}",
            before=before,
            after={"birth_date": birth_date.isoformat() if birth_date else None, "precision": precision},
            reason=reason,
        )
        if first is not None:
            _rerate_from(first, RatingRequest.Reason.BIRTH_DATE)
    return player
