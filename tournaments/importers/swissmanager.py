"""Swiss-Manager's own binary files: .TUNX (individual Swiss), .TURX (round robin), .TUMX (teams).

The layout (little-endian throughout; strings are a 16-bit character count then UTF-16LE):

    0x00        magic 93 FF 89 44
    0x6C        tournament strings up to the config marker 95 FF 89 44: 0 name, 5 venue,
                10 city, 14 time control, 20 federation, 21 chief arbiter, 35 deputy chief
                arbiters, 6 other arbiters, 3 tournament director, 4 organiser
    config      after 95 FF 89 44: u16 rounds announced at +0x00, u8 type at +0x0B
                (0 Swiss, 1 round robin, 2/3 teams), u8 rounds paired at +0x11, u16 players
                at +0x13, u32 YYYYMMDD first and last day at +0x47 and +0x4B
    players     after A5 FF 89 44, one per start number: 30 strings (0 family name, 1 given
                names, 4 title, 5 national id, 9 club, 10 federation) and 110 bytes (u8 sex at
                +0x06, u16 FIDE rating +0x08, u16 national rating +0x0A, u32 YYYYMMDD birth
                +0x0E (MMDD 0000 when only the year is known), u32 FIDE id +0x18, u16 team
                +0x1C and board +0x1E in team files)
    pairings    after B3 FF 89 44, 21-byte records up to the next marker: u16 white, u16 black
                (FFFE: no opponent, absent; FFFF: the bye), u16 result; records carry no round
                number: each round lists every player once, so a start number seen again starts
                the next round (team files: the board games of a round, the same count each round)
    teams       team files only: team names and the matches of each round, after the pairings
                (swissmanager_teams.py), used to check the board games

The layout was learnt from the files in examples/ with two public readers as a map
(echecsjs/tunx, felipeamp/fexerj-rating-calculator); this reader is written from the bytes.
The file stores no totals (Swiss-Manager recomputes them), so points come from the games.
"""

from __future__ import annotations

import datetime
import struct

from django.utils.translation import gettext_noop

from tournaments.importers import swissmanager_teams
from tournaments.importers.base import ParsedFile, ParsedPlayer, Place, Text, at_round, refusal
from tournaments.importers.pairing import UNFINISHED, Cell, build_games, check_unique_start_numbers

MAGIC = b"\x93\xff\x89\x44"
CONFIG, PLAYERS, PAIRINGS = b"\x95\xff\x89\x44", b"\xa5\xff\x89\x44", b"\xb3\xff\x89\x44"
PLAYER_STRINGS, PLAYER_BLOCK, RECORD = 30, 110, 21
ABSENT, BYE = 0xFFFE, 0xFFFF
FORMAT_BY_TYPE = {0: "tunx", 1: "turx", 2: "tumx", 3: "tumx"}
VIEWS = {0: "Swiss-Manager Swiss", 1: "Swiss-Manager round robin", 2: "Swiss-Manager team", 3: "Swiss-Manager team"}
# Result of a game record, as the TRF codes of white and black (pairing.py's language).
GAME_CODES = {0: (UNFINISHED, UNFINISHED), 1: ("1", "0"), 2: ("=", "="), 3: ("0", "1"), 4: ("+", "-"), 5: ("-", "+")}


# Real files carry codes no public description explains (6 in an Argentine Swiss, 15 and 17 in a
# Ukrainian one, all between two players); guessing a result would rate a game wrongly, so the
# file is refused with the way out Swiss-Manager itself offers.
UNKNOWN_CODE = gettext_noop(
    "result code %(code)s is not one this site can read in Swiss-Manager files; export the tournament from "
    "Swiss-Manager as a FIDE TRF file and upload that instead"
)


def looks_like_swissmanager(data: bytes) -> bool:
    return data.startswith(MAGIC)


class _Bytes:
    """A cursor over the file that refuses, naming the file and the part, when the bytes run out."""

    def __init__(self, data: bytes, file_name: str, offset: int, end: int, part: Text):
        self.data, self.file_name, self.offset, self.end, self.part = data, file_name, offset, end, part

    def _need(self, size: int) -> None:
        if self.offset + size > self.end:
            raise refusal(
                gettext_noop(
                    "the Swiss-Manager file is cut short or damaged: %(part)s ends too early (byte %(offset)s)"
                ),
                Place(self.file_name),
                "truncated",
                part=self.part,
                offset=self.offset,
            )

    def string(self) -> str:
        self._need(2)
        (count,) = struct.unpack_from("<H", self.data, self.offset)
        self._need(2 + count * 2)
        raw = self.data[self.offset + 2 : self.offset + 2 + count * 2]
        self.offset += 2 + count * 2
        return raw.decode("utf-16-le", errors="replace").strip()

    def take(self, size: int) -> bytes:
        self._need(size)
        self.offset += size
        return self.data[self.offset - size : self.offset]


