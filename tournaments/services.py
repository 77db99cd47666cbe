"""Writes for tournaments: uploads, their confirmation and cancellation.

The flow: `upload_create` reads and checks a file and stores it with its preview
(nothing is rated, no player or tournament exists yet); the arbiter reviews it;
`tournament_confirm` saves the tournament, its participants and games in one
transaction, or `upload_cancel` removes every trace of the upload.
"""

from __future__ import annotations

import datetime
import functools
import hashlib
from dataclasses import dataclass
from decimal import Decimal

from django.conf import settings
from django.core.files.base import ContentFile
from django.db import transaction
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from players.fide.selectors import list_kind, listed_ratings
from players.matching import MATCHED, NEW, Match, match_players
from players.models import Club, Player
from players.names import strip_invisible
from players.services import players_bulk_create
from ratings.models import RatingRequest
from ratings.opening.selectors import opening_date
from ratings.services import rating_request
from tournaments.importers.base import ERROR, RESULTS, ParsedFile, ParsedPlayer, Place, Problem, ResultFileError
from tournaments.importers.registry import read_result_file
from tournaments.models import Game, Participant, Tournament, Upload
from tournaments.tiebreaks.rules import NAMES as TIEBREAK_NAMES
from tournaments.uploads import replacement
from tournaments.uploads.errors import ConfirmError, PreviewOutdated, UploadRefused  # callers name them here too


def _saving_outdated_preview(function):
    @functools.wraps(function)
    def wrapper(*, upload: Upload, **kwargs):
        try:
            return function(upload=upload, **kwargs)
        except PreviewOutdated as outdated:
            Upload.objects.filter(pk=upload.pk, status=Upload.Status.PREVIEW).update(preview=outdated.preview)
            raise

    return wrapper


@dataclass
class Preview:
    parsed: ParsedFile
    matches: dict[int, Match]
    sha256: str
    size: int

    def as_dict(self) -> dict:
        return {
            "file": self.parsed.as_dict(),
            "matches": {str(number): match.as_dict() for number, match in self.matches.items()},
        }


def preview_build(*, file_name: str, data: bytes, user=None) -> Preview:
    """Read, check and match a result file without saving anything.

    Messages are kept as msgid and values (importers.base.Text): they are shown later, maybe to
    a reader of another language than the one active here."""
    # read_result_file strips the file name itself, and says so in the preview.
    clean_name = strip_invisible(file_name)[0]
    limit = settings.MAX_UPLOAD_BYTES
    if len(data) > limit:
        raise UploadRefused(
            [
                Problem.of(
                    ERROR,
                    gettext_noop("the file is %(size)s bytes; the limit is %(limit)s bytes"),
                    Place(clean_name),
                    "too_large",
                    size=len(data),
                    limit=limit,
                )
            ]
        )
    digest = hashlib.sha256(data).hexdigest()
    existing = Upload.objects.filter(sha256=digest).select_related("uploaded_by", "tournament").first()
    if existing is not None:
        raise UploadRefused([_duplicate_file(existing, clean_name, user)])
    return preview_read(file_name=file_name, data=data, digest=digest)


def preview_read(*, file_name: str, data: bytes, digest: str, progress=None) -> Preview:
    """Read and match a file whose size and SHA-256 were checked (`progress`: see read_result_file)."""
    clean_name = strip_invisible(file_name)[0]
    try:
        parsed = read_result_file(file_name, data, progress=progress)
    except ResultFileError as exc:
        raise UploadRefused(exc.problems) from None
    if parsed.errors:
        raise UploadRefused(parsed.errors)
    if parsed.content == RESULTS and not parsed.games:
        raise UploadRefused([Problem.of(ERROR, gettext_noop("the file has no games"), Place(clean_name), "no_games")])
    opening = opening_date()
    end = parsed.end_date or parsed.start_date
    if parsed.content == RESULTS and opening is not None and end is not None and end < opening:
        raise UploadRefused([_before_opening(clean_name, end, opening)])
    return Preview(parsed, match_players(parsed.players), digest, len(data))


def _before_opening(file_name: str, end: datetime.date, opening: datetime.date) -> Problem:
    """The site's history starts from its opening list: an earlier tournament has no place in it."""
    return Problem.of(
        ERROR,
        gettext_noop(
            "the tournament ends on %(end)s, before %(opening)s, the date of the opening list the ratings "
            "start from: its results are in that list already and cannot be rated again"
        ),
        Place(file_name),
        "before_opening_list",
        end=end.isoformat(),
        opening=opening.isoformat(),
    )


