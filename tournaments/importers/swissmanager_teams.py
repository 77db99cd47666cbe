"""The teams and team matches of a Swiss-Manager team file (.TUMX), beside its board games.

    teams       after B5 FF 89 44, one record per team number: strings (0 team name, 1 short
                name, 2 captain, then empty ones) and a fixed block; 106 bytes when every string
                is empty. The one real file has the name, short name and captain and nothing else
                in the strings, so the split between strings and block cannot be seen from it:
                both readings the bytes allow are tried, and one is accepted only when its
                records end exactly at the next section with a name for every team.
    matches     after C3 FF 89 44, 15-byte records: u16 home team, u16 away team; each round
                lists its matches in board order, the same count every round.

What is rated are the board games; the teams and matches are read to check them (a board game
between players whose teams did not meet in that round means a damaged file) and to tell the
arbiter what the file holds. A team's name becomes the club of a player whose club is empty.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

from django.utils.translation import gettext_noop

from tournaments.importers.base import ParsedFile, Place, at_round

TEAMS, MATCHES = b"\xb5\xff\x89\x44", b"\xc3\xff\x89\x44"
# The markers that may follow the pairings, the teams or the matches (seen in real files: teams B5,
# matches C3, then C5, D3, E3; an Israeli Swiss goes on from its pairings with C5).
SECTION_ENDS = tuple(bytes([code]) + b"\xff\x89\x44" for code in (0xB5, 0xC3, 0xC5, 0xD3, 0xE3))
TEAM_RECORD = 106  # bytes of a team record whose strings are all empty
# (strings, block) pairs that add up to TEAM_RECORD: the block starting at the first number seen,
# or right after the three strings seen.
TEAM_LAYOUTS = ((27, 52), (3, 100))
MATCH_RECORD = 15
NAMES_SHOWN = 8


@dataclass
class Teams:
    names: dict[int, str] = field(default_factory=dict)
    # round -> the pairs of team numbers that met in it
    matches: dict[int, set[frozenset[int]]] = field(default_factory=dict)


def _strings(data: bytes, at: int, count: int, end: int) -> tuple[list[str], int] | None:
    out = []
    for _ in range(count):
        if at + 2 > end:
            return None
        (length,) = struct.unpack_from("<H", data, at)
        if at + 2 + 2 * length > end:
            return None
        out.append(data[at + 2 : at + 2 + 2 * length].decode("utf-16-le", errors="replace").strip())
        at += 2 + 2 * length
    return out, at


def _names(data: bytes, start: int, end: int, wanted: int) -> dict[int, str] | None:
    for strings, block in TEAM_LAYOUTS:
        names, at = {}, start
        while at < end:
            found = _strings(data, at, strings, end)
            if found is None or found[1] + block > end:
                break
            texts, at = found
            names[len(names) + 1] = texts[0] or texts[1]
            at += block
        if at == end and len(names) >= wanted and all(names.get(n) for n in range(1, wanted + 1)):
            return names
    return None


def _matches(data: bytes, start: int, end: int, rounds: int) -> dict[int, set[frozenset[int]]] | None:
    size = end - start
    if size <= 0 or size % MATCH_RECORD or not rounds or (size // MATCH_RECORD) % rounds:
        return None
    records = [struct.unpack_from("<HH", data, at) for at in range(start, end, MATCH_RECORD)]
    per_round = len(records) // rounds
    return {
        rnd: {frozenset(pair) for pair in records[(rnd - 1) * per_round : rnd * per_round] if 0 not in pair}
        for rnd in range(1, rounds + 1)
    }


def section_end(data: bytes, start: int) -> int:
    """Where the section starting at `start` ends: at the next section's marker (the pairings, the
    teams and the matches alike), or the file's end."""
    return min([at for at in (data.find(marker, start) for marker in SECTION_ENDS) if at != -1] or [len(data)])


def _section(data: bytes, marker: bytes, after: int) -> tuple[int, int] | None:
    at = data.find(marker, after)
    if at == -1:
        return None
    return at + 4, section_end(data, at + 4)


def read(parsed: ParsedFile, data: bytes, after: int, team_of: dict[int, int]) -> None:
    """Check the board games against the team matches and note the teams; `after` is where the
    pairings end, `team_of` each start number's team number."""
    wanted = max(team_of.values(), default=0)
    teams_at = _section(data, TEAMS, after)
    names = _names(data, *teams_at, wanted) if teams_at else None
    if names is None:
        parsed.warn(
            gettext_noop(
                "the team names in this Swiss-Manager file could not be read; the board games are imported without them"
            ),
            Place(parsed.file_name),
            "teams_unread",
        )
        return
    teams = Teams(names=names)
    matches_at = _section(data, MATCHES, teams_at[1])
    found = _matches(data, *matches_at, parsed.rounds) if matches_at else None
    if found is not None:
        teams.matches = found
        _check_boards(parsed, teams, team_of)
    for player in parsed.players:
        if not player.club and team_of.get(player.start_number) in names:
            player.club = names[team_of[player.start_number]]
    shown = [names[n] for n in sorted(names)[:NAMES_SHOWN]]
    parsed.note(
        gettext_noop(
            "A Swiss-Manager team tournament: %(teams)s teams (%(names)s) in %(matches)s matches; the individual "
            "board games are imported and rated, the match results are not."
        ),
        teams=len(names),
        names=", ".join(shown) + (", …" if len(names) > NAMES_SHOWN else ""),
        matches=sum(len(pairs) for pairs in teams.matches.values()),
    )


def _check_boards(parsed: ParsedFile, teams: Teams, team_of: dict[int, int]) -> None:
    for game in parsed.games:
        if game.black is None or game.round not in teams.matches:
            continue
        pair = frozenset((team_of.get(game.white, 0), team_of.get(game.black, 0)))
        if pair not in teams.matches[game.round]:
            home, away = (teams.names.get(team_of.get(n, 0), "?") for n in (game.white, game.black))
            parsed.error(
                gettext_noop(
                    "the board game of players %(white)s (%(home)s) and %(black)s (%(away)s) is not part of a match of "
                    "that round; the team file is damaged"
                ),
                Place(parsed.file_name, detail=at_round(game.round)),
                "board_outside_match",
                white=game.white,
                black=game.black,
                home=home,
                away=away,
            )