def _date(value: int) -> tuple[datetime.date | None, str]:
    """A YYYYMMDD number: the date and its precision ("day", "year" or "unknown")."""
    year, month, day = value // 10000, value // 100 % 100, value % 100
    if not 1850 <= year <= 2200:
        return None, "unknown"
    if month == 0 or day == 0:
        return datetime.date(year, 1, 1), "year"
    try:
        return datetime.date(year, month, day), "day"
    except ValueError:
        return datetime.date(year, 1, 1), "year"


def _find(data: bytes, marker: bytes, file_name: str, part: str) -> int:
    at = data.find(marker)
    if at == -1:
        raise refusal(
            gettext_noop("the Swiss-Manager file is cut short or damaged: its %(part)s section is missing"),
            Place(file_name),
            "truncated",
            part=part,
        )
    return at


def parse(data: bytes, file_name: str) -> ParsedFile:
    config_at = _find(data, CONFIG, file_name, "settings")
    players_at = _find(data, PLAYERS, file_name, "players")
    pairings_at = _find(data, PAIRINGS, file_name, "pairings")
    if not config_at < players_at < pairings_at:
        raise refusal(
            gettext_noop("the Swiss-Manager file is cut short or damaged: its sections are out of order"),
            Place(file_name),
            "truncated",
        )
    config = _Bytes(data, file_name, config_at + 4, players_at, Text.of(gettext_noop("the settings")))
    head = config.take(0x4F)
    rounds, kind, paired, count = (
        head[0] | head[1] << 8,
        head[0x0B],
        head[0x11],
        struct.unpack_from("<H", head, 0x13)[0],
    )
    if count == 0:
        # A tournament created in Swiss-Manager before anyone was entered: nothing to import.
        raise refusal(
            gettext_noop("the Swiss-Manager file has no players yet: upload it once the tournament has been played"),
            Place(file_name),
            "no_players",
        )
    parsed = ParsedFile(file_name, FORMAT_BY_TYPE.get(kind, "tunx"), view=VIEWS.get(kind, "Swiss-Manager"))
    parsed.rounds = rounds
    _header(parsed, data, config_at, head)
    team_of = _players(parsed, data, players_at, pairings_at, count)
    end = swissmanager_teams.section_end(data, pairings_at)
    records = [struct.unpack_from("<HHH", data, at) for at in range(pairings_at + 4, end - RECORD + 1, RECORD)]
    if (end - pairings_at - 4) % RECORD:
        raise refusal(
            gettext_noop("the Swiss-Manager file is cut short or damaged: %(part)s ends too early (byte %(offset)s)"),
            Place(file_name),
            "truncated",
            part=Text.of(gettext_noop("the pairings")),
            offset=end,
        )
    by_round = _split_team(parsed, records) if kind in (2, 3) else _split(records, count)
    if len(by_round) > max(rounds, 1):
        raise refusal(
            gettext_noop(
                "the Swiss-Manager file is damaged: it has pairings for %(found)s rounds but announces %(rounds)s"
            ),
            Place(file_name),
            "bad_rounds",
            found=len(by_round),
            rounds=rounds,
        )
    cells = _cells(parsed, by_round, round_robin=kind in (1, 2))
    check_unique_start_numbers(parsed)
    build_games(parsed, cells)
    if kind in (2, 3):
        swissmanager_teams.read(parsed, data, end, team_of)
    played = max((game.round for game in parsed.games), default=0)
    if paired < rounds or played < rounds:
        parsed.warn(
            gettext_noop(
                "the tournament is unfinished: %(rounds)s rounds are announced, results are in the file for "
                "%(played)s; only the games with a result are imported, the arbiter decides whether to rate them"
            ),
            Place(file_name),
            "unfinished",
            rounds=rounds,
            played=played,
        )
    return parsed


def _header(parsed: ParsedFile, data: bytes, config_at: int, head: bytes) -> None:
    texts = _Bytes(data, parsed.file_name, 0x6C, config_at, Text.of(gettext_noop("the tournament details")))
    strings = []
    while texts.offset + 2 <= config_at:
        strings.append(texts.string())
    field = dict(enumerate(strings)).get
    parsed.name = field(0, "") or field(9, "")
    parsed.city = field(10, "")
    parsed.federation = field(20, "")
    parsed.time_control = field(14, "")
    parsed.chief_arbiter = field(21, "")
    parsed.deputy_arbiters = [part.strip() for part in field(35, "").split(";") if part.strip()]
    for index, label in ((5, "venue"), (3, "tournament director"), (4, "organiser"), (6, "arbiters")):
        if field(index, ""):
            parsed.details[label] = field(index, "")
    parsed.start_date = _date(struct.unpack_from("<I", head, 0x47)[0])[0]
    parsed.end_date = _date(struct.unpack_from("<I", head, 0x4B)[0])[0]