def _duplicate_file(existing: Upload, file_name: str, user) -> Problem:
    """Who uploaded a file and when is the uploader's business: another arbiter learns only that
    the federation has the file; the uploader (and whoever may manage his uploads) gets a link."""
    from tournaments.arbiters.permissions import can_manage_upload

    if user is None or not can_manage_upload(user, existing):
        return Problem.of(
            ERROR,
            gettext_noop("this very file is in the federation's records already"),
            Place(file_name),
            "duplicate_file",
        )
    if existing.status == Upload.Status.PREVIEW:
        link = reverse("arbiter:preview", args=[existing.pk])
    elif existing.tournament_id is not None:
        link = reverse("arbiter:tournament", args=[existing.tournament_id])
    else:
        link = reverse("arbiter:home")
    return Problem.of(
        ERROR,
        gettext_noop("this very file was uploaded already on %(date)s by %(user)s (upload %(id)s)"),
        Place(file_name),
        "duplicate_file",
        link=link,
        date=existing.uploaded_at.date().isoformat(),
        user=existing.uploaded_by.get_username(),
        id=existing.pk,
    )


def upload_create(*, user, file_name: str, data: bytes) -> Upload:
    """Check the file and store it with its preview; raises UploadRefused and saves nothing if it is bad."""
    preview = preview_build(file_name=file_name, data=data, user=user)
    with transaction.atomic():
        upload = Upload(
            original_name=preview.parsed.file_name[:255],
            sha256=preview.sha256,
            size=preview.size,
            format=preview.parsed.format,
            uploaded_by=user,
            preview=preview.as_dict(),
            problems=[p.as_dict() for p in preview.parsed.problems],
        )
        upload_store(upload, data)
    return upload


def upload_store(upload: Upload, data: bytes) -> None:
    """Write the file and save its row (inside the caller's transaction); a row that cannot be saved
    takes its file with it, so no private file is left without a record."""
    upload.file.save(f"{upload.sha256[:16]}.{upload.format}", ContentFile(data), save=False)
    try:
        upload.save()
    except Exception:
        upload.file.delete(save=False)
        raise


def upload_cancel(*, upload: Upload) -> None:
    """Forget an unconfirmed upload and its file: nothing remains."""
    if upload.status not in (Upload.Status.PREVIEW, Upload.Status.PARSING, Upload.Status.FAILED):
        raise ConfirmError([_("Only an upload that is still a preview can be cancelled.")])
    upload.file.delete(save=False)
    upload.delete()


@dataclass
class TournamentDetails:
    name: str
    start_date: datetime.date
    end_date: datetime.date
    rounds: int
    city: str = ""
    chief_arbiter_name: str = ""
    time_control: str = Tournament.TimeControl.CLASSICAL
    time_control_detail: str = ""
    fide_rated: bool = False
    mchess_weight: int | None = None
    rate_mchess: bool = True
    rate_playchess: bool = True


def details_from_file(file: dict, **overrides) -> TournamentDetails:
    """The tournament details a previewed file gives (name, city, dates, rounds, time control)."""
    start = datetime.date.fromisoformat(file["start_date"]) if file.get("start_date") else None
    end = datetime.date.fromisoformat(file["end_date"]) if file.get("end_date") else start
    values = {
        "name": file["name"],
        "city": file["city"],
        "chief_arbiter_name": file.get("chief_arbiter", "")[:200],
        "start_date": start,
        "end_date": end,
        "rounds": file["rounds"],
        "time_control_detail": file["time_control"][:100],
    }
    values.update({key: value for key, value in overrides.items() if value is not None})
    return TournamentDetails(**values)


def _parsed_players(preview: dict) -> list[ParsedPlayer]:
    players = []
    for data in preview["file"]["players"]:
        fields = {k: v for k, v in data.items() if k in ParsedPlayer.__dataclass_fields__ and k != "place"}
        if fields.get("birth_date"):
            fields["birth_date"] = datetime.date.fromisoformat(fields["birth_date"])
        if fields.get("points") is not None:
            fields["points"] = Decimal(fields["points"])
        players.append(ParsedPlayer(**fields))
    return players


