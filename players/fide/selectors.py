"""Reading the stored FIDE list: an application's checks against it, and the ratings an upload's
entrants lack."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from players import names
from players.fide.models import FideListEntry

MATCH, MISMATCH, UNKNOWN = "match", "mismatch", "unknown"


@dataclass(frozen=True)
class Check:
    label: str
    status: str  # match, mismatch or unknown
    claimed: str
    listed: str


@dataclass(frozen=True)
class ApplicationChecks:
    entry: FideListEntry | None  # the standard list's entry of the FIDE id
    month: datetime.date | None  # the stored standard list's month
    checks: list[Check]

    @property
    def all_match(self) -> bool:
        return bool(self.checks) and all(c.status == MATCH for c in self.checks)


def same_name(fide_name: str, family: str, given: str) -> bool:
    """FIDE writes 'Family, Given'; the same words in any order and script agree."""
    listed = sorted(names.name_key(fide_name).split())
    return bool(listed) and listed == sorted(names.name_key(family, given).split())


def application_checks(application) -> ApplicationChecks:
    """The FIDE id, name, birth year and claimed rating of an application against the stored
    standard list (the list a FIDE rating import is about)."""
    entry = FideListEntry.objects.filter(fide_id=application.fide_id, kind=FideListEntry.Kind.STANDARD).first()
    month = (
        entry.month
        if entry
        else FideListEntry.objects.filter(kind=FideListEntry.Kind.STANDARD).values_list("month", flat=True).first()
    )
    if month is None:
        return ApplicationChecks(None, None, [])
    player = application.player
    if player is not None:
        family, given, birth = player.family_name, player.given_names, player.birth_date
        latin = (player.family_name_latin, player.given_names_latin)
    else:
        family, given, birth = application.new_family_name, application.new_given_names, application.new_birth_date
        latin = ("", "")
    claimed_name = f"{family}, {given}" if given else family
    if entry is None:
        exists = Check(str(_("FIDE id in the list")), MISMATCH, str(application.fide_id), str(_("not in the list")))
        return ApplicationChecks(None, month, [exists])
    checks = [Check(str(_("FIDE id in the list")), MATCH, str(application.fide_id), entry.name)]
    name_ok = same_name(entry.name, family, given) or (any(latin) and same_name(entry.name, *latin))
    checks.append(Check(str(_("Name")), MATCH if name_ok else MISMATCH, claimed_name, entry.name))
    if birth is None or entry.birth_year is None:
        status = UNKNOWN
    else:
        status = MATCH if birth.year == entry.birth_year else MISMATCH
    checks.append(
        Check(
            str(_("Birth year")),
            status,
            str(birth.year) if birth else "—",
            str(entry.birth_year) if entry.birth_year else "—",
        )
    )
    if entry.month != application.rating_list_month:
        checks.append(
            Check(
                str(_("Rating")),
                UNKNOWN,
                str(application.fide_rating),
                str(_("no list for %(month)s (the stored list is %(stored)s)"))
                % {"month": f"{application.rating_list_month:%Y-%m}", "stored": f"{entry.month:%Y-%m}"},
            )
        )
    else:
        ok = entry.rating == application.fide_rating
        checks.append(
            Check(str(_("Rating")), MATCH if ok else MISMATCH, str(application.fide_rating), str(entry.rating or "—"))
        )
    return ApplicationChecks(entry, month, checks)


# A tournament's time control (tournaments.models.Tournament.TimeControl values) -> FIDE's list of
# that rate of play; correspondence chess has none of FIDE's three lists.
LIST_FOR_TIME_CONTROL = {
    "classical": FideListEntry.Kind.STANDARD,
    "rapid": FideListEntry.Kind.RAPID,
    "blitz": FideListEntry.Kind.BLITZ,
}


def list_kind(time_control: str | None) -> str | None:
    """The FIDE list a tournament of this time control is rated with, or None (correspondence)."""
    return LIST_FOR_TIME_CONTROL.get(time_control or "classical")


def listed_ratings(
    fide_ids, kind: str | None = FideListEntry.Kind.STANDARD, *, on: datetime.date | None = None
) -> dict[int, tuple[int, datetime.date]]:
    """FIDE id -> (rating, list month) in the stored list of `kind`, for the rated ones. With `on`
    (a tournament's start), only a list published by then counts: a later list's rating is not the
    one the entrant had (the site keeps only the latest list of each kind)."""
    if kind is None:
        return {}
    rows = FideListEntry.objects.filter(fide_id__in=set(fide_ids), kind=kind, rating__isnull=False)
    if on is not None:
        rows = rows.filter(month__lte=on)
    return {fide_id: (rating, month) for fide_id, rating, month in rows.values_list("fide_id", "rating", "month")}


def upload_fide_ratings(
    preview: dict, *, time_control: str | None = None, on: datetime.date | None = None
) -> dict[int, tuple[int, datetime.date]]:
    """Start number -> (rating, list month) for an upload's entrants without a rating in the file
    but with a FIDE id (the file's, or the matched player's) that the stored list of the
    tournament's rate of play rates (published by `on`, its start): what a FIDE-rated tournament
    will use for them. Two queries."""
    from players.models import Player

    kind = list_kind(time_control)
    if kind is None:
        return {}
    matches = preview.get("matches", {})
    wanted = [p for p in preview["file"]["players"] if not p.get("rating")]
    matched = {
        p["start_number"]: matches.get(str(p["start_number"]), {}).get("player_id")
        for p in wanted
        if not p.get("fide_id")
    }
    known = dict(
        Player.objects.filter(pk__in=[pk for pk in matched.values() if pk], fide_id__isnull=False).values_list(
            "pk", "fide_id"
        )
    )
    ids = {p["start_number"]: p.get("fide_id") or known.get(matched.get(p["start_number"])) for p in wanted}
    listed = listed_ratings((fide_id for fide_id in ids.values() if fide_id), kind, on=on)
    return {number: listed[fide_id] for number, fide_id in ids.items() if fide_id in listed}