def _players(parsed: ParsedFile, data: bytes, players_at: int, pairings_at: int, count: int) -> dict[int, int]:
    """Read the players into `parsed`; return each start number's team number (0 outside team files)."""
    team_of = {}
    cursor = _Bytes(data, parsed.file_name, players_at + 4, pairings_at, Text.of(gettext_noop("the player list")))
    for number in range(1, count + 1):
        cursor.part = Text.of(gettext_noop("player %(number)s"), number=number)
        strings = [cursor.string() for _ in range(PLAYER_STRINGS)]
        block = cursor.take(PLAYER_BLOCK)
        fide_rating, national_rating = struct.unpack_from("<HH", block, 0x08)
        (born,) = struct.unpack_from("<I", block, 0x0E)
        (fide_id,) = struct.unpack_from("<I", block, 0x18)
        (team_of[number],) = struct.unpack_from("<H", block, 0x1C)
        birth, precision = _date(born)
        parsed.players.append(
            ParsedPlayer(
                start_number=number,
                family_name=strings[0],
                given_names=strings[1],
                fide_id=fide_id or None,
                national_id=strings[5] or None,
                rating=fide_rating or None,
                national_rating=national_rating or None,
                country=strings[10],
                club=strings[9],
                birth_date=birth,
                birth_precision=precision,
                # Swiss-Manager has one "female" mark; its own TRF export writes "m" for the others.
                sex={0: "M", 1: "F"}.get(block[0x06], ""),
                title=strings[4],
                place=Place(parsed.file_name, detail=Text.of(gettext_noop("player %(number)s"), number=number)),
            )
        )
    if cursor.offset != pairings_at:
        raise refusal(
            gettext_noop("the Swiss-Manager file is damaged: the player list does not end where the pairings begin"),
            Place(parsed.file_name),
            "truncated",
        )
    return team_of


def _split(records: list[tuple[int, int, int]], count: int) -> list[list[tuple[int, int, int]]]:
    """Rounds from the records: each round names every player once, so a repeat starts the next one."""
    rounds: list[list[tuple[int, int, int]]] = []
    seen: set[int] = set()
    for record in records:
        white, black, _ = record
        numbers = {white} if black >= ABSENT else {white, black}
        if not rounds or numbers & seen or len(seen) >= count:
            rounds.append([])
            seen = set()
        rounds[-1].append(record)
        seen |= numbers
    return rounds


def _split_team(parsed: ParsedFile, records) -> list[list[tuple[int, int, int]]]:
    """Team files list only the board games; every round has as many boards."""
    if not parsed.rounds or len(records) % parsed.rounds:
        raise refusal(
            gettext_noop(
                "the Swiss-Manager team file is damaged: "
                "%(records)s board games cannot be shared among %(rounds)s rounds"
            ),
            Place(parsed.file_name),
            "bad_rounds",
            records=len(records),
            rounds=parsed.rounds,
        )
    size = len(records) // parsed.rounds
    return [records[start : start + size] for start in range(0, len(records), size)]


def _cells(parsed: ParsedFile, by_round, round_robin: bool) -> dict[tuple[int, int], Cell]:
    numbers = {player.start_number for player in parsed.players}
    cells: dict[tuple[int, int], Cell] = {}
    for rnd, records in enumerate(by_round, start=1):
        this_round = at_round(rnd)
        for board, (white, black, result) in enumerate(records, start=1):
            place = Place(
                parsed.file_name,
                detail=Text.of(gettext_noop("%(round)s, board %(board)s"), round=this_round, board=board),
            )
            if 0 in (white, black) and result in GAME_CODES:
                # A team board left empty: its opponent wins by forfeit against nobody (no game).
                number, code = (black, GAME_CODES[result][1]) if white == 0 else (white, GAME_CODES[result][0])
                if number in numbers and code in ("+", "-"):
                    cells[(number, rnd)] = Cell(None, None, "+" if code == "+" else "Z", place)
                    continue
            if white not in numbers:
                parsed.error(
                    gettext_noop("the opponent %(number)s is not in the file"), place, "missing_opponent", number=white
                )
                continue
            if black >= ABSENT:
                code = _no_opponent(black, result, round_robin)
                if code is None:
                    parsed.error(UNKNOWN_CODE, place, "bad_code", code=result)
                elif code:
                    cells[(white, rnd)] = Cell(None, None, code, place)
                continue
            if result not in GAME_CODES:
                parsed.error(UNKNOWN_CODE, place, "bad_code", code=result)
                continue
            white_code, black_code = GAME_CODES[result]
            cells[(white, rnd)] = Cell(black, "w", white_code, place)
            cells[(black, rnd)] = Cell(white, "b", black_code, place)
    return cells


def _no_opponent(black: int, result: int, round_robin: bool) -> str | None:
    """The TRF code of a record without an opponent; "" for a round not played yet (no entry)."""
    if result == 0:
        return ""
    if black == ABSENT:
        return {3: "Z", 2: "H", 1: "F"}.get(result)
    if result == 9:
        # The free round of an odd round robin earns nothing; Swiss-Manager's Swiss bye is one point.
        return "Z" if round_robin else "U"
    return None