def _resolve(upload: Upload, players: list[ParsedPlayer], choices: dict[int, int | None]) -> dict[int, int | None]:
    """Start number -> federation player id, or None for a new player. Checks the preview is still true."""
    seen = {int(number): match for number, match in upload.preview["matches"].items()}
    current = match_players(players)
    changed = [
        number
        for number, match in current.items()
        if seen.get(number, {}).get("status") != match.status
        or seen.get(number, {}).get("player_id") != match.player_id
    ]
    if changed:
        corrected = {**upload.preview, "matches": {str(number): match.as_dict() for number, match in current.items()}}
        raise PreviewOutdated(
            [
                _(
                    "The federation's players changed since this preview was made (start numbers %(numbers)s): "
                    "check the players again."
                )
                % {"numbers": ", ".join(map(str, changed[:20]))}
            ],
            corrected,
        )
    resolved: dict[int, int | None] = {}
    problems = []
    for player in players:
        match = current[player.start_number]
        if match.status == MATCHED:
            resolved[player.start_number] = match.player_id
        elif match.status == NEW:
            resolved[player.start_number] = None
        else:
            if player.start_number not in choices:
                problems.append(
                    _("Choose who %(name)s (start number %(number)s) is.")
                    % {"name": player.display_name, "number": player.start_number}
                )
                continue
            choice = choices[player.start_number]
            if choice is not None and choice not in {c.player_id for c in match.candidates}:
                problems.append(
                    _("Start number %(number)s: that player was not offered.") % {"number": player.start_number}
                )
                continue
            resolved[player.start_number] = choice
    chosen = [pid for pid in resolved.values() if pid is not None]
    if len(chosen) != len(set(chosen)):
        problems.append(_("One federation player is chosen for two start numbers."))
    if problems:
        raise ConfirmError(problems)
    return resolved


def _club(name: str, cache: dict[str, Club]) -> Club | None:
    name = name.strip()
    if not name:
        return None
    if name not in cache:
        cache[name] = Club.objects.filter(name=name).first() or Club.objects.create(name=name)
    return cache[name]


def _register(players: list[ParsedPlayer], resolved: dict[int, int | None], birth_dates: dict) -> dict[int, Player]:
    """Create the new players, fill what existing ones lack; start number -> Player."""
    clubs: dict[str, Club] = {}
    existing = Player.objects.in_bulk([pid for pid in resolved.values() if pid is not None])
    taken_fide = set(
        Player.objects.filter(fide_id__in=[p.fide_id for p in players if p.fide_id]).values_list("fide_id", flat=True)
    )
    new_players: list[Player] = []
    numbers: list[int] = []
    for parsed in players:
        birth, precision = parsed.birth_date, parsed.birth_precision
        if parsed.start_number in birth_dates:
            birth, precision = birth_dates[parsed.start_number]
        player_id = resolved[parsed.start_number]
        if player_id is None:
            new_players.append(
                Player(
                    family_name=parsed.family_name,
                    given_names=parsed.given_names,
                    birth_date=birth if precision != "unknown" else None,
                    birth_precision=precision if birth else Player.BirthPrecision.UNKNOWN,
                    sex=parsed.sex,
                    fide_id=parsed.fide_id if parsed.fide_id and parsed.fide_id not in taken_fide else None,
                    country=parsed.country[:3],
                    title=parsed.title[:4],
                    club=_club(parsed.club, clubs),
                )
            )
            numbers.append(parsed.start_number)
            continue
        player = existing[player_id]
        changed = False
        if player.birth_date is None and birth is not None and precision != "unknown":
            player.birth_date, player.birth_precision, changed = birth, precision, True
        if player.fide_id is None and parsed.fide_id and parsed.fide_id not in taken_fide:
            player.fide_id, changed = parsed.fide_id, True
        for attribute, value in (("country", parsed.country[:3]), ("title", parsed.title[:4]), ("sex", parsed.sex)):
            if value and not getattr(player, attribute):
                setattr(player, attribute, value)
                changed = True
        if player.club_id is None and parsed.club:
            player.club, changed = _club(parsed.club, clubs), True
        if changed:
            player.save()
    created = players_bulk_create(new_players)
    by_number = {number: existing[pid] for number, pid in resolved.items() if pid is not None}
    by_number.update(zip(numbers, created, strict=True))
    return by_number


