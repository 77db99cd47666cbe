"""Finding the players of a result file among the federation's players.

In order: the FIDE id, the federation's own id, then the name (Cyrillic and Latin
spellings being the same name) together with the birth date. A name alone, or a
name shared by several players, is never taken on trust: the arbiter chooses.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from dataclasses import asdict, dataclass, field

from django.db.models import Q
from django.utils.translation import gettext, gettext_noop

from players.models import Player
from players.names import name_key

MATCHED, AMBIGUOUS, NEW = "matched", "ambiguous", "new"


@dataclass
class Candidate:
    player_id: int
    federation_id: int
    name: str
    birth: str
    fide_id: int | None
    club: str


# How a player was found, and why a choice is asked: msgids, translated where the preview is
# shown (`shown_match`), since a preview is stored and may be read in another language.
BY_FIDE_ID = gettext_noop("FIDE id")
BY_FEDERATION_ID = gettext_noop("federation id")
BY_NAME_AND_BIRTH = gettext_noop("name and birth date")
SAME_NAME_AND_BIRTH = gettext_noop("same name and birth date")
SAME_NAME_BIRTH_UNKNOWN = gettext_noop("same name, birth date not known to compare")
SAME_PLAYER_TWICE = gettext_noop("the same federation player matches start numbers %(numbers)s")


@dataclass
class Match:
    status: str  # MATCHED, AMBIGUOUS or NEW
    player_id: int | None = None
    how: str = ""  # BY_FIDE_ID, BY_FEDERATION_ID or BY_NAME_AND_BIRTH
    candidates: list[Candidate] = field(default_factory=list)
    note: str = ""  # a msgid, in English
    player: Candidate | None = None  # the matched player, as the preview shows him
    note_params: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        return asdict(self)


def shown_match(match: dict) -> dict:
    """A stored match with its `how` and `note` in the reader's language."""
    note = match.get("note", "")
    if note:
        note = gettext(note) % match["note_params"] if match.get("note_params") else gettext(note)
    return {**match, "how": gettext(match["how"]) if match.get("how") else "", "note": note}


def _candidate(player: Player) -> Candidate:
    return Candidate(
        player.pk,
        player.federation_id,
        player.full_name,
        player.birth_display,
        player.fide_id,
        player.club.name if player.club_id else "",
    )


def _same_birth(player: Player, birth: datetime.date | None, precision: str) -> bool | None:
    """True or False when both dates are known; None when either is unknown."""
    if birth is None or precision == "unknown" or player.birth_date is None:
        return None
    if precision == "day" and player.birth_precision == Player.BirthPrecision.DAY:
        return player.birth_date == birth
    return player.birth_date.year == birth.year


def match_players(parsed_players) -> dict[int, Match]:
    """A Match for every parsed player, by start number; three queries whatever the number of players."""
    live = Player.objects.filter(merged_into__isnull=True).select_related("club")
    fide_ids = {p.fide_id for p in parsed_players if p.fide_id}
    by_fide = {p.fide_id: p for p in live.filter(fide_id__in=fide_ids)} if fide_ids else {}
    national = {int(p.national_id) for p in parsed_players if p.national_id and str(p.national_id).isdigit()}
    by_national = {p.federation_id: p for p in live.filter(federation_id__in=national)} if national else {}
    keys = {p.start_number: name_key(p.family_name, p.given_names) for p in parsed_players}
    by_key: dict[str, list[Player]] = defaultdict(list)
    wanted = set(keys.values()) - {""}
    if wanted:
        for player in live.filter(Q(name_key__in=wanted) | Q(latin_key__in=wanted)).order_by("federation_id"):
            for key in {player.name_key, player.latin_key} & wanted:
                by_key[key].append(player)

    matches: dict[int, Match] = {}
    for parsed in parsed_players:
        if parsed.fide_id and parsed.fide_id in by_fide:
            player = by_fide[parsed.fide_id]
            matches[parsed.start_number] = Match(MATCHED, player.pk, BY_FIDE_ID, player=_candidate(player))
            continue
        if parsed.national_id and str(parsed.national_id).isdigit() and int(parsed.national_id) in by_national:
            player = by_national[int(parsed.national_id)]
            matches[parsed.start_number] = Match(MATCHED, player.pk, BY_FEDERATION_ID, player=_candidate(player))
            continue
        # A player whose FIDE id differs from the file's is someone else of the same name.
        named = [p for p in by_key.get(keys[parsed.start_number], []) if not (parsed.fide_id and p.fide_id)]
        same = [p for p in named if _same_birth(p, parsed.birth_date, parsed.birth_precision)]
        unknown = [p for p in named if _same_birth(p, parsed.birth_date, parsed.birth_precision) is None]
        if len(same) == 1 and not unknown:
            matches[parsed.start_number] = Match(MATCHED, same[0].pk, BY_NAME_AND_BIRTH, player=_candidate(same[0]))
        elif same or unknown:
            matches[parsed.start_number] = Match(
                AMBIGUOUS,
                candidates=[_candidate(p) for p in same + unknown],
                note=SAME_NAME_AND_BIRTH if same else SAME_NAME_BIRTH_UNKNOWN,
            )
        else:
            matches[parsed.start_number] = Match(NEW)

    # One player of the federation cannot be two players of the file.
    taken: dict[int, list[int]] = defaultdict(list)
    for number, match in matches.items():
        if match.status == MATCHED:
            taken[match.player_id].append(number)
    for player_id, numbers in taken.items():
        if len(numbers) > 1:
            player = Player.objects.select_related("club").get(pk=player_id)
            for number in numbers:
                matches[number] = Match(
                    AMBIGUOUS,
                    candidates=[_candidate(player)],
                    note=SAME_PLAYER_TWICE,
                    note_params={"numbers": ", ".join(map(str, numbers))},
                )
    return matches
