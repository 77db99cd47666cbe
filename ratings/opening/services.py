"""Importing an opening list: the preview (nothing written) and its application, atomically,
under the rating lock, audited, followed by the re-rating from its date."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from accounts import audit
from players.models import Club, Player, Region, Sequence
from ratings.models import OpeningEntry, OpeningList
from ratings.opening import reader
from ratings.opening.columns import SYSTEMS
from ratings.opening.selectors import birth_text, entry_states
from ratings.opening.timeline import opening_key
from ratings.services import _lock
from ratings.timeline.keys import START
from ratings.timeline.walk import replay_from


class ListRefused(Exception):
    def __init__(self, messages: list[str]):
        super().__init__("; ".join(messages))
        self.messages = messages


@dataclass
class Difference:
    row: int
    federation_id: int | None
    name: str
    what: str  # a system, or "player"
    before: str
    after: str


@dataclass
class ListPreview:
    file_name: str
    effective: datetime.date
    sheet: reader.Sheet
    new: list[reader.Entry] = field(default_factory=list)
    matched: list[tuple[reader.Entry, Player]] = field(default_factory=list)
    conflicts: list[Difference] = field(default_factory=list)  # the file and the site disagree on a player
    differences: list[Difference] = field(default_factory=list)  # against the list already imported
    removed: list[Player] = field(default_factory=list)  # in the list imported, not in this one
    errors: list[str] = field(default_factory=list)
    refusal: str = ""

    @property
    def can_apply(self) -> bool:
        return not (self.errors or self.refusal or self.sheet.unknown)


def list_preview(*, file_name: str, data: bytes, effective: datetime.date, mapping=None) -> ListPreview:
    """Read the file and compare it with the site; nothing is written."""
    try:
        rows = reader.rows_of(file_name, data)
    except Exception as exc:  # a broken xlsx or a file in another encoding: say what, change nothing
        raise ListRefused([_("%(file)s cannot be read: %(error)s") % {"file": file_name, "error": exc}]) from None
    sheet = reader.read(rows, mapping)
    preview = ListPreview(file_name, effective, sheet)
    preview.errors = [_problem(file_name, p) for p in sheet.problems]
    other = OpeningList.objects.exclude(effective=effective).first()
    if other is not None:
        preview.refusal = _(
            "The site starts from the opening list of %(date)s; a corrected list must carry the same date."
        ) % {"date": other.effective.isoformat()}
    ids = [e.federation_id for e in sheet.entries if e.federation_id is not None]
    players = {
        p.federation_id: p for p in Player.objects.filter(federation_id__in=ids).select_related("club", "region")
    }
    fide_owners = dict(
        Player.objects.filter(fide_id__in=[e.fide_id for e in sheet.entries if e.fide_id]).values_list(
            "fide_id", "federation_id"
        )
    )
    for entry in sheet.entries:
        player = players.get(entry.federation_id)
        owner = fide_owners.get(entry.fide_id)
        if owner is not None and owner != entry.federation_id:
            preview.errors.append(
                _("%(file)s, row %(row)s, column fide_id: FIDE id %(fide)s belongs to player %(owner)s")
                % {"file": file_name, "row": entry.row, "fide": entry.fide_id, "owner": owner}
            )
        if player is None:
            preview.new.append(entry)
            continue
        preview.matched.append((entry, player))
        for what, before, after in _player_differences(entry, player):
            preview.conflicts.append(Difference(entry.row, entry.federation_id, player.full_name, what, before, after))
    existing = OpeningList.objects.filter(effective=effective).first()
    if existing is not None:
        _differences(preview, existing)
    return preview


def _problem(file_name: str, problem: reader.Problem) -> str:
    return _("%(file)s, row %(row)s, column %(column)s: %(message)s%(value)s") % {
        "file": file_name,
        "row": problem.row,
        "column": problem.column,
        "message": _(problem.message) % problem.params if problem.params else _(problem.message),
        "value": f" ({problem.value!r})" if problem.value else "",
    }


def _player_differences(entry: reader.Entry, player: Player):
    file_birth = birth_text(Player(birth_date=entry.birth_date, birth_precision=entry.birth_precision))
    pairs = [
        (_("family name"), player.family_name, entry.family_name),
        (_("given names"), player.given_names, entry.given_names),
        (_("birth"), birth_text(player), file_birth),
        (_("sex"), player.sex, entry.sex),
        (_("FIDE id"), str(player.fide_id or ""), str(entry.fide_id or "")),
    ]
    return [(what, before, after) for what, before, after in pairs if before != after]


def _differences(preview: ListPreview, existing: OpeningList) -> None:
    old = entry_states(existing)
    seen = set()
    for entry, player in preview.matched:
        seen.add(player.pk)
        fide, states = old.get(player.pk, (None, {}))
        for system in SYSTEMS:
            before, after = _show(states.get(system)), _show(entry.states.get(system))
            if before != after:
                preview.differences.append(
                    Difference(entry.row, entry.federation_id, player.full_name, system, before, after)
                )
        if (fide or None) != entry.fide_rating:
            preview.differences.append(
                Difference(
                    entry.row,
                    entry.federation_id,
                    player.full_name,
                    "FIDE",
                    str(fide or ""),
                    str(entry.fide_rating or ""),
                )
            )
    preview.removed = list(Player.objects.filter(pk__in=set(old) - seen).order_by("federation_id"))


def _show(state: dict | None) -> str:
    if state is None:
        return "-"
    rating = "-" if state.get("rating") is None else str(state["rating"])
    mark = "*" if state.get("provisional") else ""
    stored = len(state.get("stored") or ())
    counts = f"{state.get('games', 0)} / {state.get('tournaments', 0)}"
    return f"{rating}{mark} / {counts} / {state.get('last_played') or '-'} / {stored}"


def list_apply(*, file_name: str, data: bytes, effective: datetime.date, actor=None, mapping=None) -> OpeningList:
    """Import the list as the state at 00:00 of `effective`, all or nothing, and re-rate from there."""
    with transaction.atomic():
        _lock()
        preview = list_preview(file_name=file_name, data=data, effective=effective, mapping=mapping)
        if not preview.can_apply:
            raise ListRefused(
                ([preview.refusal] if preview.refusal else [])
                + preview.errors
                + [
                    _("%(file)s: unknown column %(heading)s (map it to a field)") % {"file": file_name, "heading": h}
                    for h in preview.sheet.unknown
                ]
            )
        players = _players(preview)
        opening, _created = OpeningList.objects.get_or_create(effective=effective, defaults={"file_name": file_name})
        opening.file_name = file_name
        opening.save()
        removed = [p.pk for p in preview.removed]
        OpeningEntry.objects.filter(opening=opening).delete()
        OpeningEntry.objects.bulk_create(
            [
                OpeningEntry(
                    opening=opening,
                    player_id=players[entry.row],
                    fide_rating=entry.fide_rating,
                    states={s: st for s, st in entry.states.items() if st is not None},
                )
                for entry in preview.sheet.entries
            ],
            batch_size=2000,
        )
        audit.record(
            actor=actor,
            action="opening_list_import",
            target=opening,
            summary=f"{file_name}: {len(preview.sheet.entries)} players on {effective}",
            after={
                "new": len(preview.new),
                "matched": len(preview.matched),
                "conflicts": len(preview.conflicts),
                "differences": len(preview.differences),
                "removed": removed,
            },
        )
        # Players dropped from a corrected list lose its standings: only a walk from the start
        # rebuilds them without it.
        replay_from(START if removed else opening_key(effective))
    return opening


def _players(preview: ListPreview) -> dict[int, int]:
    """Create the new players and bring the matched ones to the file's facts: row -> player id."""
    from players.services import FEDERATION_ID_SEQUENCE, FIRST_FEDERATION_ID, allocate_federation_ids

    clubs = {c.name: c for c in Club.objects.all()}
    regions = {r.name: r for r in Region.objects.all()}

    def club(name):
        if name and name not in clubs:
            clubs[name] = Club.objects.create(name=name)
        return clubs.get(name)

    def region(name):
        if name and name not in regions:
            regions[name] = Region.objects.create(name=name)
        return regions.get(name)

    rows: dict[int, int] = {}
    for entry, player in preview.matched:
        _fill(player, entry, club(entry.club), region(entry.region))
        player.save()
        rows[entry.row] = player.pk
    given = [e.federation_id for e in preview.new if e.federation_id is not None]
    if given:  # ids from the file: the site's next ids come after them
        top = max(max(given) + 1, FIRST_FEDERATION_ID)
        sequence, _ = Sequence.objects.select_for_update().get_or_create(
            name=FEDERATION_ID_SEQUENCE, defaults={"next_value": top}
        )
        highest = Player.objects.aggregate(top=Max("federation_id"))["top"] or 0
        sequence.next_value = max(sequence.next_value, top, highest + 1)
        sequence.save(update_fields=["next_value"])
    fresh = [e for e in preview.new if e.federation_id is None]
    ids = iter(allocate_federation_ids(len(fresh)) if fresh else ())
    for entry in preview.new:
        player = Player(federation_id=entry.federation_id or next(ids))
        _fill(player, entry, club(entry.club), region(entry.region))
        player.save()
        rows[entry.row] = player.pk
    return rows


def _fill(player: Player, entry: reader.Entry, club, region) -> None:
    player.family_name = entry.family_name
    player.given_names = entry.given_names
    player.birth_date = entry.birth_date
    player.birth_precision = entry.birth_precision
    player.sex = entry.sex
    player.fide_id = entry.fide_id
    player.club = club
    player.region = region