@_saving_outdated_preview
def tournament_confirm(
    *,
    upload: Upload,
    user,
    details: TournamentDetails,
    choices: dict[int, int | None] | None = None,
    birth_dates: dict[int, tuple[datetime.date, str]] | None = None,
    replaces: int | None = None,
) -> Tournament:
    """Save the previewed tournament, its participants and games, all or nothing.

    If the federation holds this tournament already (`tournaments.uploads.duplicates`), it is saved only
    when `replaces` names that earlier tournament and the user may replace it: the earlier one is
    then withdrawn in the same transaction and the history re-rated.
    """
    choices, birth_dates = choices or {}, birth_dates or {}
    with transaction.atomic():
        upload = Upload.objects.select_for_update().get(pk=upload.pk)
        if upload.status != Upload.Status.PREVIEW:
            raise ConfirmError([_("This upload was confirmed or cancelled already.")])
        data = upload.preview["file"]
        if data["content"] != RESULTS:
            raise ConfirmError([_("A player list has no games: register its players instead.")])
        _check_details(details, data)
        players = _parsed_players(upload.preview)
        resolved = _resolve(upload, players, choices)
        earlier = replacement.replaced_tournament(upload, details, resolved, user=user, replaces=replaces)
        by_number = _register(players, resolved, birth_dates)
        tournament = Tournament.objects.create(
            name=details.name.strip(),
            city=details.city.strip(),
            chief_arbiter_name=details.chief_arbiter_name.strip(),
            start_date=details.start_date,
            end_date=details.end_date,
            rounds=details.rounds,
            time_control=details.time_control,
            time_control_detail=details.time_control_detail,
            fide_rated=details.fide_rated,
            mchess_weight=details.mchess_weight or settings.MCHESS_DEFAULT_WEIGHT,
            rate_mchess=details.rate_mchess,
            rate_playchess=details.rate_playchess,
            chief_arbiter=user,
            status=Tournament.Status.QUEUED,
            tiebreaks=[code for code in data.get("tiebreaks", []) if code in TIEBREAK_NAMES],
        )
        # ORR rates a FIDE-rated tournament's entrants with their FIDE ratings: where the file has
        # none for an entrant with a FIDE id, the stored FIDE list supplies it.
        listed = (
            listed_ratings(
                (p.fide_id or by_number[p.start_number].fide_id for p in players if p.rating is None),
                list_kind(details.time_control),
                on=details.start_date,
            )
            if details.fide_rated
            else {}
        )

        def fide_rating(p):
            if p.rating is not None or not details.fide_rated:
                return p.rating
            found = listed.get(p.fide_id or by_number[p.start_number].fide_id)
            return found[0] if found else None

        Participant.objects.bulk_create(
            Participant(
                tournament=tournament,
                player=by_number[p.start_number],
                start_number=p.start_number,
                rank=p.rank,
                points_in_file=p.points,
                rating_in_file=p.national_rating or p.rating,
                fide_rating_in_file=fide_rating(p),
                club_in_file=p.club[:200],
            )
            for p in players
        )
        Game.objects.bulk_create(
            Game(
                tournament=tournament,
                round=g["round"],
                board=g.get("board"),
                white=by_number[g["white"]],
                black=by_number[g["black"]] if g["black"] is not None else None,
                result=g["result"],
                kind=g["kind"],
                moves=g.get("moves") or "",
            )
            for g in data["games"]
        )
        upload.status = Upload.Status.CONFIRMED
        upload.tournament = tournament
        upload.save(update_fields=["status", "tournament"])
        if earlier is not None:
            replacement.replace(earlier, tournament, user=user, upload=upload)
        rating_request(reason=RatingRequest.Reason.CONFIRM, tournament=tournament)
    return tournament


@_saving_outdated_preview
def players_register(
    *, upload: Upload, choices: dict[int, int | None] | None = None, birth_dates: dict | None = None
) -> list[Player]:
    """A starting-rank list: create its new players and complete the known ones."""
    with transaction.atomic():
        upload = Upload.objects.select_for_update().get(pk=upload.pk)
        if upload.status != Upload.Status.PREVIEW:
            raise ConfirmError([_("This upload was confirmed or cancelled already.")])
        players = _parsed_players(upload.preview)
        resolved = _resolve(upload, players, choices or {})
        by_number = _register(players, resolved, birth_dates or {})
        upload.status = Upload.Status.REGISTERED
        upload.save(update_fields=["status"])
    return [by_number[p.start_number] for p in players]


def _check_details(details: TournamentDetails, data: dict) -> None:
    problems = []
    if not details.name.strip():
        problems.append(_("The tournament needs a name."))
    if details.end_date < details.start_date:
        problems.append(_("The tournament cannot end before it starts."))
    opening = opening_date()
    if opening is not None and details.end_date < opening:
        problems.append(
            _("The tournament ends before %(date)s, the date of the opening list the ratings start from.")
            % {"date": opening.isoformat()}
        )
    highest = max((g["round"] for g in data["games"]), default=0)
    if details.rounds < highest:
        problems.append(
            _("The file has games in round %(round)s; the tournament cannot have fewer rounds.") % {"round": highest}
        )
    if details.time_control not in Tournament.TimeControl.values:
        problems.append(_("Unknown time control."))
    if problems:
        raise ConfirmError(problems)
